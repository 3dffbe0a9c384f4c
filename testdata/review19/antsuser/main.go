// A program using github.com/panjf2000/ants/v2: a pool running submitted
// closures and a PoolWithFunc running one function on many arguments.
// With "racy" two tasks write one counter while both run (a real race:
// go run -race reports it on every run); otherwise each task writes its
// own slot, and a shared tally is updated under a mutex (correct).
package main

import (
	"fmt"
	"os"
	"sync"

	"github.com/panjf2000/ants/v2"
)

type item struct{ vals []int }

func main() {
	racy := os.Args[len(os.Args)-1] == "racy"
	p, _ := ants.NewPool(4)
	defer p.Release()
	var wg sync.WaitGroup
	items := make([]*item, 16)
	var mu sync.Mutex
	tally := 0
	counter := 0
	gate1, gate2 := make(chan struct{}), make(chan struct{})
	for i := range items {
		wg.Add(1)
		_ = p.Submit(func() {
			defer wg.Done()
			it := &item{vals: make([]int, 4)}
			for k := range it.vals {
				it.vals[k] = i * k
			}
			items[i] = it
			mu.Lock()
			tally += it.vals[1]
			mu.Unlock()
			if racy && i < 2 {
				counter++
				if i == 0 {
					<-gate1
					close(gate2)
				} else {
					close(gate1)
					<-gate2
				}
			}
		})
	}
	wg.Wait()
	pf, _ := ants.NewPoolWithFunc(3, func(arg any) {
		it := arg.(*item)
		it.vals[0] = len(it.vals)
		wg.Done()
	})
	defer pf.Release()
	for _, it := range items {
		wg.Add(1)
		_ = pf.Invoke(it)
	}
	wg.Wait()
	s := 0
	for _, it := range items {
		s += it.vals[0] + it.vals[3]
	}
	fmt.Println(s, tally, counter)
}
