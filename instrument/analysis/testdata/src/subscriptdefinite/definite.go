// Package subscriptdefinite holds pairs a[i], a[i+1] that meet in
// neighbouring iterations only if both run: a definite conflict is
// reported when they run in every iteration, and nothing (the accesses
// stay checked) when control flow can keep one of them from running.
package subscriptdefinite

import "sync"

// Both accesses run in every iteration: definite.
func always(n int) []int {
	a := make([]int, n+1)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := i * 2
			a[i] = x // want `definite conflict: write of a\[i\] in iteration i and write of a\[i \+ 1\] at line 19 in iteration i-1`
			a[i+1] = x
		}()
	}
	wg.Wait()
	return a
}

// Only even iterations write, a[i] and a[i+1]: never the same element.
func evenOnly(n int) []int {
	a := make([]int, n+1)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if i%2 == 1 {
				return
			}
			a[i] = 1
			a[i+1] = 2
		})
	}
	wg.Wait()
	return a
}

// The write of a[i+1] is guarded: a possible conflict, not a definite one.
func guarded(n int) []int {
	a := make([]int, n+1)
	var wg sync.WaitGroup
	for k := 0; k < n; k++ {
		wg.Go(func() {
			if k+1 < n && k%3 == 0 {
				a[k+1] = a[k]
			}
		})
	}
	wg.Wait()
	return a
}

// A helper that panics for odd iterations stands before the accesses.
func check(i int) {
	if i%2 == 1 {
		panic("odd")
	}
}

func viaHelper(n int) []int {
	a := make([]int, n+1)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			defer func() { _ = recover() }()
			check(i)
			a[i+1] = a[i] + 1
		})
	}
	wg.Wait()
	return a
}

// The second access is on the right of &&: it may not be evaluated.
func shortCircuit(n int, ok []bool) []int {
	a := make([]int, n+1)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			a[i] = 1
			_ = ok[i] && a[i+1] > 0
		})
	}
	wg.Wait()
	return a
}

// The fork is conditional: odd iterations start no goroutine.
func conditionalFork(n int) []int {
	a := make([]int, n+1)
	var wg sync.WaitGroup
	for i := range n {
		if i%2 == 1 {
			continue
		}
		wg.Go(func() {
			a[i+1] = a[i] + 1
		})
	}
	wg.Wait()
	return a
}

// The loop steps by 2: no iteration i+1 meets iteration i.
func stride(n int) []int {
	a := make([]int, n+2)
	var wg sync.WaitGroup
	for i := 0; i < n; i += 2 {
		wg.Go(func() {
			a[i+1] = a[i] + 1
		})
	}
	wg.Wait()
	return a
}

// Step 2 and a distance of 2: iterations i and i+2 do meet.
func strideMeets(n int) []int {
	a := make([]int, n+3)
	var wg sync.WaitGroup
	for i := 0; i < n; i += 2 {
		wg.Go(func() {
			a[i+2] = a[i] + 1 // want `definite conflict: write of a\[i \+ 2\] in iteration i and read of a\[i\] at line 128 in iteration i\+2 touch the same element \(when the loop runs more than 1 iterations\)`
		})
	}
	wg.Wait()
	return a
}
