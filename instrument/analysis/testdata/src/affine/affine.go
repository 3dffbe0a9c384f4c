// Package affine holds the dependence tests on footprints (depend.go) in
// the ordinary style of numeric Go: flat rows i*n+j, row slices
// c[i*n:(i+1)*n], blocked ranges with dst := out[lo:hi], triangular rows;
// and the variants that must stay checked.
package affine

import "sync"

// Row i of a flat matrix: [i*n, i*n+n), as 0 <= j < n.
func rows(c []float64, n int) {
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for j := 0; j < n; j++ { // want `n: read\-only: nothing writes n while the construct runs`
				c[i*n+j] = float64(j) // want `c\[i \* n \+ j\]: independent: each iteration touches its own elements of c \(when i \* n \+ j does not overflow\)` `c: read\-only: nothing writes c while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs`
			}
		})
	}
	wg.Wait()
}

// j < n+1 reaches the next row's first element: checked.
func rowsOver(c []float64, n int) {
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for j := 0; j < n+1; j++ { // want `n: read\-only: nothing writes n while the construct runs`
				c[i*n+j] = float64(j) // want `c\[i \* n \+ j\]: checked: not proven` `c: read\-only: nothing writes c while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs`
			}
		})
	}
	wg.Wait()
}

// Lower triangle: j < i < n keeps row i within [i*n, i*n+n).
func lower(a []float64, n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for j := 0; j < i; j++ { // want `i: private: no other goroutine writes i`
				a[i*n+j] *= 0.5 // want `a\[i \* n \+ j\]: independent: each iteration touches its own elements of a \(when the iterations' intervals of a are apart and their bounds do not overflow\)` `a: read\-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs`
			}
		})
	}
	wg.Wait()
}

// Upper triangle written from the diagonal: j in [i, n).
func upper(a []float64, n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for j := i; j < n; j++ { // want `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs`
				a[i*n+j] *= 0.5 // want `a\[i \* n \+ j\]: independent: each iteration touches its own elements of a \(when the iterations' intervals of a are apart and their bounds do not overflow\)` `a: read\-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs`
			}
		})
	}
	wg.Wait()
}

// j <= i+1 reaches a[(i+1)*n], row i+1's first element: checked.
func lowerOver(a []float64, n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for j := 0; j <= i+1; j++ { // want `i: private: no other goroutine writes i`
				a[i*n+j] *= 0.5 // want `a\[i \* n \+ j\]: checked: not proven` `a: read\-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs`
			}
		})
	}
	wg.Wait()
}

// Row slices: c := C[i*n:(i+1)*n] is the row, c[j] an element of it.
func rowSlices(C, A []float64, n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			c := C[i*n : (i+1)*n] // want `C: read\-only: nothing writes C while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs`
			a := A[i*n : (i+1)*n] // want `A: read\-only: nothing writes A while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs`
			for j := range c {
				c[j] = 2 * a[j] // want `c\[j\]: independent: each iteration touches its own elements of C \(when it is apart from A and the iterations' intervals of C are apart and their bounds do not overflow\)` `a\[j\]: read\-only: nothing in the construct writes A \(when it is apart from C\)`
			}
		})
	}
	wg.Wait()
}

// Rows of width m over a stride n: apart only when m <= n, tested at run
// time.
func rowSlicesWidth(C []float64, n, m int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			c := C[i*n : i*n+m] // want `C: read\-only: nothing writes C while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs` `m: read\-only: nothing writes m while the construct runs`
			for j := range c {
				c[j] = 1 // want `c\[j\]: independent: each iteration touches its own elements of C \(when the iterations' intervals of C are apart and their bounds do not overflow\)`
			}
		})
	}
	wg.Wait()
}

// A row slice one element too wide overlaps the next row: checked.
func rowSlicesOver(C []float64, n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			c := C[i*n : (i+1)*n+1] // want `C: read\-only: nothing writes C while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs`
			for j := range c {
				c[j] = 1 // want `c\[j\]: checked: not proven`
			}
		})
	}
	wg.Wait()
}

// Blocked ranges: block b owns [b*bs, min((b+1)*bs, n)).
func blocks(out, in []float64, nb, bs int) {
	n := len(out)
	var wg sync.WaitGroup
	for b := 0; b < nb; b++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs, n) // want `b: private: no other goroutine writes b` `bs: read\-only: nothing writes bs while the construct runs` `b: private: no other goroutine writes b` `bs: read\-only: nothing writes bs while the construct runs` `n: read\-only: nothing writes n while the construct runs`
			dst := out[lo:hi]                // want `out: read\-only: nothing writes out while the construct runs`
			for k := range dst {
				dst[k] = 2 * in[lo+k] // want `dst\[k\]: independent: each iteration touches its own elements of out \(when it is apart from in and the iterations' intervals of out are apart and their bounds do not overflow\)` `in\[lo \+ k\]: read\-only: nothing in the construct writes in \(when it is apart from out\)` `in: read\-only: nothing writes in while the construct runs`
			}
		})
	}
	wg.Wait()
}

