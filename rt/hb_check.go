package rt

// The check entry points route a thread's task here: the funnels of
// check.go, leaves.go and wrap.go test t.sh first, which is nil for a
// thread's task (and when checks are off), and only then whether t is a
// thread's, so a construct's checks pay nothing for the layer. A task of a
// construct tree that a thread entered checks structurally, as any
// construct's; its atomics also synchronize the thread (hbAtomicSync), as
// its locks (hbLock) and hooks (hbOf) do.

// hbAccess checks one access of t, a thread's task or nil.
func (t *Task) hbAccess(addr uintptr, site Site, write, atomic bool) {
	if t == nil || t.hb == nil {
		return
	}
	th := t.hb
	if !atomic {
		if !th.repeat(addr, write) {
			th.eng.access(th, addr, site, write, false)
		}
		return
	}
	th.mu.Lock() // an atomic is a hook: it applies the pending acquires first
	th.takePending(false)
	th.mu.Unlock()
	th.eng.access(th, addr, site, write, true)
	th.mu.Lock()
	if write {
		th.atomicStore(addr)
	} else {
		th.atomicLoad(addr)
	}
	th.mu.Unlock()
}

// hbAtomicSync is the synchronization of an atomic access by a task of a
// construct tree that a thread entered: the blocks share the thread's
// clock, and an unstructured goroutine that loads what a block stored
// follows the block.
func (t *Task) hbAtomicSync(addr uintptr, write bool) {
	th := t.hbOf()
	if th == nil {
		return
	}
	if write {
		th.atomicStore(addr)
	} else {
		th.atomicLoad(addr)
	}
	th.mu.Unlock()
}

// hbRange checks n elements of size elem from addr, each one location.
func (t *Task) hbRange(addr, n, elem uintptr, site Site, write bool) {
	if t == nil || t.hb == nil {
		return
	}
	th := t.hb
	for k := uintptr(0); k < n; k++ {
		if a := addr + k*elem; !th.repeat(a, write) {
			th.eng.access(th, a, site, write, false)
		}
	}
}

// hbLeaves checks n values of layout l, size bytes apart, at each leaf
// (as leaves does).
func (t *Task) hbLeaves(addr, n, size uintptr, l *layout, site Site, write bool) {
	if t == nil || t.hb == nil {
		return
	}
	th := t.hb
	for k := uintptr(0); k < n; k++ {
		for r := uintptr(0); r < l.reps; r++ {
			base := addr + k*size + r*l.stride
			for _, off := range l.off {
				if a := base + off; !th.repeat(a, write) {
					th.eng.access(th, a, site, write, false)
				}
			}
		}
	}
}

// hbFresh forgets the history of [addr, addr+size), just allocated by
// New or Make in code a thread runs.
func (t *Task) hbFresh(addr, size uintptr) {
	if t == nil || t.hb == nil {
		return
	}
	t.hb.eng.forget(addr, size)
}
