package decisions

import "sync"

type chunkN struct{ n int }

type chunkHolder struct{ *chunkN }

// Chunk bounds read through a pointer: the guard tests p != nil first.
func chunkViaPointer(a []float64, p *chunkN, k int) {
	var wg sync.WaitGroup
	for c := 0; c < k; c++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for j := c * p.n / k; j < (c+1)*p.n/k; j++ { // want `c: private: ` `p\.n: read-only: ` `p: read-only: ` `k: read-only: ` `c: private: ` `p\.n: read-only: ` `p: read-only: ` `k: read-only: `
				a[j] = 1 // want `a\[j\]: independent: each iteration touches its own elements of a \(when the chunk bounds from c \* p\.n / k do not overflow\)$` `a: read-only: `
			}
		})
	}
	wg.Wait()
}

// Chunk bounds read through an embedded pointer: h.n is h.chunkN.n, a
// pointer the guard could not test for nil; no proof.
func chunkViaEmbedded(a []float64, h chunkHolder, k int) {
	var wg sync.WaitGroup
	for c := 0; c < k; c++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for j := c * h.n / k; j < (c+1)*h.n/k; j++ { // want `c: private: ` `h\.n: read-only: ` `k: read-only: ` `c: private: ` `h\.n: read-only: ` `k: read-only: `
				a[j] = 1 // want `a\[j\]: checked: not proven` `a: read-only: `
			}
		})
	}
	wg.Wait()
}
