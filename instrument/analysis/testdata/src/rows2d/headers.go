package rows2d

import "sync"

// A goroutine's own buffer published for the parent (atax): py's header is
// stored into partial[b], a []float64 like the rows of A, which the
// iterations read; A's headers are read-only and partial's elements each
// iteration's own, the two apart under the guard, so no iteration reads
// another's py, and A's rows stay the same rows.
func publish(A [][]float64, x []float64, bs int) [][]float64 {
	m, n := len(A), len(x)
	nb := (m + bs - 1) / bs
	partial := make([][]float64, nb)
	var wg sync.WaitGroup
	for b := range nb { // want `independent: each iteration writes and reads its own element of partial — not checked` `parallel loop of 1 goroutine start\(s\), joined at line 27`
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs, m) // want `b: private: no other goroutine writes b` `bs: read-only: nothing writes bs while the construct runs` `b: private: no other goroutine writes b` `bs: read-only: nothing writes bs while the construct runs` `m: read-only: nothing writes m while the construct runs`
			py := make([]float64, n)         // want `n: read-only: nothing writes n while the construct runs`
			for _, row := range A[lo:hi] {   // want `row: read-only: nothing in the construct writes A \(when it is apart from partial\)` `A: read-only: nothing writes A while the construct runs`
				for j, a := range row { // want `a: read-only: nothing in the construct writes the rows of A`
					py[j] += a * x[j] // want `py\[j\]: independent: an element of a buffer the iteration allocated, which no other reaches` `x: read-only: nothing writes x while the construct runs` `x\[j\]: read-only: nothing in the construct writes x`
				}
			}
			partial[b] = py // want `partial: read-only: nothing writes partial while the construct runs` `partial\[b\]: independent: each iteration touches its own elements of partial \(when it is apart from A\)` `b: private: no other goroutine writes b`
		})
	}
	wg.Wait()
	return partial
}

// The iterations also read partial[0], which iteration 0 writes: py may
// be read by another iteration, so it is no buffer of its own.
func publishRead(A [][]float64, x []float64, bs int) [][]float64 {
	m, n := len(A), len(x)
	nb := (m + bs - 1) / bs
	partial := make([][]float64, nb)
	var wg sync.WaitGroup
	for b := range nb { // want `parallel loop of 1 goroutine start\(s\), joined at line 53`
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs, m) // want `b: private: no other goroutine writes b` `bs: read-only: nothing writes bs while the construct runs` `b: private: no other goroutine writes b` `bs: read-only: nothing writes bs while the construct runs` `m: read-only: nothing writes m while the construct runs`
			py := make([]float64, n)         // want `n: read-only: nothing writes n while the construct runs`
			for _, row := range A[lo:hi] {   // want `row: read-only: nothing in the construct writes A \(when it is apart from partial\)` `A: read-only: nothing writes A while the construct runs`
				for j, a := range row {
					py[j] += a * x[j] // want `py\[j\]: checked: not proven` `x: read-only: nothing writes x while the construct runs` `x\[j\]: checked: not proven`
				}
			}
			partial[b] = py                          // want `partial: read-only: nothing writes partial while the construct runs` `partial\[b\]: checked: not proven` `b: private: no other goroutine writes b`
			if first := partial[0]; len(first) > 0 { // want `partial: read-only: nothing writes partial while the construct runs` `partial\[0\]: checked: not proven`
				x[0] = first[0] // want `x: read-only: nothing writes x while the construct runs` `x\[0\]: checked: not proven` `first\[0\]: checked: not proven`
			}
		})
	}
	wg.Wait()
	return partial
}

// A row replaced by the iterations: M's headers change while the
// construct runs, so M[i] is no fixed row.
func replaced(M [][]float64) {
	var wg sync.WaitGroup
	for i := range len(M) { // want `parallel loop of 1 goroutine start\(s\), joined at line 67`
		wg.Go(func() {
			M[i] = make([]float64, 4) // want `M: read-only: nothing writes M while the construct runs` `M\[i\]: independent: each iteration touches its own elements of M` `i: private: no other goroutine writes i`
			M[i][0] = 1               // want `M: read-only: nothing writes M while the construct runs` `M\[i\]: independent: each iteration touches its own elements of M` `M\[i\]\[0\]: checked: not proven` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

// The pivot row read while the rows below it are written (lu): the guard
// takes the rows written, A[k+1:n], each whole, and the pivot row up to
// its len.
func pivot(A [][]float64, workers int) {
	n := len(A)
	var wg sync.WaitGroup
	for k := 0; k < n; k++ {
		urow := A[k][k+1:]
		rows := n - k - 1
		nw := min(workers, rows)
		for w := range nw { // want `parallel loop of 1 goroutine start\(s\), joined at line 91`
			wg.Go(func() {
				lo, hi := k+1+w*rows/nw, k+1+(w+1)*rows/nw // want `k: private: no other goroutine writes k` `w: private: no other goroutine writes w` `rows: read-only: nothing writes rows while the construct runs` `nw: read-only: nothing writes nw while the construct runs` `k: private: no other goroutine writes k` `w: private: no other goroutine writes w` `rows: read-only: nothing writes rows while the construct runs` `nw: read-only: nothing writes nw while the construct runs`
				for _, r := range A[lo:hi] {               // want `r: read-only: nothing in the construct writes A` `A: read-only: nothing writes A while the construct runs`
					rest := r[k+1:]          // want `k: private: no other goroutine writes k`
					for j, u := range urow { // want `u: read-only: nothing in the construct writes urow \(when urow up to its len is apart from the rows of A\[k \+ 1 \+ 0 \* rows / nw:k \+ 1 \+ nw \* rows / nw\]\)` `urow: read-only: nothing writes urow while the construct runs`
						rest[j] -= u // want `rest\[j\]: independent: each iteration touches its own elements of the rows of A \(when the rows of A\[k \+ 1 \+ 0 \* rows / nw:k \+ 1 \+ nw \* rows / nw\] is apart from urow up to its len and the written range of A is within its bounds and the chunk bounds from lo do not overflow\)`
					}
				}
			})
		}
		wg.Wait()
	}
}
