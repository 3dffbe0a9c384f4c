package affinemore

import "sync"

// A three-level subscript, blocks of bs planes: c := i*nn + j*n, nn = n*n;
// the footprint is of degree 4 (b·bs·n·n) and its band's slack 2n+2 is a
// sum of positive terms.
func planes(dst []float64, n, bs int) {
	var wg sync.WaitGroup
	nn := n * n
	for b := 0; b*bs < n-2; b++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			lo, hi := 1+b*bs, min(1+(b+1)*bs, n-1) // want `b: private: no other goroutine writes b` `bs: read\-only: nothing writes bs while the construct runs` `b: private: no other goroutine writes b` `bs: read\-only: nothing writes bs while the construct runs` `n: read\-only: nothing writes n while the construct runs`
			for i := lo; i < hi; i++ {
				for j := 1; j < n-1; j++ { // want `n: read\-only: nothing writes n while the construct runs`
					c := i*nn + j*n            // want `nn: read\-only: nothing writes nn while the construct runs` `n: read\-only: nothing writes n while the construct runs`
					for k := 1; k < n-1; k++ { // want `n: read\-only: nothing writes n while the construct runs`
						dst[c+k] = 1 // want `dst\[c \+ k\]: independent: each iteration touches its own elements of dst \(when the iterations' intervals of dst are apart and their bounds do not overflow\)` `dst: read\-only: nothing writes dst while the construct runs`
					}
				}
			}
		})
	}
	wg.Wait()
}

// One plane too far: the blocks overlap, checked.
func planesOver(dst []float64, n, bs int) {
	var wg sync.WaitGroup
	nn := n * n
	for b := 0; b*bs < n-2; b++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			lo, hi := 1+b*bs, min(2+(b+1)*bs, n-1) // want `b: private: no other goroutine writes b` `bs: read\-only: nothing writes bs while the construct runs` `b: private: no other goroutine writes b` `bs: read\-only: nothing writes bs while the construct runs` `n: read\-only: nothing writes n while the construct runs`
			for i := lo; i < hi; i++ {
				for j := 1; j < n-1; j++ { // want `n: read\-only: nothing writes n while the construct runs`
					c := i*nn + j*n            // want `nn: read\-only: nothing writes nn while the construct runs` `n: read\-only: nothing writes n while the construct runs`
					for k := 1; k < n-1; k++ { // want `n: read\-only: nothing writes n while the construct runs`
						dst[c+k] = 1 // want `dst\[c \+ k\]: checked: not proven` `dst: read\-only: nothing writes dst while the construct runs`
					}
				}
			}
		})
	}
	wg.Wait()
}
