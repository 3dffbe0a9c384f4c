// Package rows2d holds the shapes of the [][]float64 PolyBench ports
// (bench/polybench2d): each proven one next to a variant one row or one
// column off, which must stay checked. A row M[r] is proven apart from the
// others by the run-time guard (the rows of M), so M[r][c] is the element
// at (r, c) and the flat layout's tests apply one coordinate at a time.
package rows2d

import "sync"

// Rows of a block ranged over as values: row is M[lo+k].
func rangeRows(M [][]float64, bs int) {
	n := len(M)
	var wg sync.WaitGroup
	for b := 0; b*bs < n; b++ { // want `parallel loop of 1 goroutine start\(s\), joined at line 24`
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs, n) // want `b: private: no other goroutine writes b` `bs: read-only: nothing writes bs while the construct runs` `b: private: no other goroutine writes b` `bs: read-only: nothing writes bs while the construct runs` `n: read-only: nothing writes n while the construct runs`
			for _, row := range M[lo:hi] {   // want `row: read-only: nothing in the construct writes M` `M: read-only: nothing writes M while the construct runs`
				for j := range row {
					row[j] *= 2 // want `row\[j\]: independent: each iteration touches its own elements of the rows of M \(when the chunk bounds from lo do not overflow\)`
				}
			}
		})
	}
	wg.Wait()
}

// One row too many: the last row of a block is the next block's first.
func rangeRowsOver(M [][]float64, bs int) {
	n := len(M)
	var wg sync.WaitGroup
	for b := 0; b*bs < n; b++ { // want `parallel loop of 1 goroutine start\(s\), joined at line 41`
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs+1, n) // want `b: private: no other goroutine writes b` `bs: read-only: nothing writes bs while the construct runs` `b: private: no other goroutine writes b` `bs: read-only: nothing writes bs while the construct runs` `n: read-only: nothing writes n while the construct runs`
			for _, row := range M[lo:hi] {     // want `row: read-only: nothing in the construct writes M` `M: read-only: nothing writes M while the construct runs`
				for j := range row {
					row[j] *= 2 // want `row\[j\]: checked: not proven`
				}
			}
		})
	}
	wg.Wait()
}

// Column blocks of every row (trmm's split): worker w owns the columns
// [lo, hi) of each row, through a sub-slice of the row.
func columns(B [][]float64, k int) {
	n := len(B[0])
	var wg sync.WaitGroup
	for w := range k { // want `parallel loop of 1 goroutine start\(s\), joined at line 63`
		wg.Go(func() {
			lo, hi := w*n/k, (w+1)*n/k // want `w: private: no other goroutine writes w` `n: read-only: nothing writes n while the construct runs` `k: read-only: nothing writes k while the construct runs` `w: private: no other goroutine writes w` `n: read-only: nothing writes n while the construct runs` `k: read-only: nothing writes k while the construct runs`
			for i := range B {         // want `B: read-only: nothing writes B while the construct runs`
				bi := B[i][lo:hi] // want `B: read-only: nothing writes B while the construct runs` `B\[i\]: read-only: nothing in the construct writes B`
				for j := range bi {
					bi[j] *= 2 // want `bi\[j\]: independent: each iteration touches its own elements of the rows of B \(when the chunk bounds from lo do not overflow\)`
				}
				for j, v := range B[i][lo:hi] { // want `v: independent: each iteration touches its own elements of the rows of B \(when the chunk bounds from lo do not overflow\)` `B: read-only: nothing writes B while the construct runs` `B\[i\]: read-only: nothing in the construct writes B`
					bi[j] += v // want `bi\[j\]: independent: each iteration touches its own elements of the rows of B \(when the chunk bounds from lo do not overflow\)`
				}
			}
		})
	}
	wg.Wait()
}

