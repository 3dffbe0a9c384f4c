// Package aliasaddr takes addresses of elements of slices that parallel
// loops write by subscript: a write through such a pointer is not a write
// by subscript.
package aliasaddr

import "sync"

// ps[k] points at a[k+1].
func ptrs(n int) {
	a := make([]int, n)
	ps := make([]*int, n)
	for k := 0; k < n-1; k++ {
		ps[k] = &a[k+1]
	}
	var wg sync.WaitGroup
	for i := 0; i < n-1; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `independent: each iteration writes and reads its own element of ps — not checked`
		wg.Go(func() {
			a[i] = i    // want `a: read-only: nothing writes a while the construct runs` `a\[i\]: checked: not proven` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
			*ps[i] = -i // want `\*ps\[i\]: checked: not proven` `ps: read-only: nothing writes ps while the construct runs` `ps\[i\]: read-only: nothing in the construct writes ps` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

// One pointer, into a field of an element.
type pair struct{ x, y int }

func field(n int) {
	ps := make([]pair, n)
	p := &ps[3].y
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			ps[i] = pair{i, i} // want `ps: read-only: nothing writes ps while the construct runs` `ps\[i\]: checked: not proven` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
			if i == 5 {        // want `i: private: no other goroutine writes i`
				*p = 7 // want `\*p: checked: not proven` `p: read-only: nothing writes p while the construct runs`
			}
		})
	}
	wg.Wait()
}

type cell struct{ n int }

func (c *cell) self() *cell { return c }

// A pointer method called on an element takes its address.
func method(n int) {
	cells := make([]cell, n)
	next := make([]*cell, n)
	for k := range n {
		next[k] = cells[(k+1)%n].self()
	}
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `independent: each iteration writes and reads its own element of next — not checked`
		wg.Go(func() {
			cells[i] = cell{i} // want `cells: read-only: nothing writes cells while the construct runs` `cells\[i\]: checked: not proven` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
			next[i].n++        // want `next: read-only: nothing writes next while the construct runs` `next\[i\]\.n: checked: not proven` `next\[i\]: read-only: nothing in the construct writes next` `i: private: no other goroutine writes i`
		})
	}
	wg.Wait()
}

type block struct{ arr [4]int }

// An array inside an element, sliced.
func array(n int) [][]int {
	bs := make([]block, n)
	views := make([][]int, n)
	for k := 0; k < n-1; k++ {
		views[k] = bs[k+1].arr[:]
	}
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() { bs[i] = block{} }) // want `bs: read-only: nothing writes bs while the construct runs` `bs\[i\]: independent: each iteration touches its own elements of bs` `i: private: no other goroutine writes i`
	}
	wg.Wait()
	return views
}

// The address is taken after a loop that does not run again.
func after(n int) *int {
	a := make([]int, n)
	var wg sync.WaitGroup
	for i := range n { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `independent: each iteration writes and reads its own element of a — not checked`
		wg.Go(func() { a[i] = i }) // want `a: read-only: nothing writes a while the construct runs` `a\[i\]: independent: each iteration touches its own elements of a` `i: private: no other goroutine writes i` `i: private: no other goroutine writes i`
	}
	wg.Wait()
	return &a[n-1]
}
