package rt

// read checks a plain read. The nil and no-shadow tests come first and the
// function stays small enough to inline into Read and the R/W helpers.
func (t *Task) read(addr uintptr, site Site) {
	if t == nil || t.sh == nil {
		return
	}
	t.check(addr, t.base|siteField(site), false)
}

// write checks a plain write.
func (t *Task) write(addr uintptr, site Site) {
	if t == nil || t.sh == nil {
		return
	}
	t.check(addr, t.base|siteField(site), true)
}

// atomicRead records a sync/atomic load.
func (t *Task) atomicRead(addr uintptr, site Site) {
	if t == nil || t.sh == nil {
		return
	}
	t.check(addr, t.base|siteField(site)|atomicBit, false)
}

// atomicWrite records a sync/atomic store or read-modify-write.
func (t *Task) atomicWrite(addr uintptr, site Site) {
	if t == nil || t.sh == nil {
		return
	}
	t.check(addr, t.base|siteField(site)|atomicBit, true)
}

// scalar is the layout of an element checked as one location.
var scalar = &layout{off: []uintptr{0}, reps: 1}

// readRange checks reads of n elements of size elem from addr, one shadow
// cell per element.
func (t *Task) readRange(addr, n, elem uintptr, site Site) {
	t.leaves(addr, n, elem, scalar, site, false)
}

// writeRange checks writes of n elements of size elem from addr.
func (t *Task) writeRange(addr, n, elem uintptr, site Site) {
	t.leaves(addr, n, elem, scalar, site, true)
}

// check runs the tree's protocol for one access, me being its shadow word.
// The cell of the last check is cached, and so, through it, is its chunk
// (see near).
func (t *Task) check(addr uintptr, me uint64, write bool) {
	t.checks++
	c := t.last
	switch {
	case c == nil:
		c = t.sh.cell(addr)
		t.last = c
	case c.addr != addr:
		if w, ok := c.word(addr); ok {
			c = w
		} else {
			c = t.sh.near(c, addr)
		}
		t.last = c
	}
	switch {
	case c == nil:
	case c.hist != nil:
		t.lockedCheck(c, addr, me, write)
	case me&atomicBit != 0:
		t.waitFreeAtomic(c, addr, me, write)
	case write:
		t.waitFreeWrite(c, addr, me)
	default:
		t.waitFreeRead(c, addr, me)
	}
}
