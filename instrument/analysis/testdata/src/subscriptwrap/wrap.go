// Package subscriptwrap holds subscripts whose 64-bit arithmetic may wrap:
// k*i+d is owned only when k*i is one-to-one over the loop's indices (k
// odd; or k = 2·odd and i counts up from zero), and a flattened row
// x*w+t only under a guard, evaluated at the construct's start, that it
// does not overflow.
package subscriptwrap

import "sync"

// i*(1<<62) is 0 again at i = 4.
func huge(a []int, n int) {
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line 18`
		wg.Go(func() {
			a[i*(1<<62)] = i // want `a\[i \* \(1 << 62\)\]: checked: not proven` `a: read-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

// The same with a slice made here (the made-slice proof).
func hugeMade(n int) []int {
	a := make([]int, 8)
	var wg sync.WaitGroup
	for i := 0; i < n; i += 4 { // want `parallel loop of 1 goroutine start\(s\), joined at line 30`
		wg.Go(func() {
			a[i*(1<<62)] = 1 // want `a\[i \* \(1 << 62\)\]: checked: not proven` `a: read-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
	return a
}

// 2*i from zero: i spans less than 2^63, 2*i does not meet itself.
func even(a []int, n int) {
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line 42`
		wg.Go(func() {
			a[2*i] = i // want `a\[2 \* i\]: independent: each iteration touches its own elements of a` `a: read-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

// 2*i from lo: proven only under the guard lo >= 0, 2*hi fits (depend.go).
func evenFrom(a []int, lo, hi int) {
	var wg sync.WaitGroup
	for i := lo; i < hi; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line 53`
		wg.Go(func() {
			a[2*i] = i // want `a\[2 \* i\]: independent: each iteration touches its own elements of a \(when the iterations' intervals of a are apart and their bounds do not overflow\)` `a: read-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

// An odd k is one-to-one on every i.
func odd(a []int, lo, hi int) {
	var wg sync.WaitGroup
	for i := lo; i < hi; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line 64`
		wg.Go(func() {
			a[3*i+1] = i // want `a\[3 \* i \+ 1\]: independent: each iteration touches its own elements of a` `a: read-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

// 4 divides k: proven only under the guard that 4*n fits (depend.go).
func quad(a []int, n int) {
	var wg sync.WaitGroup
	for k := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line 75`
		wg.Go(func() {
			a[k*4] = k // want `a\[k \* 4\]: independent: each iteration touches its own elements of a \(when the iterations' intervals of a are apart and their bounds do not overflow\)` `a: read-only: nothing writes a while the construct runs` `k: private: no other goroutine writes k` `k: private: no other goroutine writes k`
		})
	}
	wg.Wait()
}

// A row of width w, a parameter: owned under the guard.
func rows(a []float64, n, w int) {
	var wg sync.WaitGroup
	for r := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line 88`
		wg.Go(func() {
			for t := 0; t < w; t++ { // want `w: read-only: nothing writes w while the construct runs`
				a[r*w+t] = 1 // want `a\[r \* w \+ t\]: independent: each iteration touches its own elements of a \(when r \* w \+ t does not overflow\)` `a: read-only: nothing writes a while the construct runs` `r: private: no other goroutine writes r` `w: read-only: nothing writes w while the construct runs`
			}
		})
	}
	wg.Wait()
}

// The width is a field: the guard cannot be written at the construct's
// start, so the row is not owned.
type grid struct{ w int }

func (g *grid) rows(a []float64, n int) {
	var wg sync.WaitGroup
	for r := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line 104`
		wg.Go(func() {
			for t := 0; t < g.w; t++ { // want `g\.w: read-only: nothing in the construct writes a int` `g: read-only: nothing writes g while the construct runs`
				a[r*g.w+t] = 1 // want `a\[r \* g\.w \+ t\]: checked: not proven` `a: read-only: nothing writes a while the construct runs` `r: private: no other goroutine writes r` `g\.w: read-only: nothing in the construct writes a int` `g: read-only: nothing writes g while the construct runs`
			}
		})
	}
	wg.Wait()
}

// A chunk of rows: the guard bounds the chunk variable by the chunk bound
// at the first index and one past the last.
func chunks(a []float64, n, parts, w int) {
	var wg sync.WaitGroup
	for p := range parts { // want `parallel loop of 1 goroutine start\(s\), joined at line 120`
		wg.Go(func() {
			for r := p * n / parts; r < (p+1)*n/parts; r++ { // want `p: private: no other goroutine writes p` `n: read-only: nothing writes n while the construct runs` `parts: read-only: nothing writes parts while the construct runs` `p: private: no other goroutine writes p` `n: read-only: nothing writes n while the construct runs` `parts: read-only: nothing writes parts while the construct runs`
				for t := range w { // want `w: read-only: nothing writes w while the construct runs`
					a[r*w+t] = 2 // want `a\[r \* w \+ t\]: independent: each iteration touches its own elements of a \(when r \* w \+ t does not overflow and the chunk bounds from p \* n / parts do not overflow\)` `a: read-only: nothing writes a while the construct runs` `w: read-only: nothing writes w while the construct runs`
				}
			}
		})
	}
	wg.Wait()
}

// A range over a slice: its length bounds the row index.
func ranged(a []float64, ws []int, w int) {
	var wg sync.WaitGroup
	for r := range ws { // want `parallel loop of 1 goroutine start\(s\), joined at line 133`
		wg.Go(func() {
			for t := range w { // want `w: read-only: nothing writes w while the construct runs`
				a[r*w+t] = float64(ws[r]) // want `a\[r \* w \+ t\]: independent: each iteration touches its own elements of a \(when r \* w \+ t does not overflow\)` `a: read-only: nothing writes a while the construct runs` `r: private: no other goroutine writes r` `w: read-only: nothing writes w while the construct runs` `ws\[r\]: read-only: nothing in the construct writes ws` `ws: read-only: nothing writes ws while the construct runs` `r: private: no other goroutine writes r`
			}
		})
	}
	wg.Wait()
}
