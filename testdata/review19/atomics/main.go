// Atomic flags and counters, a config published by atomic.Pointer and
// atomic.Value (built, then stored; readers load, then read fields),
// a spin-wait on atomic.Bool, CompareAndSwap claiming. Correct: go run
// -race is silent.
package main

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

type conf struct {
	version int
	weights []float64
}

var current atomic.Pointer[conf]
var legacy atomic.Value

func main() {
	var hits atomic.Int64
	var ready atomic.Bool
	var data [16]int
	go func() {
		for i := range data {
			data[i] = i
		}
		ready.Store(true)
	}()
	for !ready.Load() {
		runtime.Gosched()
	}
	s := 0
	for _, v := range data {
		s += v
	}

	current.Store(&conf{version: 1, weights: []float64{1}})
	legacy.Store(map[string]int{"v": 1})
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for r := 0; r < 3; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				c := current.Load()
				_ = c.weights[len(c.weights)-1] + float64(c.version)
				m := legacy.Load().(map[string]int)
				_ = m["v"]
				hits.Add(1)
				runtime.Gosched()
			}
		}()
	}
	for v := 2; v < 50; v++ {
		c := &conf{version: v, weights: make([]float64, v)}
		for i := range c.weights {
			c.weights[i] = float64(i)
		}
		current.Store(c)
		legacy.Store(map[string]int{"v": v})
		runtime.Gosched()
	}
	close(stop)
	wg.Wait()

	// CAS claims: each slot written by the goroutine that claimed it.
	var claimed [8]atomic.Int32
	owner := make([]int, 8)
	var wg2 sync.WaitGroup
	for g := 1; g <= 4; g++ {
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			for i := range claimed {
				if claimed[i].CompareAndSwap(0, int32(g)) {
					owner[i] = g
				}
			}
		}()
	}
	wg2.Wait()
	n := 0
	for i := range owner {
		if owner[i] == int(claimed[i].Load()) {
			n++
		}
	}
	fmt.Println(s, hits.Load() >= 0, current.Load().version, n)
}
