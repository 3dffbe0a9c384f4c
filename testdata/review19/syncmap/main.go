// sync.Map as a cache of lazily built entries (LoadOrStore of a freshly
// built pointer; readers Load and read its fields), Range, and
// CompareAndSwap/Swap. Correct: go run -race is silent. goanomaly run -hb
// at 8f1699e reported e.vals[7] (main.go:41) and e.tags["x"] (main.go:42)
// against the builder's writes (main.go:20, 22) on every run: the loop was
// a construct, whose blocks cannot express that a sibling's LoadOrStore
// published the entry (README, "Known false alarms"), though its RWMutex
// twin ../rwcache was noted ("state read under a lock steers") and left
// to happens-before. A sync.Map's Load steering a branch is now noted the
// same way (instrument/analysis/siblings.go, syncMapCall).
package main

import (
	"fmt"
	"sync"
)

type entry struct {
	id   int
	vals []int
	tags map[string]bool
}

func build(id int) *entry {
	e := &entry{id: id, vals: make([]int, 8), tags: map[string]bool{}}
	for i := range e.vals {
		e.vals[i] = id * i
	}
	e.tags["x"] = id%2 == 0
	return e
}

func main() {
	var m sync.Map
	var wg sync.WaitGroup
	sums := make([]int, 6)
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				k := (i * 7) % 13
				v, ok := m.Load(k)
				if !ok {
					v, _ = m.LoadOrStore(k, build(k))
				}
				e := v.(*entry)
				sums[g] += e.vals[7] + e.id
				if e.tags["x"] {
					sums[g]++
				}
			}
		}()
	}
	wg.Wait()
	n := 0
	m.Range(func(k, v any) bool {
		n += len(v.(*entry).vals)
		return true
	})
	var flags sync.Map
	flags.Store("state", "idle")
	var wg2 sync.WaitGroup
	won := make([]bool, 4)
	for g := 0; g < 4; g++ {
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			won[g] = flags.CompareAndSwap("state", "idle", fmt.Sprint("busy", g))
		}()
	}
	wg2.Wait()
	c := 0
	for _, w := range won {
		if w {
			c++
		}
	}
	fmt.Println(sums[0] > 0, n, c)
}
