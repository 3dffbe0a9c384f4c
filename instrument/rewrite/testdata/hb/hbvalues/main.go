// Calls through values in an -hb build: the program's own callbacks and
// interface methods run rewritten code, which hooks its own
// synchronization, so no release to the global clock precedes them; a
// value of code that is not rewritten (a mutex's Unlock, a WaitGroup's
// Done, an exported method's value, which may be any interface's) still
// orders as written. Nothing here races.
package main

import (
	"fmt"
	"strings"
	"sync"
)

type stepper interface{ step(x int) int }

type double struct{}

func (double) step(x int) int { return 2 * x }

type counter struct {
	mu sync.Mutex
	n  int
}

// Inc takes the counter's own mutex: rewritten, hooked inside.
func (c *counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func apply(f func(int) int, x int) int { return f(x) }

func main() {
	var s stepper = double{}
	acc := 1
	rot := func(x int) int { return x + 3 }
	fs := []func(int) int{rot, s.step}
	for i := range 6 {
		acc = fs[i%2](acc)
		acc = s.step(acc) % 1000
	}
	acc = apply(fs[0], acc)

	// A mutex's methods as values: code that is not rewritten.
	var mu sync.Mutex
	lock, unlock := mu.Lock, mu.Unlock
	x := 0
	var wg sync.WaitGroup
	done := wg.Done
	for range 4 {
		wg.Add(1)
		go func() {
			defer done()
			lock()
			x++
			unlock()
		}()
	}
	wg.Wait()

	// An exported method's value: Foreign, and the method's own hooks.
	c := &counter{}
	inc := c.Inc
	ready := make(chan bool)
	go func() {
		inc()
		ready <- true
	}()
	<-ready
	inc()

	up := strings.ToUpper
	fmt.Println(acc, x, c.n, up("done"))
}
