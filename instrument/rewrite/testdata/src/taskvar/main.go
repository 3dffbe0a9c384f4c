package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// squares is conc's iter.ForEachIdx: the worker is held in a variable and
// takes its items from an atomic counter.
func squares(out []int) {
	var idx atomic.Int64
	task := func() {
		i := int(idx.Add(1) - 1)
		for ; i < len(out); i = int(idx.Add(1) - 1) {
			out[i] = i * i
		}
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(task)
	}
	wg.Wait()
}

// halves starts a worker held in a variable with go statements.
func halves(out []int) {
	var wg sync.WaitGroup
	var next atomic.Int32
	task := func() {
		defer wg.Done()
		for i := int(next.Add(1)) - 1; i < len(out); i = int(next.Add(1)) - 1 {
			out[i] /= 2
		}
	}
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go task()
	}
	wg.Wait()
}

func main() {
	out := make([]int, 16)
	squares(out)
	halves(out)
	fmt.Println(out)
}
