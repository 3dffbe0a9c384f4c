// Package vetonly is what the Analyzer reports without -decisions, as under
// go vet: the definite conflict in shifted, and nothing for the constructs
// it recognises (every loop here), the array results proves independent or
// the goroutine unjoined does not join.
package vetonly

import "sync"

func shifted(n int) []int {
	a := make([]int, n+1)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a[i+1] = a[i] // want `definite conflict: write of a\[i \+ 1\] in iteration i and read of a\[i\] at line 16 in iteration i\+1 touch the same element`
		}()
	}
	wg.Wait()
	return a
}

func results(xs []int) []int {
	out := make([]int, len(xs))
	var wg sync.WaitGroup
	for i := range xs {
		wg.Go(func() { out[i] = xs[i] * xs[i] })
	}
	wg.Wait()
	return out
}

func unjoined(a []int) {
	go func() { a[0] = 1 }()
}
