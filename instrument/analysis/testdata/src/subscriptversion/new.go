package subscriptversion

import "sync"

// The same loop in a file of the current version: each iteration has its
// own i, which only the goroutine reads.
func newCounter(n int) []int {
	a := make([]int, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line 17` `independent: each iteration writes and reads its own element of a — not checked`
		wg.Add(1)
		go func() {
			defer wg.Done()
			a[i] = i // want `a\[i\]: independent: each iteration touches its own elements of a` `a: read-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
		}()
	}
	wg.Wait()
	return a
}
