// Package affinemore holds the footprints of the PolyBench ports' shapes
// (depend.go, affine_range.go, privatebuf.go, forkparams.go): row slices
// taken in a chunk of rows, blocks counted by b*bs < n, a sub-slice of a
// sub-slice, a buffer the iteration allocates and publishes, the
// goroutine's parameter bound to the index; each next to a variant that
// must stay checked.
package affinemore

import "sync"

// Blocks of bs rows, b*bs < n; row i's slice inside the block's chunk.
func chunkRows(C []float64, n, m, bs int) {
	var wg sync.WaitGroup
	for b := 0; b*bs < n; b++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs, n) // want `b: private: no other goroutine writes b` `bs: read\-only: nothing writes bs while the construct runs` `b: private: no other goroutine writes b` `bs: read\-only: nothing writes bs while the construct runs` `n: read\-only: nothing writes n while the construct runs`
			for i := lo; i < hi; i++ {
				c := C[i*m : (i+1)*m] // want `C: read\-only: nothing writes C while the construct runs` `m: read\-only: nothing writes m while the construct runs` `m: read\-only: nothing writes m while the construct runs`
				for j := range c {
					c[j] = 1 // want `c\[j\]: independent: each iteration touches its own elements of C \(when the iterations' intervals of C are apart and their bounds do not overflow\)`
				}
			}
		})
	}
	wg.Wait()
}

// Each row slice one element wider reaches the next block's first
// element: checked.
func chunkRowsOver(C []float64, n, m, bs int) {
	var wg sync.WaitGroup
	for b := 0; b*bs < n; b++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs, n) // want `b: private: no other goroutine writes b` `bs: read\-only: nothing writes bs while the construct runs` `b: private: no other goroutine writes b` `bs: read\-only: nothing writes bs while the construct runs` `n: read\-only: nothing writes n while the construct runs`
			for i := lo; i < hi; i++ {
				c := C[i*m : (i+1)*m+1] // want `C: read\-only: nothing writes C while the construct runs` `m: read\-only: nothing writes m while the construct runs` `m: read\-only: nothing writes m while the construct runs`
				for j := range c {
					c[j] = 1 // want `c\[j\]: checked: not proven`
				}
			}
		})
	}
	wg.Wait()
}

// A slab per r, a row of the slab per q: row is A[r*q*m + k*m : …].
func subOfSub(A []float64, nr, nq, m int) {
	var wg sync.WaitGroup
	for r := range nr { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			slab := A[r*nq*m : (r+1)*nq*m] // want `A: read\-only: nothing writes A while the construct runs` `r: private: no other goroutine writes r` `nq: read\-only: nothing writes nq while the construct runs` `m: read\-only: nothing writes m while the construct runs` `r: private: no other goroutine writes r` `nq: read\-only: nothing writes nq while the construct runs` `m: read\-only: nothing writes m while the construct runs`
			for k := range nq {            // want `nq: read\-only: nothing writes nq while the construct runs`
				row := slab[k*m : (k+1)*m] // want `m: read\-only: nothing writes m while the construct runs` `m: read\-only: nothing writes m while the construct runs`
				for j := range row {
					row[j] = 2 // want `row\[j\]: independent: each iteration touches its own elements of A \(when the iterations' intervals of A are apart and their bounds do not overflow\)`
				}
			}
		})
	}
	wg.Wait()
}

// A row one element wider: the last reaches past the slab into the next
// one (a reslicing may go up to the capacity): checked.
func subOfSubOver(A []float64, nr, nq, m int) {
	var wg sync.WaitGroup
	for r := range nr { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			slab := A[r*nq*m : (r+1)*nq*m] // want `A: read\-only: nothing writes A while the construct runs` `r: private: no other goroutine writes r` `nq: read\-only: nothing writes nq while the construct runs` `m: read\-only: nothing writes m while the construct runs` `r: private: no other goroutine writes r` `nq: read\-only: nothing writes nq while the construct runs` `m: read\-only: nothing writes m while the construct runs`
			for k := range nq {            // want `nq: read\-only: nothing writes nq while the construct runs`
				row := slab[k*m : (k+1)*m+1] // want `m: read\-only: nothing writes m while the construct runs` `m: read\-only: nothing writes m while the construct runs`
				for j := range row {
					row[j] = 2 // want `row\[j\]: checked: not proven`
				}
			}
		})
	}
	wg.Wait()
}

// A buffer per iteration, published for after the join.
func privateBuf(A []float64, partial [][]float64, nb, n int) {
	var wg sync.WaitGroup
	for b := range nb { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			py := make([]float64, n) // want `n: read\-only: nothing writes n while the construct runs`
			for j := range py {
				py[j] += A[j] // want `py\[j\]: independent: an element of a buffer the iteration allocated, which no other reaches` `A: read\-only: nothing writes A while the construct runs` `A\[j\]: read\-only: nothing in the construct writes A`
			}
			partial[b] = py // want `partial: read\-only: nothing writes partial while the construct runs` `partial\[b\]: independent: each iteration touches its own elements of partial` `b: private: no other goroutine writes b`
		})
	}
	wg.Wait()
}

