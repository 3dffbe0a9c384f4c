package concpool

import (
	"sync"

	"github.com/sourcegraph/conc/pool"
)

// inside makes and configures pools in the goroutines of a WaitGroup loop:
// the makers and setters store settings and call nothing back, so they are
// not calls into plain code (no note, the outer loop not held back).
func inside(a [][]int) {
	var wg sync.WaitGroup
	for j := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 25`
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := pool.New().WithMaxGoroutines(2).WithErrors().WithFirstError()
			for i := range a[j] { // want `parallel loop of 1 goroutine start\(s\), joined at line 22`
				p.Go(func() error { a[j][i]++; return nil })
			}
			_ = p.Wait()
		}()
	}
	wg.Wait()
}
