// Package specialize holds callbacks passed to helpers that fork: those
// the literal runs only as the helper's construct's body are proven with
// it; the others, and the too-wide variant, keep their checks.
package specialize

import "sync"

// rows runs body over [from, to) in blocks of bs and waits.
func rows(from, to, bs int, body func(lo, hi int)) {
	var wg sync.WaitGroup
	for lo := from; lo < to; lo += bs { // want `parallel loop of 1 goroutine start\(s\), joined at line 15`
		wg.Add(1)
		go func() { defer wg.Done(); body(lo, min(lo+bs, to)) }()
	}
	wg.Wait()
}

// wide hands each block one element more than its own: the blocks overlap.
func wide(from, to, bs int, body func(lo, hi int)) {
	var wg sync.WaitGroup
	for lo := from; lo < to; lo += bs { // want `parallel loop of 1 goroutine start\(s\), joined at line 25`
		wg.Add(1)
		go func() { defer wg.Done(); body(lo, min(lo+bs+1, to)) }()
	}
	wg.Wait()
}

// twice also calls body in the parent: the literal runs outside the blocks.
func twice(n int, body func(lo, hi int)) {
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo++ { // want `parallel loop of 1 goroutine start\(s\), joined at line 35`
		wg.Add(1)
		go func() { defer wg.Done(); body(lo, lo+1) }()
	}
	wg.Wait()
	body(0, n)
}

var saved func(lo, hi int)

// keeps stores body: someone may call it later, anywhere.
func keeps(n int, body func(lo, hi int)) {
	saved = body
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo++ { // want `parallel loop of 1 goroutine start\(s\), joined at line 49`
		wg.Add(1)
		go func() { defer wg.Done(); saved(lo, lo+1) }()
	}
	wg.Wait()
}

func proven(n, bs int) {
	a, b := make([]float64, n), make([]float64, n)
	rows(0, n, bs, func(lo, hi int) { // want `callback: runs only in the blocks of the parallel loop at line 11: 1 independent, 1 read-only \(when the chunk bounds from lo do not overflow\)`
		for i := lo; i < hi; i++ {
			a[i] = b[i]
		}
	})
	_ = a
}

func params(n, bs int, dst, src []float64) {
	rows(0, n, bs, func(lo, hi int) { // want `callback: runs only in the blocks of the parallel loop at line 11: 1 independent, 1 read-only \(when dst; src; the chunk bounds from lo do not overflow\)`
		for i := lo; i < hi; i++ {
			dst[i] = src[i]
		}
	})
}

func tooWide(n, bs int) {
	a, b := make([]float64, n), make([]float64, n)
	wide(0, n, bs, func(lo, hi int) { // want `callback: runs only in the blocks of the parallel loop at line 21: 0 independent, 1 read-only`
		for i := lo; i < hi; i++ {
			a[i] = b[i]
		}
	})
}

func notOnly(n int) {
	a := make([]float64, n)
	twice(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			a[i] = 1
		}
	})
	keeps(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			a[i] = 1
		}
	})
}

// shadowed: the literal's parameter n hides the caller's n, which the
// guard needs; it cannot be evaluated at the literal's start.
func shadowed(n, bs int, a []float64) {
	rows(0, n, bs, func(n, hi int) {
		for i := n; i < hi; i++ {
			a[i] = 1
		}
	})
}

// inLiteral: the call site is in a literal, which may run in a construct.
func inLiteral(n, bs int) func() {
	a := make([]float64, n)
	return func() {
		rows(0, n, bs, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				a[i] = 1
			}
		})
	}
}

// calls: the literal calls a function value, which a walk in place
// cannot follow.
func calls(n, bs int, after func(int)) {
	a := make([]float64, n)
	rows(0, n, bs, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			a[i] = 1
		}
		after(lo)
	})
}

// rebound: the caller's bs changes in the literal, so the guard's value
// at a block's start is not the construct's.
func rebound(n, bs int) {
	a := make([]float64, n)
	rows(0, n, bs, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			a[i] = 1
		}
		bs = 0
	})
}

// cyclic deals the indexes out round robin, k goroutines.
func cyclic(n, k int, body func(i int)) {
	var wg sync.WaitGroup
	for w := 0; w < k; w++ { // want `parallel loop of 1 goroutine start\(s\), joined at line 151`
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < n; i += k {
				body(i)
			}
		}(w)
	}
	wg.Wait()
}

// each runs body once per index.
func each(n int, body func(i int)) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line 160`
		wg.Go(func() { body(i) })
	}
	wg.Wait()
}

func rowsOfCallbacks(n int) {
	a, b := make([]float64, n*n), make([]float64, n)
	cyclic(n, 4, func(i int) { // want `callback: runs only in the blocks of the parallel loop at line 142: 1 independent, 1 read-only \(when the iterations' intervals of a are apart`
		for j := 0; j < n; j++ {
			a[i*n+j] += b[j]
		}
	})
	each(n, func(i int) { // want `callback: runs only in the blocks of the parallel loop at line 157: 1 independent, 0 read-only \(when the iterations' intervals of a are apart`
		row := a[i*n : (i+1)*n]
		for j := range row {
			row[j] *= 2
		}
	})
	each(n, func(i int) { // the rows overlap: a row and its successor's first element
		row := a[i*n : (i+1)*n+1]
		for j := range row {
			row[j] *= 2
		}
	})
}

// deferred: the helper runs at the return, after the caller wrote n; a
// guard naming n would test the new value, the helper loops to the old.
func deferred(n, bs int) {
	a := make([]float64, 2*n)
	defer rows(0, n, bs, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			a[i] = 1
		}
	})
	n /= 2
}

// started: the helper runs beside the caller, which may write n meanwhile.
func started(n, bs int) {
	a := make([]float64, n)
	go rows(0, n, bs, func(lo, hi int) { // want `goroutine is never joined`
		for i := lo; i < hi; i++ {
			a[i] = 1
		}
	})
}

type grid struct {
	n, bs int
	pix   []float64
}

// rowsOf runs body over the grid's rows, bs at a time: a method helper.
func (g *grid) rowsOf(n, bs int, body func(lo, hi int)) {
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += bs { // want `parallel loop of 1 goroutine start\(s\), joined at line 217`
		wg.Go(func() { body(lo, min(lo+bs, n)) })
	}
	wg.Wait()
}

// own runs body over [0, g.n): its bounds are the receiver's fields, which
// the literal cannot name at its start.
func (g *grid) own(body func(lo, hi int)) {
	var wg sync.WaitGroup
	for lo := 0; lo < g.n; lo += g.bs { // want `parallel loop of 1 goroutine start\(s\), joined at line 227`
		wg.Go(func() { body(lo, min(lo+g.bs, g.n)) })
	}
	wg.Wait()
}

func methods(g *grid, n, bs int) {
	a := make([]float64, n)
	g.rowsOf(n, bs, func(lo, hi int) { // want `callback: runs only in the blocks of the parallel loop at line 214: 1 independent, 0 read-only \(when the chunk bounds from lo do not overflow\)`
		for i := lo; i < hi; i++ {
			a[i] = 1
		}
	})
	g.own(func(lo, hi int) {
		for i := lo; i < hi; i++ {
			a[i] = 2
		}
	})
}
