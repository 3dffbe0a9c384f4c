package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

func main() {
	var hits atomic.Int64
	var n int64
	cells := make([]byte, 16)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			cells[i] = byte(i)
			hits.Add(1)
			atomic.AddInt64(&n, 2)
		})
	}
	wg.Wait()
	fmt.Println(cells, hits.Load(), atomic.LoadInt64(&n))
}
