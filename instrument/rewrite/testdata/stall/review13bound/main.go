// Iteration 0 doubles p.n, the bound of every iteration's loop over u,
// after its own loop (sound_review2_guard_paths' fieldWritten). An
// iteration that reads p.n before the doubling and one that reads it after
// write overlapping chunks of u. Whether any do is the schedule's (p.n is
// a data race, reported in every schedule); when they do, the pruned build
// must report the overlap as the element-wise one does, so its loop over u
// must not take its checks from a p.n read before the loop
// (TestCoalescedBoundWrittenByAnotherBlock forces such a schedule).
package main

import (
	"fmt"
	"sync"
)

type B struct{ n int }

func fieldWritten(u []float64, p *B, chunks int) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	for c := range chunks {
		wg.Go(func() {
			for i := c * p.n / chunks; i < (c+1)*p.n/chunks; i++ {
				u[i] += 1
			}
			if c == 0 {
				mu.Lock()
				p.n = 2 * p.n
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}

func main() {
	fieldWritten(make([]float64, 64), &B{16}, 4)
	fmt.Println("done")
}
