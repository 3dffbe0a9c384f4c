//go:build go1.21

// Package subscriptversion has a file of language version go1.21 (this
// one: its //go:build line) and one of the current version (new.go). In
// this one a loop variable is one variable for the whole loop: goroutines
// that capture it share it with the loop's increment, so it is checked
// and nothing is proven through it; a range loop's implicit write is not
// checked, so a construct capturing a range variable is refused.
package subscriptversion

import "sync"

func oldCounter(n int) []int {
	a := make([]int, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line 23`
		wg.Add(1)
		go func() {
			defer wg.Done()
			a[i] = i // want `a\[i\]: checked: loop variables are shared between iterations before go1\.22` `a: read-only: nothing writes a while the construct runs` `i: checked: shared variable` `i: checked: shared variable`
		}()
	}
	wg.Wait()
	return a
}

func oldRange(xs []float64) []float64 {
	out := make([]float64, len(xs))
	var wg sync.WaitGroup
	for k := range xs {
		wg.Go(func() { // want `the file's language version is go1\.21: range variable k is one variable for the whole loop, and the loop's writes of it are not checked — not checked`
			out[k] = xs[k] * 2
		})
	}
	wg.Wait()
	return out
}

func oldRangeValue(xs []int) int {
	var mu sync.Mutex
	sum := 0
	var wg sync.WaitGroup
	for _, x := range xs {
		wg.Go(func() { // want `the file's language version is go1\.21: range variable x is one variable for the whole loop, and the loop's writes of it are not checked — not checked`
			mu.Lock()
			sum += x
			mu.Unlock()
		})
	}
	wg.Wait()
	return sum
}
