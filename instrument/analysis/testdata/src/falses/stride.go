package falses

import "sync"

// strideForms: stat[2*w] and stat[2*w+1] are two offsets of one stride,
// closer than the stride: no two workers meet, both are the worker's.
func strideForms() []int { // want strideForms:`synchronizes: communicates by channel`
	const P = 4
	ch := make(chan int, 100)
	for i := range 100 {
		ch <- i
	}
	close(ch)
	stat := make([]int, 2*P)
	var wg sync.WaitGroup
	for w := range P { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for it := range ch { // want `ch: read-only: nothing writes ch while the construct runs`
				stat[2*w] += it // want `stat\[2 \* w\]: checked: in the worker's own block: no other worker computes its address` `stat: read-only: nothing writes stat while the construct runs` `w: private: no other goroutine writes w`
				stat[2*w+1]++   // want `stat\[2 \* w \+ 1\]: checked: in the worker's own block: no other worker computes its address` `stat: read-only: nothing writes stat while the construct runs` `w: private: no other goroutine writes w`
			}
		})
	}
	wg.Wait()
	return stat
}

// strideOverlap: stat[2*w+2] of worker w is stat[2*w] of worker w+1:
// offsets as far apart as the stride stay per item.
func strideOverlap() []int { // want strideOverlap:`synchronizes: communicates by channel`
	const P = 4
	ch := make(chan int, 100)
	for i := range 100 {
		ch <- i
	}
	close(ch)
	stat := make([]int, 2*P+2)
	var wg sync.WaitGroup
	for w := range P { // want `worker pool of 1 goroutine start\(s\), joined at line \d+`
		wg.Go(func() {
			for it := range ch { // want `ch: read-only: nothing writes ch while the construct runs`
				stat[2*w] += it // want `stat\[2 \* w\]: checked: not proven: a pool's items are no iterations, only memory nothing writes is proven` `stat: read-only: nothing writes stat while the construct runs` `w: private: no other goroutine writes w`
				stat[2*w+2]++   // want `stat\[2 \* w \+ 2\]: checked: not proven: a pool's items are no iterations, only memory nothing writes is proven` `stat: read-only: nothing writes stat while the construct runs` `w: private: no other goroutine writes w`
			}
		})
	}
	wg.Wait()
	return stat
}
