// runtime.Goexit in a goroutine (its deferred calls run, wg.Done among
// them), panics recovered in goroutines and turned into errors, a
// panicking worker's partial result published by its deferred send.
// Correct: go run -race is silent.
package main

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
)

type result struct {
	id   int
	vals []int
	err  error
}

func work(id int) (r *result) {
	r = &result{id: id}
	defer func() {
		if p := recover(); p != nil {
			r.err = fmt.Errorf("worker %d: %v", id, p)
		}
	}()
	for i := 0; i < 5; i++ {
		r.vals = append(r.vals, i*id)
		if id == 2 && i == 3 {
			panic("boom")
		}
	}
	return r
}

func main() {
	var wg sync.WaitGroup
	errs := make([]error, 4)
	finished := make([]bool, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { finished[g] = true }()
			if g == 1 {
				errs[g] = errors.New("exiting")
				runtime.Goexit()
			}
			errs[g] = nil
		}()
	}
	wg.Wait()
	out := make(chan *result)
	for id := 0; id < 4; id++ {
		go func() { out <- work(id) }()
	}
	failed, n := 0, 0
	for i := 0; i < 4; i++ {
		r := <-out
		if r.err != nil {
			failed++
		}
		n += len(r.vals)
		r.vals = nil
	}
	var mu sync.Mutex
	recovered := 0
	done := make(chan struct{})
	for g := 0; g < 3; g++ {
		go func() {
			defer func() {
				if recover() != nil {
					mu.Lock()
					recovered++
					mu.Unlock()
				}
				done <- struct{}{}
			}()
			var m map[string]int
			m["x"] = g // nil map write: a panic
		}()
	}
	for g := 0; g < 3; g++ {
		<-done
	}
	fmt.Println(errs[1] != nil, finished, failed, n, recovered)
}
