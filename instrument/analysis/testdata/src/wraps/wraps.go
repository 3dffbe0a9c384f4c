// Package wraps forks goroutines through wrapper types: wrapdep's (by
// facts) and its own errgroup-like Group. Loops of Go joined by Wait are
// constructs; wrappers that break the rule (wrappers.go) leave their
// goroutines noted.
package wraps

import (
	"sync"

	"wrapdep"
)

func concLoop(a []int) {
	var g wrapdep.WaitGroup
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 18`
		g.Go(func() { a[i]++ })
	}
	g.Wait()
}

func concSections(a []int) {
	var g wrapdep.WaitGroup
	g.Go(func() { a[0]++ }) // want `parallel sections of 2 goroutine start\(s\), joined at line 25`
	g.Go(func() { a[1]++ })
	g.Wait()
}

// Group is errgroup-like: the first error, kept under a Once.
type Group struct {
	wg   sync.WaitGroup
	once sync.Once
	err  error
}

func (g *Group) Go(f func() error) { // want Go:"wrapper go of wraps.Group on field wg"
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.once.Do(func() { g.err = err })
		}
	}()
}

func (g *Group) Wait() error { // want Wait:"wrapper wait of wraps.Group on field wg"
	g.wg.Wait()
	return g.err
}

func groupLoop(a []int) error {
	var g Group
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 55`
		g.Go(func() error { a[i]++; return nil })
	}
	return g.Wait()
}

func groupIf(a []int) {
	var g Group
	for i := range a { // want `parallel loop of 1 goroutine start\(s\), joined at line 63`
		g.Go(func() error { a[i]++; return nil })
	}
	if err := g.Wait(); err != nil {
		panic(err)
	}
}

func otherReceiver(a []int) {
	var g, h Group
	for i := range a {
		g.Go(func() error { a[i]++; return nil }) // want `goroutine is never joined`
	}
	_ = h.Wait()
}

func leaky(a []int) { // want leaky:"synchronizes: calls Wait, which waits on a WaitGroup"
	var l wrapdep.Leaky
	for i := range a {
		l.Go(func() { a[i]++ }) // want `l.Go starts a goroutine that runs its function, and wrapdep.Leaky is not a wrapper goanomaly can follow: its method Go starts a goroutine that calls Done before its last statement`
	}
	l.Wait()
}

func twice(a []int) { // want twice:"synchronizes: calls Wait, which waits on a WaitGroup"
	var t wrapdep.Twice
	for i := range a {
		t.Go(func() { a[i]++ }) // want `t.Go starts a goroutine that runs its function, and wrapdep.Twice is not a wrapper goanomaly can follow: its method Go calls wrapcatch.Twice`
	}
	t.Wait()
}

// Barrier's goroutines wait for each other through the wrapper.
func barrier(a []int) {
	var g, inner wrapdep.WaitGroup
	inner.Go(func() { a[0] = 1 }) // want `goroutine is not part of a parallel construct`
	for i := range a {
		g.Go(func() { inner.Wait(); a[i] = a[0] }) // want `waits on a WaitGroup its siblings signal`
	}
	g.Wait()
}

// Open exposes its field: its methods are no wrapper.
type Open struct{ WG sync.WaitGroup }

func (o *Open) Go(f func()) { // want Go:"no wrapper: wraps.Open is not a wrapper goanomaly can follow: its field WG is exported"
	o.WG.Add(1)
	go func() { // want `never joined`
		defer o.WG.Done()
		f()
	}()
}

func (o *Open) Wait() { o.WG.Wait() } // want Wait:"synchronizes: waits on a WaitGroup"

// Touched has its field set outside its methods.
type Touched struct{ wg sync.WaitGroup }

func (t *Touched) Go(f func()) { // want Go:"no wrapper: wraps.Touched is not a wrapper goanomaly can follow: code outside its methods uses its fields"
	t.wg.Add(1)
	go func() { // want `never joined`
		defer t.wg.Done()
		f()
	}()
}

func (t *Touched) Wait() { t.wg.Wait() } // want Wait:"synchronizes: waits on a WaitGroup"

func touch(t *Touched) { t.wg.Add(1) }

// Chan tells the parent by channel too.
type Chan struct {
	wg   sync.WaitGroup
	done chan bool
}

func (c *Chan) Go(f func()) { // want Go:"no wrapper: wraps.Chan is not a wrapper goanomaly can follow: its method Go uses a channel" Go:"synchronizes: communicates by channel"
	c.wg.Add(1)
	go func() { // want `never joined`
		defer c.wg.Done()
		f()
		c.done <- true
	}()
}

func (c *Chan) Wait() { c.wg.Wait() } // want Wait:"synchronizes: waits on a WaitGroup"
