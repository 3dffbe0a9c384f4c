package main

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// catcher keeps the first panic value, as conc's panics.Catcher does.
type catcher struct{ got atomic.Pointer[any] }

func (c *catcher) try(f func()) {
	defer c.recover()
	f()
}

func (c *catcher) recover() {
	if v := recover(); v != nil {
		c.got.CompareAndSwap(nil, &v)
	}
}

func (c *catcher) repanic() {
	if v := c.got.Load(); v != nil {
		panic(*v)
	}
}

// waitGroup has conc's shape.
type waitGroup struct {
	wg sync.WaitGroup
	pc catcher
}

func (h *waitGroup) Go(f func()) {
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		h.pc.try(f)
	}()
}

func (h *waitGroup) Wait() {
	h.wg.Wait()
	h.pc.repanic()
}

// group is errgroup-like: the first error, kept under a Once.
type group struct {
	wg   sync.WaitGroup
	once sync.Once
	err  error
}

func (g *group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.once.Do(func() { g.err = err })
		}
	}()
}

func (g *group) Wait() error {
	g.wg.Wait()
	return g.err
}

func main() {
	out := make([]int, 8)
	var h waitGroup
	for i := range out {
		h.Go(func() { out[i] = i * i })
	}
	h.Wait()
	var g group
	for i := range out {
		g.Go(func() error {
			if out[i] == 9 {
				return errors.New("nine")
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		fmt.Println(err)
	}
	fmt.Println(out)
}
