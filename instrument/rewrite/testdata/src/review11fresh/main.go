package main

import (
	"fmt"
	"runtime"
	"sync"
)

// encode is a literal used as a value whose checked copy reads nothing
// shared itself: it hands its array parameter's address to put, a value
// too, whose copy writes the array. Each goroutine's parameter is its
// own memory (moved to the heap, as its address reaches a call through a
// value); after a collection the next goroutine's is often where a
// finished sibling's was. No two goroutines share memory, so no build
// may report.
func encode(n int) []int {
	put := func(p *[4]int, v int) {
		for i := range p {
			p[i] = v + i
		}
	}
	var sum func(p *[4]int) int = func(p *[4]int) int { return p[0] + p[3] }
	enc := func(h func(*[4]int, int), a [4]int, v int) int {
		h(&a, v)
		return sum(&a)
	}
	out := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			runtime.GC()
			out[i] = enc(put, [4]int{}, i)
		})
	}
	wg.Wait()
	return out
}

func main() {
	out := encode(100)
	fmt.Println(out[0], out[99])
}
