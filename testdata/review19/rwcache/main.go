// An RWMutex cache with double-checked locking: readers look up under
// RLock and read the entry's fields after RUnlock; a miss builds the entry
// under Lock. Stats under a separate mutex. Correct: go run -race is
// silent.
package main

import (
	"fmt"
	"sync"
)

type entry struct {
	key   int
	value []int
	meta  map[string]string
}

type cache struct {
	mu sync.RWMutex
	m  map[int]*entry

	statsMu      sync.Mutex
	hits, misses int
}

func (c *cache) get(k int) *entry {
	c.mu.RLock()
	e, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		c.statsMu.Lock()
		c.hits++
		c.statsMu.Unlock()
		return e
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok {
		return e
	}
	e = &entry{key: k, value: make([]int, 4), meta: map[string]string{"k": fmt.Sprint(k)}}
	for i := range e.value {
		e.value[i] = k * i
	}
	c.m[k] = e
	c.statsMu.Lock()
	c.misses++
	c.statsMu.Unlock()
	return e
}

func main() {
	c := &cache{m: map[int]*entry{}}
	var wg sync.WaitGroup
	sums := make([]int, 6)
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				e := c.get((i * (g + 1)) % 17)
				sums[g] += e.value[3] + len(e.meta["k"]) + e.key
			}
		}()
	}
	wg.Wait()
	fmt.Println(sums, c.hits+c.misses)
}
