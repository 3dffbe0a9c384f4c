package affinemore

import "sync"

// Column blocks of every row: worker w owns columns [w*n/k, (w+1)*n/k) of
// each of the m rows (trmm's split), read and written through a sub-slice
// of the row.
func colBlocks(B []float64, m, n, k int) {
	var wg sync.WaitGroup
	for w := range k { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			lo, hi := w*n/k, (w+1)*n/k // want `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs` `k: read\-only: nothing writes k while the construct runs` `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs` `k: read\-only: nothing writes k while the construct runs`
			for i := 0; i < m; i++ {   // want `m: read\-only: nothing writes m while the construct runs`
				bi := B[i*n+lo : i*n+hi] // want `B: read\-only: nothing writes B while the construct runs` `n: read\-only: nothing writes n while the construct runs` `n: read\-only: nothing writes n while the construct runs`
				for j := range bi {
					bi[j] *= 2 // want `bi\[j\]: independent: each iteration touches its own elements of B \(when the iterations' intervals of B are apart and their bounds do not overflow\)`
				}
			}
		})
	}
	wg.Wait()
}

// One column wider: a block's last column is the next block's first,
// checked.
func colBlocksOver(B []float64, m, n, k int) {
	var wg sync.WaitGroup
	for w := range k { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			lo, hi := w*n/k, (w+1)*n/k+1 // want `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs` `k: read\-only: nothing writes k while the construct runs` `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs` `k: read\-only: nothing writes k while the construct runs`
			for i := 0; i < m; i++ {     // want `m: read\-only: nothing writes m while the construct runs`
				bi := B[i*n+lo : i*n+hi] // want `B: read\-only: nothing writes B while the construct runs` `n: read\-only: nothing writes n while the construct runs` `n: read\-only: nothing writes n while the construct runs`
				for j := range bi {
					bi[j] *= 2 // want `bi\[j\]: checked: not proven`
				}
			}
		})
	}
	wg.Wait()
}

// Blocks over one column more than the row: the last block's last column
// of row i is row i+1's first. Proven only under the run-time condition
// that the chunk bounds stay within the row at both ends of the index,
// (k-1+1)*(n+1)/k <= n, which fails on any input: the checked copy runs.
func colBlocksLong(B []float64, m, n, k int) {
	var wg sync.WaitGroup
	for w := range k { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			lo, hi := w*(n+1)/k, (w+1)*(n+1)/k // want `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs` `k: read\-only: nothing writes k while the construct runs` `w: private: no other goroutine writes w` `n: read\-only: nothing writes n while the construct runs` `k: read\-only: nothing writes k while the construct runs`
			for i := 0; i < m; i++ {           // want `m: read\-only: nothing writes m while the construct runs`
				bi := B[i*n+lo : i*n+hi] // want `B: read\-only: nothing writes B while the construct runs` `n: read\-only: nothing writes n while the construct runs` `n: read\-only: nothing writes n while the construct runs`
				for j := range bi {
					bi[j] *= 2 // want `bi\[j\]: independent: each iteration touches its own elements of B \(when the iterations' intervals of B are apart and their bounds do not overflow\)`
				}
			}
		})
	}
	wg.Wait()
}
