// One producer goroutine and one collector goroutine joined by a
// WaitGroup: the collector appends what it receives to a slice the parent
// reads after Wait. Correct: go run -race is silent. goanomaly run (and
// run -hb) at 8f1699e reported three DATA RACEs on every run (res at
// main.go:34 against itself, and the append's read and write): the
// collector was taken for a worker pool (its channel looked closed
// before the construct: closedBefore finds the close in the producer's
// literal, or the producer was attached to it), whose items are blocks
// held concurrent, though one goroutine runs them one after another
// (instrument/analysis/constructs.go, loneWorker, now notes it and leaves
// it to -hb). The errgroup pipeline in ../errgroupctx is the same shape.
package main

import (
	"fmt"
	"sync"
)

func main() {
	out := make(chan int)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		defer close(out)
		for i := 0; i < 10; i++ {
			out <- i
		}
	}()
	var res []int
	go func() {
		defer wg.Done()
		for d := range out {
			res = append(res, d)
		}
	}()
	wg.Wait()
	fmt.Println(len(res))
}
