// Package wrapcatch recovers panics into a catcher, as conc's panics
// package does: Try calls its argument once, and the fact says so.
package wrapcatch

import "sync/atomic"

type Catcher struct{ got atomic.Pointer[any] }

func (c *Catcher) Try(f func()) { // want Try:"calls its argument once"
	defer c.recover()
	f()
}

func (c *Catcher) recover() {
	if v := recover(); v != nil {
		c.got.CompareAndSwap(nil, &v)
	}
}

// Repanic panics with the first value caught.
func (c *Catcher) Repanic() { // want Repanic:"synchronizes: an atomic value steers"
	if v := c.got.Load(); v != nil {
		panic(*v)
	}
}

// Twice calls its argument twice: no fact.
func Twice(f func()) {
	f()
	f()
}
