package decisions

import "sync"

// A captured local that nothing in the construct writes is read-only.
func readOnlyLocal(n int) []int {
	a := make([]int, n)
	k := 3
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `independent: each iteration writes and reads its own element of a — not checked`
		wg.Go(func() {
			a[i] = k // want `a\[i\]: independent: each iteration touches its own elements of a$` `a: read-only: nothing writes a while the construct runs` `i: private: no other goroutine writes i` `k: read-only: nothing writes k while the construct runs`
		})
	}
	wg.Wait()
	return a
}

// A slice nothing writes is read-only at any subscript. a and b are each
// made here and never reassigned, so they cannot share an array: no guard.
func readOnlySlice(n int) []int {
	a := make([]int, n)
	b := make([]int, n)
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `independent: each iteration writes and reads its own element of a — not checked`
		wg.Go(func() {
			a[i] = b[0] + b[n-1-i] // want `a\[i\]: independent: each iteration touches its own elements of a$` `a: read-only: nothing writes a while` `i: private: no other goroutine writes i` `b\[0\]: read-only: nothing in the construct writes b$` `b: read-only: nothing writes b while` `b\[n - 1 - i\]: read-only: nothing in the construct writes b$` `b: read-only: nothing writes b while` `n: (private|read-only): ` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
	return a
}

type config struct{ scale int }

type state struct{ cfg *config }

// A field path through pointers is read-only when nothing in the construct
// writes memory of its type (the construct writes float64s only).
func fieldPath(n int, cfg *config) []float64 {
	out := make([]float64, n)
	s := &state{cfg: cfg}
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `independent: each iteration writes and reads its own element of out — not checked`
		wg.Go(func() {
			out[i] = float64(s.cfg.scale * i) // want `out\[i\]: independent: each iteration touches its own elements of out$` `out: read-only: nothing writes out while` `i: private: no other goroutine writes i` `s\.cfg\.scale: read-only: nothing in the construct writes a int$` `s\.cfg: read-only: nothing in the construct writes a \*config$` `s: read-only: nothing writes s while` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
	return out
}
