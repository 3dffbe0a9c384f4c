// Package counter hands out pool items with atomic counters (conc's
// iter.ForEachIdx): each index taken is a work item, and the takes are
// not coordination; counters used otherwise stay noted.
package counter

import (
	"sync"
	"sync/atomic"
)

func conc(out []int, n int) {
	var idx atomic.Int64
	var wg sync.WaitGroup
	for range 4 { // want `worker pool of 1 goroutine start\(s\), joined at line 22`
		wg.Go(func() {
			i := int(idx.Add(1) - 1)
			for ; i < n; i = int(idx.Add(1) - 1) {
				out[i] = i
			}
		})
	}
	wg.Wait()
}

func forInit(out []int) {
	var next atomic.Int32
	var wg sync.WaitGroup
	for w := 0; w < 3; w++ { // want `worker pool of 1 goroutine start\(s\), joined at line 37`
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < len(out); i = int(next.Add(1)) - 1 {
				out[i] = i
			}
		}()
	}
	wg.Wait()
}

func breakLoop(out []int) {
	var next int64
	var wg sync.WaitGroup
	for range 2 { // want `worker pool of 1 goroutine start\(s\), joined at line 54`
		wg.Go(func() {
			for {
				i := int(atomic.AddInt64(&next, 1) - 1)
				if i >= len(out) {
					break
				}
				out[i] = i
			}
		})
	}
	wg.Wait()
}

func loads(out []int, stop *atomic.Bool) { // want loads:"synchronizes: an atomic value steers the goroutines' control flow \\(idx.Add\\(1\\)\\)"
	var idx atomic.Int64
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { // want `the workers' counter idx is used in the construct other than to take an index: the goroutines may coordinate through it`
			for i := int(idx.Add(1) - 1); i < len(out); i = int(idx.Add(1) - 1) {
				out[i] = int(idx.Load())
			}
		})
	}
	wg.Wait()
}

var shared atomic.Int64

func global(out []int) { // want global:"synchronizes: an atomic value steers"
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { // want `the workers take indices from a counter that is not a local declared before the construct`
			for i := int(shared.Add(1) - 1); i < len(out); i = int(shared.Add(1) - 1) {
				out[i] = i
			}
		})
	}
	wg.Wait()
}

func spin(out []int) { // want spin:"synchronizes: an atomic value steers"
	var flag atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() { out[0] = 1; flag.Store(1) }) // want `an atomic value steers the goroutines' control flow`
	wg.Go(func() {                              // want `an atomic value steers the goroutines' control flow`
		for flag.Load() == 0 {
		}
		out[1] = out[0]
	})
	wg.Wait()
}

// taskVar's worker is held in a variable (the var form of conc's iter):
// followed as the fork's body (taskvar.go), its item loop included.
func taskVar(out []int) {
	var idx atomic.Int64
	task := func() {
		for i := int(idx.Add(1) - 1); i < len(out); i = int(idx.Add(1) - 1) {
			out[i] = i
		}
	}
	var wg sync.WaitGroup
	for range 2 { // want `worker pool of 1 goroutine start\(s\), joined at line 109`
		wg.Go(task)
	}
	wg.Wait()
}
