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
// The chunk of the last check is kept, and others are found in the task's
// chunk cache (see at).
func (t *Task) check(addr uintptr, me uint64, write bool) {
	t.checks++
	key, i := chunkOf(addr) // t.at, by hand: check is past the inliner's budget
	ch := t.last
	if ch == nil || ch.key != key {
		ch = t.find(key)
	}
	switch {
	case ch == nil:
	case ch.hist != nil:
		t.lockedCheck(&ch.hist[i], addr, me, write)
	case me&atomicBit != 0:
		t.waitFreeAtomic(ch, i, addr, me, write)
	case write:
		t.waitFreeWrite(ch, i, addr, me)
	default:
		t.waitFreeRead(ch, i, addr, me)
	}
}