// One column wider: a block's last column is the next block's first.
func columnsOver(B [][]float64, k int) {
	n := len(B[0])
	var wg sync.WaitGroup
	for w := range k { // want `parallel loop of 1 goroutine start\(s\), joined at line 81`
		wg.Go(func() {
			lo, hi := w*n/k, min((w+1)*n/k+1, n) // want `w: private: no other goroutine writes w` `n: read-only: nothing writes n while the construct runs` `k: read-only: nothing writes k while the construct runs` `w: private: no other goroutine writes w` `n: read-only: nothing writes n while the construct runs` `k: read-only: nothing writes k while the construct runs` `n: read-only: nothing writes n while the construct runs`
			for i := range B {                   // want `B: read-only: nothing writes B while the construct runs`
				bi := B[i][lo:hi] // want `B: read-only: nothing writes B while the construct runs` `B\[i\]: read-only: nothing in the construct writes B`
				for j := range bi {
					bi[j] *= 2 // want `bi\[j\]: checked: not proven`
				}
			}
		})
	}
	wg.Wait()
}

// The mirror writes of a triangle (covariance): row i writes cov[i][j]
// and cov[j][i] for j ≥ i, which no other row writes.
func mirror(cov [][]float64, m int) {
	var wg sync.WaitGroup
	for i := range m { // want `parallel loop of 1 goroutine start\(s\), joined at line 96`
		wg.Go(func() {
			for j := i; j < m; j++ { // want `i: private: no other goroutine writes i` `m: read-only: nothing writes m while the construct runs`
				cov[i][j] = 1 // want `cov: read-only: nothing writes cov while the construct runs` `cov\[i\]: read-only: nothing in the construct writes cov` `cov\[i\]\[j\]: independent: each iteration touches its own elements of the rows of cov \(when the iterations' intervals of cov are apart and their bounds do not overflow\)` `i: private: no other goroutine writes i`
				cov[j][i] = 1 // want `cov: read-only: nothing writes cov while the construct runs` `cov\[j\]: read-only: nothing in the construct writes cov` `cov\[j\]\[i\]: independent: each iteration touches its own elements of the rows of cov \(when the iterations' intervals of cov are apart and their bounds do not overflow\)` `i: private: no other goroutine writes i`
			}
		})
	}
	wg.Wait()
}

// The whole square: row i writes cov[j][i] for every j, row j cov[j][i]
// too.
func mirrorAll(cov [][]float64, m int) {
	var wg sync.WaitGroup
	for i := range m { // want `parallel loop of 1 goroutine start\(s\), joined at line 111`
		wg.Go(func() {
			for j := 0; j < m; j++ { // want `m: read-only: nothing writes m while the construct runs`
				cov[i][j] = 1 // want `cov: read-only: nothing writes cov while the construct runs` `cov\[i\]: read-only: nothing in the construct writes cov` `cov\[i\]\[j\]: checked: not proven` `i: private: no other goroutine writes i`
				cov[j][i] = 1 // want `cov: read-only: nothing writes cov while the construct runs` `cov\[j\]: read-only: nothing in the construct writes cov` `cov\[j\]\[i\]: checked: not proven` `i: private: no other goroutine writes i`
			}
		})
	}
	wg.Wait()
}

// Rows dealt cyclically to workers (syrk), each written through a
// sub-slice of its lower triangle.
func cyclic(C [][]float64, workers int) {
	n := len(C)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ { // want `parallel loop of 1 goroutine start\(s\), joined at line 129`
		wg.Go(func() {
			for i := w; i < n; i += workers { // want `w: private: no other goroutine writes w` `n: read-only: nothing writes n while the construct runs` `workers: private: no other goroutine writes workers`
				c := C[i][:i+1] // want `C: read-only: nothing writes C while the construct runs` `C\[i\]: read-only: nothing in the construct writes C`
				for j := range c {
					c[j] *= 2 // want `c\[j\]: independent: each iteration touches its own elements of the rows of C \(when the iterations' intervals of C are apart and their bounds do not overflow\)`
				}
			}
		})
	}
	wg.Wait()
}
