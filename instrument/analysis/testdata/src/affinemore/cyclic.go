package affinemore

import "sync"

// Rows dealt cyclically, row i to worker i mod workers; the row's slice
// is the lower triangle's, i+1 elements.
func cyclicRows(C []float64, n, workers int) {
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for i := w; i < n; i += workers { // want `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs` `workers: private: no other goroutine writes workers`
				c := C[i*n : i*n+i+1] // want `C: read\-only: nothing writes C while the construct runs` `n: read\-only: nothing writes n while the construct runs` `n: read\-only: nothing writes n while the construct runs`
				for j := range c {
					c[j] = 2 // want `c\[j\]: independent: each iteration touches its own elements of C \(when the iterations' intervals of C are apart and their bounds do not overflow\)`
				}
			}
		})
	}
	wg.Wait()
}

// A step one smaller than the number of workers: worker 0 and the last
// share rows, checked.
func cyclicRowsShort(C []float64, n, workers int) {
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for i := w; i < n; i += workers - 1 { // want `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs` `workers: private: no other goroutine writes workers`
				c := C[i*n : i*n+i+1] // want `C: read\-only: nothing writes C while the construct runs` `n: read\-only: nothing writes n while the construct runs` `n: read\-only: nothing writes n while the construct runs`
				for j := range c {
					c[j] = 2 // want `c\[j\]: checked: not proven`
				}
			}
		})
	}
	wg.Wait()
}

// A flat subscript in the cyclic row, a constant step of 4 over at most 4
// workers.
func cyclicFlat(C []float64, n int) {
	var wg sync.WaitGroup
	for w := range 4 { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for i := w; i < n; i += 4 { // want `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs`
				for j := 0; j < n; j++ { // want `n: read\-only: nothing writes n while the construct runs`
					C[i*n+j] = 1 // want `C\[i \* n \+ j\]: independent: each iteration touches its own elements of C \(when the iterations' intervals of C are apart and their bounds do not overflow\)` `C: read\-only: nothing writes C while the construct runs` `n: read\-only: nothing writes n while the construct runs`
				}
			}
		})
	}
	wg.Wait()
}

// The row reaches one element into the next: checked.
func cyclicFlatOver(C []float64, n int) {
	var wg sync.WaitGroup
	for w := range 4 { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for i := w; i < n; i += 4 { // want `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs`
				for j := 0; j <= n; j++ { // want `n: read\-only: nothing writes n while the construct runs`
					C[i*n+j] = 1 // want `C\[i \* n \+ j\]: checked: not proven` `C: read\-only: nothing writes C while the construct runs` `n: read\-only: nothing writes n while the construct runs`
				}
			}
		})
	}
	wg.Wait()
}
