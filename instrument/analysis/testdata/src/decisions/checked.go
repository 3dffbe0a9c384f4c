package decisions

import "sync"

// Through a value computed from an index array, two iterations may write
// one element whatever idx holds (a[idx[i]] alone is proven under a guard,
// see indirect.go).
func indirect(a, idx []int) {
	var wg sync.WaitGroup
	for i := range idx { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[idx[i]/2] += i // want `a\[idx\[i\] / 2\]: checked: not proven` `a: (private|read-only): ` `idx\[i\]: read-only: nothing in the construct writes idx \(when it is apart from a\)` `idx: (private|read-only): ` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

// a[i+1] of iteration i is a[i] of iteration i+1. a is a parameter, so no
// conflict is certain (it is when a is made here: see conflict).
func mixed(a []int) {
	var wg sync.WaitGroup
	for i := range len(a) - 1 { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[i] = a[i+1] // want `a\[i\]: checked: not proven` `a: (private|read-only): ` `i: private: no other goroutine writes i` `a\[i \+ 1\]: checked: not proven` `a: (private|read-only): ` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

var total int

// Every iteration writes the global.
func global(a []int) {
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			total += a[i] // want `total: checked: shared variable` `a\[i\]: checked: not proven` `a: (private|read-only): ` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

// A captured local that every iteration writes.
func lastWriter(a []int) int {
	x := 0
	var wg sync.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			x = i // want `x: checked: shared variable` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
	return x
}

// a is made here and nothing else refers to it: the write of a[i+1] and the
// read of a[i] one iteration later certainly meet.
func conflict(n int) []int {
	a := make([]int, n+1)
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[i+1] = a[i] + 1 // want `definite conflict: write of a\[i \+ 1\] in iteration i and read of a\[i\] at line \d+ in iteration i\+1 touch the same element \(when the loop runs more than 1 iterations\)` `a\[i \+ 1\]: checked: not proven` `a: read-only: nothing writes a while` `i: private: no other goroutine writes i` `a\[i\]: checked: not proven` `a: read-only: nothing writes a while` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
	return a
}

type tally struct {
	mu  sync.Mutex
	sum int
}

// t.sum is written under t.mu, and once without it. xs is not proven: the
// construct writes ints (t.sum), which the type-based proof cannot tell
// from xs's elements.
func locking(xs []int) int {
	var t tally
	var wg sync.WaitGroup
	for i := range xs { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			t.mu.Lock()    // synchronization: not an access
			t.sum += xs[i] // want `t\.sum: checked: shared variable` `xs\[i\]: checked: not proven` `xs: (private|read-only): ` `i: private: no other goroutine writes i`
			t.mu.Unlock()  // synchronization: not an access
			if xs[i] < 0 { // want `xs\[i\]: checked: not proven` `xs: (private|read-only): ` `i: private: no other goroutine writes i`
				t.sum = 0 // want `inconsistent locking: t\.sum is written holding t\.mu at line \d+ but written without it here` `t\.sum: checked: shared variable`
			}
		})
	}
	wg.Wait()
	return t.sum
}

// A goroutine nothing joins is outside the model.
func unstructured(a []int) {
	go func() { a[0] = 1 }() // want `goroutine is never joined \(it signals no WaitGroup, errgroup or join channel\) — not checked`
}

// i*2 of an int8 wraps at 64: iterations 0 and 64 write one element, so the
// subscript is not an ownership form.
func narrowIndex(a []int) {
	var wg sync.WaitGroup
	for i := int8(0); i < 100; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			a[i*2] = 1 // want `a\[i \* 2\]: checked: not proven` `a: (private|read-only): ` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}
