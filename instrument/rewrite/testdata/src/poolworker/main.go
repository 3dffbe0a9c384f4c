package main

import (
	"fmt"
	"sync"
)

func add(s []int, k, v int) { s[k] += v }

// A worker pool whose workers keep state: partial[w] and the call of add,
// which only indexes by the worker's index, are checked in the worker's
// own block (Worker()), what each worker allocates is private, and out[j],
// indexed by the item, stays the item's.
func main() {
	const P = 3
	jobs := make(chan int, 20)
	for i := range 20 {
		jobs <- i
	}
	close(jobs)
	partial := make([]int, P)
	counts := make([]int, P)
	out := make([]int, 20)
	var wg sync.WaitGroup
	for w := 0; w < P; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acc := new(int)
			seen := make([]int, 0, 4)
			for j := range jobs {
				partial[w] += j
				add(counts, w, 1)
				*acc += j
				seen = append(seen, j)
				out[j] = len(seen)
			}
			_ = *acc
		}()
	}
	wg.Wait()
	fmt.Println(partial[0] + partial[1] + partial[2])
}
