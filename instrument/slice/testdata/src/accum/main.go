// Package main sums a block's elements into a local it stores to a slot
// nothing kept reads: the local, its loop's value variable and the store
// go; the loop stays for its slice expression's bounds.
package main

import "sync"

func scan(in, sums []int64, blocks int) {
	n := len(in)
	var wg sync.WaitGroup
	for b := range blocks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s int64
			for _, v := range in[b*n/blocks : (b+1)*n/blocks] {
				s += v
			}
			sums[b] = s
		}()
	}
	wg.Wait()
}

func main() {
	in := make([]int64, 10)
	scan(in, make([]int64, 3), 3)
}