// The body reads what another iteration published: its buffer is shared.
func privateBufRead(A []float64, partial [][]float64, nb, n int) {
	var wg sync.WaitGroup
	for b := range nb { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			py := make([]float64, n) // want `n: read\-only: nothing writes n while the construct runs`
			for j := range py {
				py[j] += A[j] // want `py\[j\]: checked: not proven` `A: read\-only: nothing writes A while the construct runs` `A\[j\]: checked: not proven`
			}
			partial[b] = py                   // want `partial: read\-only: nothing writes partial while the construct runs` `partial\[b\]: checked: not proven` `b: private: no other goroutine writes b`
			if b > 0 && len(partial[0]) > 0 { // want `b: private: no other goroutine writes b` `partial: read\-only: nothing writes partial while the construct runs` `partial\[0\]: checked: not proven`
				A[0] = partial[0][0] // want `A: read\-only: nothing writes A while the construct runs` `A\[0\]: checked: not proven` `partial: read\-only: nothing writes partial while the construct runs` `partial\[0\]: checked: not proven` `partial\[0\]\[0\]: checked: not proven`
			}
		})
	}
	wg.Wait()
}

// go func(i int){…}(i): the parameter is the index.
func forkParam(C []float64, n, m int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < m; j++ { // want `m: read\-only: nothing writes m while the construct runs`
				C[i*m+j] = 3 // want `C: read\-only: nothing writes C while the construct runs` `C\[i \* m \+ j\]: independent: each iteration touches its own elements of C \(when the iterations' intervals of C are apart and their bounds do not overflow\)` `m: read\-only: nothing writes m while the construct runs`
			}
		}(i)
	}
	wg.Wait()
}

// The parameter is assigned in the body: not the index any more, checked.
func forkParamWritten(C []float64, n, m int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			i = i / 2
			for j := 0; j < m; j++ { // want `m: read\-only: nothing writes m while the construct runs`
				C[i*m+j] = 3 // want `C: read\-only: nothing writes C while the construct runs` `C\[i \* m \+ j\]: checked: not proven` `m: read\-only: nothing writes m while the construct runs`
			}
		}(i)
	}
	wg.Wait()
}

// Blocks bounded by division: dst's footprint is out's chunk band
// [F0, F1) (chunkband.go), and in stays read-only (apart from out, a
// run-time guard).
func divBlocks(out, in []float64, workers int) {
	n := len(out)
	var wg sync.WaitGroup
	for w := range workers { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			lo, hi := w*n/workers, (w+1)*n/workers // want `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs` `workers: read\-only: nothing writes workers while the construct runs` `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs` `workers: read\-only: nothing writes workers while the construct runs`
			dst := out[lo:hi]                      // want `out: read\-only: nothing writes out while the construct runs`
			for k := range dst {
				dst[k] = in[lo+k] // want `dst\[k\]: independent: each iteration touches its own elements of out \(when it is apart from in and the chunk bounds from lo do not overflow and the iterations' intervals of out are apart and their bounds do not overflow\)` `in: read\-only: nothing writes in while the construct runs` `in\[lo \+ k\]: read\-only: nothing in the construct writes in \(when it is apart from out\)`
			}
		})
	}
	wg.Wait()
}

// The input is the output: its reads stay checked with its writes.
func divBlocksSelf(out []float64, workers int) {
	n := len(out)
	var wg sync.WaitGroup
	for w := range workers { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			lo, hi := w*n/workers, (w+1)*n/workers // want `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs` `workers: read\-only: nothing writes workers while the construct runs` `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs` `workers: read\-only: nothing writes workers while the construct runs`
			dst := out[lo:hi]                      // want `out: read\-only: nothing writes out while the construct runs`
			for k := range dst {
				dst[k] = out[n-1-lo-k] // want `dst\[k\]: checked: not proven` `out: read\-only: nothing writes out while the construct runs` `out\[n \- 1 \- lo \- k\]: checked: not proven` `n: read\-only: nothing writes n while the construct runs`
			}
		})
	}
	wg.Wait()
}

// Each iteration writes out[2*i] through a pair, and a block bounded by
// division besides: the pair alone would pass the hull, the block has no
// footprint, so out stays checked.
func hullAndDiv(out []float64, n, workers int) {
	var wg sync.WaitGroup
	for i := range workers { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			out[2*i] = 1                           // want `out: read\-only: nothing writes out while the construct runs` `out\[2 \* i\]: checked: not proven` `i: private: no other goroutine writes i`
			out[2*i+1] = 1                         // want `out: read\-only: nothing writes out while the construct runs` `out\[2 \* i \+ 1\]: checked: not proven` `i: private: no other goroutine writes i`
			lo, hi := i*n/workers, (i+1)*n/workers // want `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs` `workers: read\-only: nothing writes workers while the construct runs` `i: private: no other goroutine writes i` `n: read\-only: nothing writes n while the construct runs` `workers: read\-only: nothing writes workers while the construct runs`
			dst := out[lo:hi]                      // want `out: read\-only: nothing writes out while the construct runs`
			dst[0] = 2                             // want `dst\[0\]: checked: not proven`
		})
	}
	wg.Wait()
}
