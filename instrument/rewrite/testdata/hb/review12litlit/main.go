// A function literal that returns a function literal, given to a function
// that may run inside a construct (so the inner literal gets the
// Attached/Current prologue): hbUses sees the inner literal's _ga_hb
// (declared after the prologue, not first) as a use in the outer one, which
// then declares an unused _ga_hb, and the build breaks ("declared and not
// used: _ga_hb"), as github.com/sourcegraph/conc/stream's tests do.
package main

import (
	"fmt"
	"sync"
)

type stream struct {
	mu  sync.Mutex
	fns []func()
}

func (s *stream) Go(f func() func()) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		cb := f()
		s.mu.Lock()
		s.fns = append(s.fns, cb)
		s.mu.Unlock()
	}()
	wg.Wait()
}

func main() {
	n := 0
	s := &stream{}
	for i := 0; i < 3; i++ {
		s.Go(func() func() {
			return func() { n++ }
		})
	}
	for _, f := range s.fns {
		f()
	}
	fmt.Println(n)
}
