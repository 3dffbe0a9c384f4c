// Package aliasloop has parallel loops that run more than once: what the
// function does after the join comes before the next instance.
package aliasloop

import "sync"

// b = a after the join: in the next round a and b are one array. a is not
// independent by its make alone; the heap proof guards a against b.
func alias(n int) {
	a := make([]int, n)
	b := make([]int, n)
	for range 2 {
		var wg sync.WaitGroup
		for i := 1; i < n-1; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
			wg.Go(func() {
				a[i] = b[i-1] + b[i+1] // want `a: read-only: nothing writes a while the construct runs` `a\[i\]: independent: each iteration touches its own elements of a \(when it is apart from b\)` `i: private: no other goroutine writes i` `b: read-only: nothing writes b while the construct runs` `b\[i - 1\]: read-only: nothing in the construct writes b \(when it is apart from a\)` `i: private: no other goroutine writes i` `b: read-only: nothing writes b while the construct runs` `b\[i \+ 1\]: read-only: nothing in the construct writes b \(when it is apart from a\)` `i: private: no other goroutine writes i`
			})
		}
		wg.Wait()
		b = a
	}
}

// The reslice is kept in a variable the closure's next call reads.
func closure(n int) func() {
	acc := make([]int, n)
	view := make([]int, n)
	return func() {
		var wg sync.WaitGroup
		for k := 0; k < n-2; k++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
			wg.Go(func() { acc[k] = view[k] + 1 }) // want `acc: read-only: nothing writes acc while the construct runs` `acc\[k\]: checked: not proven` `k: private: no other goroutine writes k` `view: read-only: nothing in the construct writes a \[\]int` `view\[k\]: checked: not proven` `k: private: no other goroutine writes k`
		}
		wg.Wait()
		view = acc[2:]
	}
}

// A backward goto runs the loop again.
func jump(n int) {
	x := make([]int, n)
	y := make([]int, n)
	r := 0
again:
	var wg sync.WaitGroup
	for k := 0; k < n-1; k++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() { x[k] += y[k+1] }) // want `x: read-only: nothing writes x while the construct runs` `x\[k\]: independent: each iteration touches its own elements of x \(when it is apart from y\)` `k: private: no other goroutine writes k` `y: read-only: nothing writes y while the construct runs` `y\[k \+ 1\]: read-only: nothing in the construct writes y \(when it is apart from x\)` `k: private: no other goroutine writes k`
	}
	wg.Wait()
	y = x
	if r++; r < 2 {
		goto again
	}
}

// Swapped buffers (jacobi): proven under the guard, evaluated each round.
func swap(n int) {
	cur := make([]int, n)
	next := make([]int, n)
	for range 3 {
		var wg sync.WaitGroup
		for i := 1; i < n-1; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
			wg.Go(func() {
				next[i] = cur[i-1] + cur[i+1] // want `next: read-only: nothing writes next while the construct runs` `next\[i\]: independent: each iteration touches its own elements of next \(when it is apart from cur\)` `i: private: no other goroutine writes i` `cur: read-only: nothing writes cur while the construct runs` `cur\[i - 1\]: read-only: nothing in the construct writes cur \(when it is apart from next\)` `i: private: no other goroutine writes i` `cur: read-only: nothing writes cur while the construct runs` `cur\[i \+ 1\]: read-only: nothing in the construct writes cur \(when it is apart from next\)` `i: private: no other goroutine writes i`
			})
		}
		wg.Wait()
		cur, next = next, cur
	}
}

// Made in the round: each round has its own array, whatever the last one
// kept.
func fresh(n int) int {
	var old []int
	for range 2 {
		a := make([]int, n)
		var wg sync.WaitGroup
		for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `independent: each iteration writes and reads its own element of a — not checked`
			wg.Go(func() { a[i] = i }) // want `a: read-only: nothing writes a while the construct runs` `a\[i\]: independent: each iteration touches its own elements of a` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
		}
		wg.Wait()
		old = a
	}
	return len(old)
}

// Not in a loop: what follows the join cannot come before another instance.
func once(n int) []int {
	a := make([]int, n)
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `independent: each iteration writes and reads its own element of a — not checked`
		wg.Go(func() { a[i] = i }) // want `a: read-only: nothing writes a while the construct runs` `a\[i\]: independent: each iteration touches its own elements of a` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
	}
	wg.Wait()
	b := a[1:]
	return b
}
