package rt

// read checks a plain read. The nil and no-shadow tests come first and the
// function stays small enough to inline into Read and the R/W helpers.
func (t *Task) read(addr uintptr, site Site) {
	if t == nil || t.sh == nil {
		t.hbAccess(addr, site, false, false) // a thread's task, or nothing (hb_check.go)
		return
	}
	if r := t.recent; r != nil && r.holds(addr, 0) {
		t.checks++ // the block read or wrote addr already (recent.go)
		return
	}
	t.check(addr, t.base|siteField(site), false)
}

// write checks a plain write.
func (t *Task) write(addr uintptr, site Site) {
	if t == nil || t.sh == nil {
		t.hbAccess(addr, site, true, false)
		return
	}
	if r := t.recent; r != nil && r.holds(addr, 1) {
		t.checks++
		return
	}
	t.check(addr, t.base|siteField(site), true)
}

// atomicRead records a sync/atomic load.
func (t *Task) atomicRead(addr uintptr, site Site) {
	if t == nil || t.sh == nil {
		t.hbAccess(addr, site, false, true)
		return
	}
	if t.tree.hb != nil {
		t.hbAtomicSync(addr, false)
	}
	t.check(addr, t.base|siteField(site)|atomicBit, false)
}

// atomicWrite records a sync/atomic store or read-modify-write.
func (t *Task) atomicWrite(addr uintptr, site Site) {
	if t == nil || t.sh == nil {
		t.hbAccess(addr, site, true, true)
		return
	}
	if t.tree.hb != nil {
		t.hbAtomicSync(addr, true)
	}
	t.check(addr, t.base|siteField(site)|atomicBit, true)
}

// scalar is the layout of an element checked as one location.
var scalar = &layout{off: []uintptr{0}, reps: 1}

// readRange checks reads of n elements of size elem from addr, one shadow
// cell per element.
func (t *Task) readRange(addr, n, elem uintptr, site Site) {
	if t == nil || t.sh == nil {
		t.hbRange(addr, n, elem, site, false)
		return
	}
	t.run(addr, n, elem, t.base|siteField(site), false)
}

// writeRange checks writes of n elements of size elem from addr.
func (t *Task) writeRange(addr, n, elem uintptr, site Site) {
	if t == nil || t.sh == nil {
		t.hbRange(addr, n, elem, site, true)
		return
	}
	t.run(addr, n, elem, t.base|siteField(site), true)
}

// run checks n elements of size elem from addr, each one location. A run of
// aligned words (a []float64, []int, []*T) is checked a chunk at a time:
// its words are the consecutive cells of one chunk after another, so the
// chunk is found once per sixteen elements and the protocol runs on each
// cell with no lookup, or once for the whole chunk while it is uniform
// (see uniform.go). Other runs are checked element by element.
func (t *Task) run(addr, n, elem uintptr, me uint64, write bool) {
	if th := t.tree.feedOf(); th != nil {
		hbFeedRun(th, addr, n, elem, me, write) // a fed tree's (hb_feed.go)
	}
	if elem != 8 || addr&7 != 0 {
		for k := uintptr(0); k < n; k++ {
			t.checkTree(addr+k*elem, me, write)
		}
		return
	}
	for n > 0 {
		key, i := chunkOf(addr)
		m := min(n, uintptr(chunkCells-i))
		ch := t.last
		if ch == nil || ch.key != key {
			ch = t.find(key)
		}
		t.checks += uint64(m)
		if m == chunkCells && ch != nil && ch.mode.Load() == chunkUniform {
			if write && t.uniformWrite(ch, addr, me) || !write && t.uniformRead(ch, addr, me) {
				addr, n = addr+m*8, n-m
				continue
			}
		}
		var hist *[chunkCells]history
		if ch != nil {
			switch ch.mode.Load() {
			case chunkSplit:
			case chunkLocked:
				hist = ch.hist()
			default:
				ch.split(t.sh)
			}
		}
		for j := range int(m) {
			a := addr + uintptr(j)*8
			switch {
			case ch == nil:
			case hist != nil:
				t.lockedCheck(&hist[i+j], a, me, write)
			case write:
				t.waitFreeWrite(ch, i+j, a, me)
			default:
				t.waitFreeRead(ch, i+j, a, me)
			}
		}
		addr, n = addr+m*8, n-m
	}
}

// check runs the tree's protocol for one access, me being its shadow word.
// The chunk of the last check is kept, and others are found in the task's
// chunk cache (see at).
func (t *Task) check(addr uintptr, me uint64, write bool) {
	if th := t.tree.feedOf(); th != nil {
		hbFeed(th, addr, me, write) // a fed tree's (hb_feed.go)
	}
	t.checkTree(addr, me, write)
}

// checkTree is check in the tree's shadow only.
func (t *Task) checkTree(addr uintptr, me uint64, write bool) {
	t.checks++
	key, i := chunkOf(addr) // t.at, by hand: check is past the inliner's budget
	ch := t.last
	if ch == nil || ch.key != key {
		ch = t.find(key)
	}
	if ch == nil {
		return
	}
	switch ch.mode.Load() {
	case chunkSplit:
	case chunkLocked:
		t.lockedCheck(&ch.hist()[i], addr, me, write)
		return
	default:
		ch.split(t.sh) // an element access: the cells hold the history from now on
	}
	switch {
	case me&atomicBit != 0:
		t.waitFreeAtomic(ch, i, addr, me, write)
	case write:
		t.waitFreeWrite(ch, i, addr, me)
	default:
		t.waitFreeRead(ch, i, addr, me)
	}
	switch r := t.recent; {
	case r != nil && me&atomicBit == 0:
		r.note(addr, b2u(write))
	case r == nil && t.tree.feedOf() == nil: // a fed tree's repeats are its thread's accesses in later epochs
		t.startRecent()
	}
}

// b2u is 1 for true.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