// copy into a row slice.
func copyRows(dst, src []float64, n int) {
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			copy(dst[i*n:(i+1)*n], src[i*n:(i+1)*n]) // want `dst: read\-only: nothing writes dst while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs` `src: read\-only: nothing writes src while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs`
		})
	}
	wg.Wait()
}

// A sub-slice handed to append may be written past its end: checked.
func appendRow(dst []float64, n int) {
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			d := dst[i*n : i*n] // want `dst: read\-only: nothing writes dst while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs`
			_ = append(d, 1)
		})
	}
	wg.Wait()
}

// A sub-slice resliced may reach its capacity, past the row: e is exactly
// dst[i*n : i*n+2] (affine_range.go composes the bounds), apart from the
// other iterations' only when n >= 2, a run-time condition.
func resliceRow(dst []float64, n int) {
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			d := dst[i*n : i*n+1] // want `dst: read\-only: nothing writes dst while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs`
			e := d[:2]
			e[1] = 1 // want `e\[1\]: independent: each iteration touches its own elements of dst \(when the iterations' intervals of dst are apart and their bounds do not overflow\)`
		})
	}
	wg.Wait()
}

// Resliced to n+1 elements, e always reaches the next row's first: checked.
func resliceRowOver(dst []float64, n int) {
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			d := dst[i*n : i*n+1] // want `dst: read\-only: nothing writes dst while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs`
			e := d[:n+1]          // want `n: read\-only: nothing writes n while the construct runs`
			e[1] = 1              // want `e\[1\]: checked: not proven`
		})
	}
	wg.Wait()
}

// Interleaved pairs: iteration i writes a[2*i] and a[2*i+1], its hull
// [2i, 2i+2) is apart from the others'.
func pairs(a []float64, n int) {
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[2*i] = 1   // want `a\[2 \* i\]: independent: each iteration touches its own elements of a \(when the iterations' intervals of a are apart and their bounds do not overflow\)` `a: read\-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i`
			a[2*i+1] = 2 // want `a\[2 \* i \+ 1\]: independent: each iteration touches its own elements of a \(when the iterations' intervals of a are apart and their bounds do not overflow\)` `a: read\-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

// a[2*i+2] is the next pair's first element: checked.
func pairsOver(a []float64, n int) {
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[2*i] = 1   // want `a\[2 \* i\]: checked: not proven` `a: read\-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i`
			a[2*i+2] = 2 // want `a\[2 \* i \+ 2\]: checked: not proven` `a: read\-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

// A block size computed before the loop, (n+nb-1)/nb, is an invariant
// symbol; the slice's blocks are apart whatever its value.
func blocksCeil(out []float64, nb int) {
	n := len(out)
	bs := (n + nb - 1) / nb
	var wg sync.WaitGroup
	for b := 0; b < nb; b++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs, n) // want `b: private: no other goroutine writes b` `bs: read\-only: nothing writes bs while the construct runs` `b: private: no other goroutine writes b` `bs: read\-only: nothing writes bs while the construct runs` `n: read\-only: nothing writes n while the construct runs`
			for k := range out[lo:hi] {      // want `out: read\-only: nothing writes out while the construct runs`
				out[lo+k] = 1 // want `out\[lo \+ k\]: independent: each iteration touches its own elements of out \(when the iterations' intervals of out are apart and their bounds do not overflow\)` `out: read\-only: nothing writes out while the construct runs`
			}
		})
	}
	wg.Wait()
}

// scaleRow indexes and ranges over its row only.
func scaleRow(row []float64, f float64) {
	for j := range row {
		row[j] *= f
	}
}

// A row slice passed to a helper walked in place that only indexes it.
func helperRows(C []float64, n int) {
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			scaleRow(C[i*n:(i+1)*n], 2) // want `scaleRow\(C\[i \* n:\(i \+ 1\) \* n\], 2\): independent: every access scaleRow makes is proven \(under the construct's guard\)` `C: read\-only: nothing writes C while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs`
		})
	}
	wg.Wait()
}

// widen reslices its row to the capacity: past the row, into the next.
func widen(row []float64) {
	row = row[:cap(row)]
	row[len(row)-1] = 1
}

// A helper that reslices its parameter: checked.
func helperWiden(C []float64, n int) {
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			widen(C[i*n : (i+1)*n]) // want `C: read\-only: nothing writes C while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs`
		})
	}
	wg.Wait()
}
