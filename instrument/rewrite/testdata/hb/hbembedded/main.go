// Sync objects reached through embedding: the hooks key them by the
// embedded object's address, as the direct calls do. Race-free.
package main

import (
	"fmt"
	"sync"
)

type group struct {
	name string
	sync.WaitGroup
	sync.Once
	mu   sync.Mutex
	vals []int
}

type outer struct {
	*group
}

func main() {
	g := &group{name: "g"}
	o := outer{g}
	cfg := 0
	for i := range 4 {
		g.Add(1)
		go func() {
			defer o.Done()
			o.Do(func() { cfg = 9 })
			o.mu.Lock()
			o.vals = append(o.vals, i*cfg)
			o.mu.Unlock()
		}()
	}
	o.Wait()
	sum := 0
	for _, v := range g.vals {
		sum += v
	}
	fmt.Println(len(g.vals), sum, cfg)
}
