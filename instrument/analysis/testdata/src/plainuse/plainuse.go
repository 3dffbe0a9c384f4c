// Package plainuse gives callbacks to a package that is not rewritten with
// it (example.com/plaindep): they run as written, detached, noted.
package plainuse

import (
	"sync"

	"example.com/plaindep"
)

var total int

func add() { total++ } // want `detach: add runs as written, its goroutine detached, when called through a value`

func run(s *plaindep.Safe) {
	var wg sync.WaitGroup
	for range 4 { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `goroutines attach their task: calls through values run checked`
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Do(func() { total++ }) // want `calls \(\*example.com/plaindep.Safe\).Do, of example.com/plaindep, which is not rewritten: what it calls back runs unchecked — not checked` `function literal is given to \(\*example.com/plaindep.Safe\).Do, of example.com/plaindep, which is not rewritten and may call it under a lock of its own: calls through its value run it unchecked — not checked` `detach: function literal runs as written, its goroutine detached, when called through its value`
			s.Do(add)                // want `calls \(\*example.com/plaindep.Safe\).Do, of example.com/plaindep, which is not rewritten: what it calls back runs unchecked — not checked` `add is given to \(\*example.com/plaindep.Safe\).Do, of example.com/plaindep, which is not rewritten and may call it under a lock of its own: calls through its value run it unchecked — not checked`
		}()
	}
	wg.Wait()
}

type firer interface{ Fire() }

// fire fires a hook stored in the plain package, by name and through an
// interface its type implements: both calls make the task opaque.
func fire(h *plaindep.Hooks) {
	var f firer = h
	var wg sync.WaitGroup
	for range 4 { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `goroutines attach their task: calls through values run checked`
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.Fire()        // want `calls \(\*example.com/plaindep.Hooks\).Fire, of example.com/plaindep, which is not rewritten: what it calls back runs unchecked — not checked`
			f.Fire()        // want `calls Fire through an interface, which may run \(\*example.com/plaindep.Hooks\).Fire, of example.com/plaindep, which is not rewritten: what it calls back runs unchecked — not checked`
			defer h.Fire()  // want `calls \(\*example.com/plaindep.Hooks\).Fire, of example.com/plaindep, which is not rewritten: what it calls back runs unchecked — not checked`
			defer h.Fired() // want `calls \(\*example.com/plaindep.Hooks\).Fired, of example.com/plaindep, which is not rewritten: what it calls back runs unchecked — not checked`
		}()
	}
	wg.Wait()
}

// fireLater defers a call with a result among the construct's own
// statements (its join is deferred), where the rewriter can neither wrap
// it nor add statements around it.
func fireLater(h *plaindep.Hooks) {
	var wg sync.WaitGroup
	defer wg.Wait()
	for range 4 { // want `parallel sections of 1 goroutine start\(s\), joined at line \d+` `goroutines attach their task: calls through values run checked`
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.Fire() // want `calls \(\*example.com/plaindep.Hooks\).Fire, of example.com/plaindep, which is not rewritten: what it calls back runs unchecked — not checked`
		}()
	}
	defer h.Fired() // want `calls \(\*example.com/plaindep.Hooks\).Fired, of example.com/plaindep, which is not rewritten, deferred .*: what it calls back runs checked`
}
