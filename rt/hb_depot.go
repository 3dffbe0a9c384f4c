package rt

import (
	"runtime"
	"sync"
)

// Where goroutines were created. A report names each of its two
// goroutines with the go statement that started it, and, as the race
// detector does, prints the stack that go statement ran in ("Goroutine
// #2 created at:"). The stack is taken at the go statement (GoAt) and
// kept once per distinct stack in the engine's depot: a program starts
// its goroutines from a few places, however many it starts. A goroutine
// keeps the depot entry's pointer in its slot's owner log (hb_slot.go);
// a report carries the pointers, and the frames are made only when the
// report is printed.

// hbCreatedDepth is how many frames of a go statement's stack are kept.
const hbCreatedDepth = 16

// hbStack is the program counters of a stack, 0 past its end.
type hbStack [hbCreatedDepth]uintptr

// hbDepot is an engine's set of creation stacks.
type hbDepot struct {
	mu  sync.Mutex
	ids map[hbStack]*hbStack
}

// callersHere returns the stack of its caller's caller, as far as
// hbCreatedDepth frames.
func callersHere() hbStack {
	var pcs hbStack
	runtime.Callers(3, pcs[:]) // runtime.Callers, callersHere, and its caller (GoAt's own frame)
	return pcs
}

// intern returns the depot's copy of pcs.
func (d *hbDepot) intern(pcs *hbStack) *hbStack {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s := d.ids[*pcs]; s != nil {
		return s
	}
	if d.ids == nil {
		d.ids = map[hbStack]*hbStack{}
	}
	s := new(hbStack)
	*s = *pcs
	d.ids[*s] = s
	return s
}

// frames returns the user's frames of s (nil for none), as a report's
// stacks are printed.
func (s *hbStack) frames() []frame {
	if s == nil {
		return nil
	}
	n := 0
	for n < len(s) && s[n] != 0 {
		n++
	}
	return userFrames(s[:n])
}
