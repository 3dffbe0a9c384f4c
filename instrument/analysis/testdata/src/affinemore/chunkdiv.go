package affinemore

import "sync"

// Rows of a chunk bounded by division, [1+w*rows/k, 1+(w+1)*rows/k): row
// i's slice is dst's band in the chunk's bounds.
func divRows(dst, src []float64, n, k int) {
	var wg sync.WaitGroup
	rows := n - 2
	for w := range k { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			lo, hi := 1+w*rows/k, 1+(w+1)*rows/k // want `w: private: no other goroutine writes w` `rows: read\-only: nothing writes rows while the construct runs` `k: read\-only: nothing writes k while the construct runs` `w: private: no other goroutine writes w` `rows: read\-only: nothing writes rows while the construct runs` `k: read\-only: nothing writes k while the construct runs`
			for i := lo; i < hi; i++ {
				out := dst[i*n : (i+1)*n]  // want `dst: read\-only: nothing writes dst while the construct runs` `n: read\-only: nothing writes n while the construct runs` `n: read\-only: nothing writes n while the construct runs`
				for j := 1; j < n-1; j++ { // want `n: read\-only: nothing writes n while the construct runs`
					out[j] = src[i*n+j] // want `out\[j\]: independent: each iteration touches its own elements of dst \(when it is apart from src and the chunk bounds from lo do not overflow and the iterations' intervals of dst are apart and their bounds do not overflow\)` `src\[i \* n \+ j\]: read\-only: nothing in the construct writes src \(when it is apart from dst\)` `src: read\-only: nothing writes src while the construct runs` `n: read\-only: nothing writes n while the construct runs`
				}
			}
		})
	}
	wg.Wait()
}

// The row slice one element wider reaches the next chunk's first row:
// checked.
func divRowsOver(dst, src []float64, n, k int) {
	var wg sync.WaitGroup
	rows := n - 2
	for w := range k { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			lo, hi := 1+w*rows/k, 1+(w+1)*rows/k // want `w: private: no other goroutine writes w` `rows: read\-only: nothing writes rows while the construct runs` `k: read\-only: nothing writes k while the construct runs` `w: private: no other goroutine writes w` `rows: read\-only: nothing writes rows while the construct runs` `k: read\-only: nothing writes k while the construct runs`
			for i := lo; i < hi; i++ {
				out := dst[i*n : (i+1)*n+1] // want `dst: read\-only: nothing writes dst while the construct runs` `n: read\-only: nothing writes n while the construct runs` `n: read\-only: nothing writes n while the construct runs`
				for j := range out {
					out[j] = src[i*n] // want `out\[j\]: checked: not proven` `src\[i \* n\]: read\-only: nothing in the construct writes src \(when it is apart from dst\)` `src: read\-only: nothing writes src while the construct runs` `n: read\-only: nothing writes n while the construct runs`
				}
			}
		})
	}
	wg.Wait()
}

// A sub-slice q[lo:hi] of a division chunk, written through dst[k].
func divSub(q []float64, n, workers int) {
	var wg sync.WaitGroup
	for w := range workers { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			lo, hi := w*n/workers, (w+1)*n/workers // want `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs` `workers: read\-only: nothing writes workers while the construct runs` `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs` `workers: read\-only: nothing writes workers while the construct runs`
			dst := q[lo:hi]                        // want `q: read\-only: nothing writes q while the construct runs`
			for k := range dst {
				dst[k] = 1 // want `dst\[k\]: independent: each iteration touches its own elements of q \(when the chunk bounds from lo do not overflow and the iterations' intervals of q are apart and their bounds do not overflow\)`
			}
		})
	}
	wg.Wait()
}

// Chunks two steps wide overlap their neighbours: not a chunk, checked.
func divSubWide(q []float64, n, workers int) {
	var wg sync.WaitGroup
	for w := range workers { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			lo, hi := w*n/workers, (w+2)*n/workers // want `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs` `workers: read\-only: nothing writes workers while the construct runs` `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs` `workers: read\-only: nothing writes workers while the construct runs`
			dst := q[lo:hi]                        // want `q: read\-only: nothing writes q while the construct runs`
			for k := range dst {
				dst[k] = 1 // want `dst\[k\]: checked: not proven`
			}
		})
	}
	wg.Wait()
}
