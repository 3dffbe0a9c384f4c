package affinemore

import "sync"

// The mirror writes of a triangle: iteration i writes row i right of the
// diagonal and column i below it; no two iterations meet (exact.go).
func mirror(cov []float64, m int) {
	var wg sync.WaitGroup
	for i := range m { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for j := i; j < m; j++ { // want `i: private: no other goroutine writes i` `m: read\-only: nothing writes m while the construct runs`
				cov[i*m+j] = 1 // want `cov\[i \* m \+ j\]: independent: each iteration touches its own elements of cov \(when the iterations' intervals of cov are apart and their bounds do not overflow\)` `cov: read\-only: nothing writes cov while the construct runs` `i: private: no other goroutine writes i` `m: read\-only: nothing writes m while the construct runs`
				cov[j*m+i] = 1 // want `cov\[j \* m \+ i\]: independent: each iteration touches its own elements of cov \(when the iterations' intervals of cov are apart and their bounds do not overflow\)` `cov: read\-only: nothing writes cov while the construct runs` `m: read\-only: nothing writes m while the construct runs` `i: private: no other goroutine writes i`
			}
		})
	}
	wg.Wait()
}

// The whole square: (i, j) of iteration i is (j, i) of iteration j,
// checked.
func mirrorSquare(cov []float64, m int) {
	var wg sync.WaitGroup
	for i := range m { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for j := 0; j < m; j++ { // want `m: read\-only: nothing writes m while the construct runs`
				cov[i*m+j] = 1 // want `cov\[i \* m \+ j\]: checked: not proven` `cov: read\-only: nothing writes cov while the construct runs` `i: private: no other goroutine writes i` `m: read\-only: nothing writes m while the construct runs`
				cov[j*m+i] = 1 // want `cov\[j \* m \+ i\]: checked: not proven` `cov: read\-only: nothing writes cov while the construct runs` `m: read\-only: nothing writes m while the construct runs` `i: private: no other goroutine writes i`
			}
		})
	}
	wg.Wait()
}

// One column too far: j reaches m, so i*m+j is the next row's first
// element (the delinearization fails), checked.
func mirrorWide(cov []float64, m int) {
	var wg sync.WaitGroup
	for i := range m { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for j := i; j <= m; j++ { // want `i: private: no other goroutine writes i` `m: read\-only: nothing writes m while the construct runs`
				cov[i*m+j] = 1 // want `cov\[i \* m \+ j\]: checked: not proven` `cov: read\-only: nothing writes cov while the construct runs` `i: private: no other goroutine writes i` `m: read\-only: nothing writes m while the construct runs`
				cov[j*m+i] = 1 // want `cov\[j \* m \+ i\]: checked: not proven` `cov: read\-only: nothing writes cov while the construct runs` `m: read\-only: nothing writes m while the construct runs` `i: private: no other goroutine writes i`
			}
		})
	}
	wg.Wait()
}

// A linear pair: iteration i writes a[2*i] and a[2*i+1] and reads
// a[2*i+2], the next iteration's first element: checked.
func linearPair(a []float64, n int) {
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[2*i] = a[2*i+2] // want `a\[2 \* i\]: checked: not proven` `a: read\-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i` `a\[2 \* i \+ 2\]: checked: not proven` `a: read\-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i`
			a[2*i+1] = 1      // want `a\[2 \* i \+ 1\]: checked: not proven` `a: read\-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}
