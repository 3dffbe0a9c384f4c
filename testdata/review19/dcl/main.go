// Double-checked locking with an atomic flag, a lock-free stack of nodes
// pushed and popped with atomic.Pointer CompareAndSwap, and a seqlock-free
// snapshot swap under RWMutex. Correct: go run -race is silent.
// goanomaly run -hb at 8f1699e did not build it: &[]int{0} (main.go:70)
// became &_ga_rt.Make(…) (see ../addrlit).
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type table struct {
	mu    sync.Mutex
	ready atomic.Bool
	data  map[string]int
}

func (t *table) get(k string) int {
	if !t.ready.Load() {
		t.mu.Lock()
		if !t.ready.Load() {
			t.data = map[string]int{"a": 1, "b": 2}
			t.ready.Store(true)
		}
		t.mu.Unlock()
	}
	return t.data[k]
}

type node struct {
	val  int
	next *node
}

type stack struct{ head atomic.Pointer[node] }

func (s *stack) push(v int) {
	n := &node{val: v}
	for {
		old := s.head.Load()
		n.next = old
		if s.head.CompareAndSwap(old, n) {
			return
		}
	}
}

func (s *stack) pop() (int, bool) {
	for {
		old := s.head.Load()
		if old == nil {
			return 0, false
		}
		if s.head.CompareAndSwap(old, old.next) {
			return old.val, true
		}
	}
}

type snap struct {
	mu  sync.RWMutex
	cur *[]int
}

func main() {
	var t table
	var s stack
	sn := &snap{cur: &[]int{0}}
	var wg sync.WaitGroup
	sums := make([]int, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				sums[g] += t.get("a")
				s.push(g*1000 + i)
				if i%3 == 0 {
					s.pop()
				}
				if i%10 == 0 {
					next := make([]int, i)
					sn.mu.Lock()
					sn.cur = &next
					sn.mu.Unlock()
				}
				sn.mu.RLock()
				c := sn.cur
				sn.mu.RUnlock()
				sums[g] += len(*c)
			}
		}()
	}
	wg.Wait()
	n := 0
	for {
		if _, ok := s.pop(); !ok {
			break
		}
		n++
	}
	fmt.Println(sums[0] > 0, n)
}
