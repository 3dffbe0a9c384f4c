package affinemore

import "sync"

// Blocks of bs rows started every bs rows (lo += bs, bs a variable): the
// index's bands are ny·bs apart.
func steppedRows(ey []float64, nx, ny, bs int) {
	var wg sync.WaitGroup
	for lo := 0; lo < nx; lo += bs { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			hi := min(lo+bs, nx)       // want `lo: private: no other goroutine writes lo` `bs: read\-only: nothing writes bs while the construct runs` `nx: read\-only: nothing writes nx while the construct runs`
			for i := lo; i < hi; i++ { // want `lo: private: no other goroutine writes lo`
				for j := range ny { // want `ny: read\-only: nothing writes ny while the construct runs`
					ey[i*ny+j] = 1 // want `ey\[i \* ny \+ j\]: independent: each iteration touches its own elements of ey \(when the iterations' intervals of ey are apart and their bounds do not overflow\)` `ey: read\-only: nothing writes ey while the construct runs` `ny: read\-only: nothing writes ny while the construct runs`
				}
			}
		})
	}
	wg.Wait()
}

// One row more than the step: neighbouring blocks share a row. The band
// test holds only when ny is 0 (no row has an element), a run-time
// condition that fails on any real input, where the checked copy runs.
func steppedRowsOver(ey []float64, nx, ny, bs int) {
	var wg sync.WaitGroup
	for lo := 0; lo < nx; lo += bs { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			hi := min(lo+bs+1, nx)     // want `lo: private: no other goroutine writes lo` `bs: read\-only: nothing writes bs while the construct runs` `nx: read\-only: nothing writes nx while the construct runs`
			for i := lo; i < hi; i++ { // want `lo: private: no other goroutine writes lo`
				for j := range ny { // want `ny: read\-only: nothing writes ny while the construct runs`
					ey[i*ny+j] = 1 // want `ey\[i \* ny \+ j\]: independent: each iteration touches its own elements of ey \(when the iterations' intervals of ey are apart and their bounds do not overflow\)` `ey: read\-only: nothing writes ey while the construct runs` `ny: read\-only: nothing writes ny while the construct runs`
				}
			}
		})
	}
	wg.Wait()
}
