package falses

import "sync"

type stats struct{ n, sum int }

// publish: each worker counts into a *stats of its own during its items
// and hands it over after them: private during the items, checked after.
func publish() []*stats { // want publish:`synchronizes: communicates by channel`
	ch := make(chan int, 64)
	for i := range 64 {
		ch <- i
	}
	close(ch)
	out := make([]*stats, 3)
	var wg sync.WaitGroup
	for w := range 3 { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			st := &stats{}
			for it := range ch { // want `ch: read-only: nothing writes ch while the construct runs`
				st.sum += it // want `st\.sum: private: only its worker reaches what the worker allocated`
			}
			out[w] = st // want `out\[w\]: checked: not proven: a pool's items are no iterations, only memory nothing writes is proven` `out: read-only: nothing writes out while the construct runs` `w: private: no other goroutine writes w`
			st.n = 1    // want `st\.n: checked: not proven: a pool's items are no iterations, only memory nothing writes is proven`
		})
	}
	wg.Wait()
	return out
}

// inLoop: the hand-over inside the item loop lets the pointer go while
// the items run: per item.
func inLoop() []*stats { // want inLoop:`synchronizes: communicates by channel`
	ch := make(chan int, 64)
	for i := range 64 {
		ch <- i
	}
	close(ch)
	out := make([]*stats, 3)
	var wg sync.WaitGroup
	for w := range 3 { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			st := &stats{}
			for it := range ch { // want `ch: read-only: nothing writes ch while the construct runs`
				st.sum += it // want `st\.sum: checked: not proven: a pool's items are no iterations, only memory nothing writes is proven`
				out[w] = st  // want `out\[w\]: checked: in the worker's own block: no other worker computes its address` `out: read-only: nothing writes out while the construct runs` `w: private: no other goroutine writes w`
			}
		})
	}
	wg.Wait()
	return out
}
