package rt

import "sync/atomic"

// Code reached through a function value, a method value or an interface
// cannot be given the task as a hidden parameter: the caller does not know
// which function it calls. Such code finds its task from the goroutine
// instead. A construct's goroutines attach their task when they start
// (Attach) and detach it when they end (Detach); a goroutine that enters a
// root construct is attached to the new root task until the root joins.
// Rewritten functions that may be called that way begin with
//
//	if rt.Attached() {
//		if t := rt.Current(); t != nil { return checkedClone(t, args...) }
//	}
//
// so they run checked exactly when their goroutine is inside a construct.
//
// The table from goroutines to tasks is in gls.go; how a goroutine is
// named is in gls_g.go (its g, found by a few instructions of assembly) or,
// where no assembly is written, gls_stack.go (the id runtime.Stack prints).
// Outside any construct (no goroutine attached anywhere) Current costs one
// atomic load.

// Current returns the task of the calling goroutine, or nil when it runs
// outside every construct.
func Current() *Task { return current() }

// Attach makes t the calling goroutine's task until Detach. A nil t does
// nothing.
func Attach(t *Task) { attach(t, nil) }

// Detach ends what Attach began in the calling goroutine. Without an Attach
// it does nothing.
func Detach() { detach() }

var attached atomic.Int64 // entries in the table: goroutines attached now

// Attached reports whether any goroutine may be attached to a task: it is
// the prologue's gate, tested before Current,
//
//	if _ga_rt.Attached() {
//		if t := _ga_rt.Current(); t != nil { return checkedClone(t, args...) }
//	}
//
// so that a function reached through a value pays one load and one branch
// while nothing is attached (always, in a dormant binary with checks off).
// Current already returns nil then; the gate is the same test written where
// the compiler can branch on it directly, without first making the nil
// result and then testing it (measured on bench/callbacks).
//
// It never hides an attachment from the goroutine that has it: the counter
// counts the table's entries, an entry is only made (attach, enterRoot) by
// its own goroutine and removed (detach, leaveRoot) by it or, once it has
// exited, by the next goroutine on its g (gls_g.go), and the increment that
// made it is sequenced before anything that goroutine runs next, so while
// it is attached the counter it loads is at least one. Other goroutines'
// entries may make it true for a goroutine that is not attached: Current
// then answers nil, as before. One atomic load: wait-free, no allocation.
func Attached() bool { return attached.Load() != 0 }

// current is small enough to inline into Current and Current into its
// callers: outside every construct, a prologue pays one load and a branch.
func current() *Task {
	if attached.Load() == 0 {
		return nil
	}
	return lookupCurrent()
}

// lookupCurrent is lookup written out with one call (getg), for speed:
// what a goroutine pays when some goroutine anywhere is attached.
func lookupCurrent() *Task {
	g := getg()
	key := uintptr(g)
	if !gFast {
		g, key = nil, uintptr(goid())
	}
	tab := glsTab.Load()
	for i := tab.index(key); ; i = (i + 1) & tab.mask {
		switch tab.keys[i].Load() {
		case key:
			s := &tab.slots[i]
			if s.id.Load() != idOf(g, key) || s.task.opaque != 0 {
				return nil // another goroutine's stale entry, or inside a plain call (opaque.go)
			}
			return s.task
		case glsEmpty:
			return nil
		}
	}
}

// self returns the calling goroutine's key in the table and its g (nil when
// goroutines are named by goid).
func self() (uintptr, gptr) {
	if !gFast {
		return uintptr(goid()), nil
	}
	g := getg()
	return uintptr(g), g
}

// currentRoot returns the calling goroutine's task and, when a root Enter
// attached it, that construct.
func currentRoot() (*Task, *Construct) {
	if attached.Load() == 0 {
		return nil, nil
	}
	if s := glsTab.Load().lookup(self()); s != nil {
		return s.task, s.con
	}
	return nil, nil
}

// attach makes t the calling goroutine's task; con is the root construct
// whose Enter attaches it (nil for Attach).
func attach(t *Task, con *Construct) {
	if t == nil {
		return
	}
	glsOnce.Do(calibrate)
	key, g := self()
	glsMu.Lock()
	glsPut(key, idOf(g, key), t, con)
	glsMu.Unlock()
}

func detach() {
	if attached.Load() == 0 {
		return
	}
	key, _ := self()
	glsMu.Lock()
	glsDelete(key)
	glsMu.Unlock()
}
