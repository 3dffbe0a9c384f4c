package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

func main() {
	out := make([]int, 16)
	var idx atomic.Int64
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			i := int(idx.Add(1) - 1)
			for ; i < len(out); i = int(idx.Add(1) - 1) {
				out[i] = i * i
			}
		})
	}
	wg.Wait()
	fmt.Println(out)
}
