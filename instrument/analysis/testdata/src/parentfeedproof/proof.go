// Package parentfeedproof has the heap proofs of worker pools
// (heap.go, poolReadOnly): memory nothing in the pool writes is read-only,
// under the guard that it is apart from what the pool writes; what the
// items write stays checked, for items are no iterations.
package parentfeedproof

import "sync"

// readOnlyRows is gesummv's kernel: the rows of A and x, which nothing in
// the pool writes, are read-only under the guard that they are apart from
// y; y's elements stay checked (items are no iterations).
func readOnlyRows(n, bs, workers int, A, x, y []float64) {
	blocks := make(chan int, 4)
	var wg sync.WaitGroup
	for range workers { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for lo := range blocks { // want `blocks: read-only: nothing writes blocks while the construct runs`
				for i := lo; i < min(lo+bs, n); i++ { // want `bs: read-only: nothing writes bs while the construct runs` `n: read-only: nothing writes n while the construct runs`
					t := 0.0
					for j := range n { // want `n: read-only: nothing writes n while the construct runs`
						t += A[i*n+j] * x[j] // want `A\[i \* n \+ j\]: read-only: nothing in the construct writes A \(when it is apart from y\)` `x\[j\]: read-only: nothing in the construct writes x \(when it is apart from y\)` `A: read-only: nothing writes A while the construct runs` `x: read-only: nothing writes x while the construct runs` `n: read-only: nothing writes n while the construct runs`
					}
					y[i] = t // want `y\[i\]: checked: not proven: a pool's items are no iterations, only memory nothing writes is proven` `y: read-only: nothing writes y while the construct runs`
				}
			}
		})
	}
	for lo := 0; lo < n; lo += bs {
		blocks <- lo
	}
	close(blocks)
	wg.Wait()
}
