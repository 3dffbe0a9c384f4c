package rt

import (
	"math/bits"
	"sync/atomic"
)

// The happens-before shadow: per location the FastTrack history of plain
// and atomic accesses, kept per 16-byte granule in cells (hb_cell.go) of
// regions (hb_region.go). Plain writes to an address are totally ordered
// until the first race on it, so the last one is kept; reads may be
// concurrent, so every read that no later read of the address follows is
// kept (one entry while each follows the last). Atomic accesses never
// race with each other, only with plain ones (as -race has it), so atomic
// reads and writes are two more read-like histories: an atomic write is
// checked against the plain writes and reads, a plain read against the
// atomic writes, a plain write against all. A plain write drops, for its
// address, the read-like entries that happen before it: a later access
// that races with one of them races with that write too. The report of a
// conflict names both accesses' sites and goroutines.

// cell returns the cell of the granule at addr, making its region if new:
// from th's cache when th checked the granule lately, else from th's last
// region or the table.
func (e *hbEngine) cell(th *hbThread, addr uintptr) *hbCell {
	if c := &th.cache[addr>>hbGrainShift&(hbCacheSize-1)]; c.grain == addr&^(hbGrain-1) && c.c != nil && th.cacheGen == e.gcGen.Load() {
		return c.c
	}
	key := addr >> hbRegionShift
	r := th.region
	if r == nil || r.key != key {
		r = e.regions.get(e, key)
		th.region = r
	}
	return r.cellOf(addr)
}

// access checks one access by th at addr and records it. write and atomic
// say what it is. The check path takes no pending acquire (see api_hb.go):
// only when the access would be reported does it apply them (leaving them
// pending) and check again, and it reports only what is still unordered.
func (e *hbEngine) access(th *hbThread, addr uintptr, site Site, write, atomic bool) {
	shared := th.entered.Load() != 0 // blocks may act on th.vc now: hold th.mu throughout
	if shared {
		th.mu.Lock()
		defer th.mu.Unlock()
	}
	if len(th.wcp.held) != 0 {
		// Rule (a) in critical sections (hb_wcp_lock.go). Before the
		// cell's paths, which return early for a repeat in the epoch or
		// an inline record: a lock acquire ticks, so a repeat is one in
		// the section, and joining again only adds order.
		th.wcpAccess(addr, write)
	}
	c := e.cell(th, addr)
	_, bit := grainOf(addr)
	var a hbAcc // field by field: a literal was built aside and copied in 16-byte loads of its just stored fields, which stalled
	a.e, a.site, a.bit, a.write, a.atomic = th.epoch(), site, bit, write, atomic
	gen := e.lockCell(c)
	th.remember(addr, c)
	if !atomic && c.ext.Load() == 0 && e.inlineAccess(th, c, &a) {
		e.unlock(c, gen)
		return
	}
	var one, two hbOne
	var v hbView
	v.w, v.r, v.x = e.view(c, &one, &two)
	if v.repeats(&a)&a.bit == a.bit {
		e.unlock(c, gen)
		return
	}
	raced := e.races(&v, th.vc, addr, &a, false)
	if raced && th.npend.Load() != 0 {
		e.unlock(c, gen)
		if !shared {
			th.mu.Lock()
		}
		th.takePending(false)
		if !shared {
			th.mu.Unlock()
		}
		gen = e.lockCell(c) // New may have cleared it meanwhile
		v.w, v.r, v.x = e.view(c, &one, &two)
		raced = e.races(&v, th.vc, addr, &a, false)
	}
	if raced {
		e.races(&v, th.vc, addr, &a, true)
	}
	e.record(th, c, &v, &a)
	th.lastAcc = th.vc[th.id]
	e.unlock(c, gen)
}

// accessGrain checks the plain accesses of the addresses of the granule at
// addr that mask names (bit k: addr+k), all at site in th's current
// epoch, as access would check them one by one: a run of bytes or of
// 2- and 4-byte elements that a range check (hbRange) covers, such as a
// message's payload that many subscribers read. When nothing races, the
// word is checked and recorded under one lock of its cell (histories
// keep an entry's addresses as a mask, so the result is the one the
// single accesses leave); a race to report, a critical section's log or
// an entered construct take access, address by address, so reports are
// exactly its.
func (e *hbEngine) accessGrain(th *hbThread, addr uintptr, mask hbMask, site Site, write bool) {
	if mask&(mask-1) != 0 && th.entered.Load() == 0 && len(th.wcp.held) == 0 && e.accessQuiet(th, addr, mask, site, write) {
		return
	}
	for m := mask; m != 0; m &= m - 1 {
		e.access(th, addr+uintptr(bits.TrailingZeros16(m)), site, write, false)
	}
}

// accessQuiet checks and records the plain accesses of the addresses of
// mask in the granule at addr when none of them races, and reports true;
// otherwise it changes nothing and reports false. An address the thread
// already accessed so in this epoch is a repeat, which access would skip
// (its entry keeps its site, and a write its reads): it is taken out of
// the mask first.
func (e *hbEngine) accessQuiet(th *hbThread, addr uintptr, mask hbMask, site Site, write bool) bool {
	c := e.cell(th, addr)
	var a hbAcc
	a.e, a.site, a.bit, a.write = th.epoch(), site, mask, write
	gen := e.lockCell(c)
	th.remember(addr, c)
	var one, two hbOne
	var v hbView
	v.w, v.r, v.x = e.view(c, &one, &two)
	a.bit &^= v.repeats(&a)
	ok := true
	switch {
	case a.bit == 0:
	case v.x == nil && e.inlineAccess(th, c, &a):
	case !e.races(&v, th.vc, addr, &a, false):
		e.record(th, c, &v, &a)
		th.lastAcc = th.vc[th.id]
	default:
		ok = false
	}
	e.unlock(c, gen)
	return ok
}

// inlineAccess checks and records plain access a by th in c, which has
// no extension, when nothing races and the result fits inline: the
// common case, without the lists of the general path. It reports false
// (having changed nothing) otherwise. Under c's lock.
func (e *hbEngine) inlineAccess(th *hbThread, c *hbCell, a *hbAcc) bool {
	w, r := c.w.Load(), c.r.Load()
	var done hbMask // what a repeats (hbView.repeats)
	if markEpoch(w) == a.e {
		done = markMask(w)
	}
	if !a.write && markEpoch(r) == a.e {
		done |= markMask(r)
	}
	if done&a.bit == a.bit {
		return true // a repeat in the same epoch (of every address a names)
	}
	vc := th.vc
	if markMask(w)&a.bit != 0 && !vc.before(markEpoch(w)) ||
		a.write && markMask(r)&a.bit != 0 && !vc.before(markEpoch(r)) {
		return false // the general path reports, after the pending acquires
	}
	if !recordInline(c, vc, a) {
		return false
	}
	th.lastAcc = th.vc[th.id]
	return true
}

// lockCell locks c and returns the current generation; a cell not
// touched for two collections is cleared first (hb_gen.go).
func (e *hbEngine) lockCell(c *hbCell) uint32 {
	g := e.lock(c)
	if !e.generations.Load() {
		return g
	}
	cur := uint32(e.gcGen.Load()) & hbGenMask
	if (cur-g)&hbGenMask >= 2 && !c.empty() {
		e.clearCell(c)
	}
	return cur
}

// hbGenMask keeps a generation in the 31 bits of a cell's state.
const hbGenMask = 1<<31 - 1

// clearCell drops every history of c. Under c's lock.
func (e *hbEngine) clearCell(c *hbCell) {
	if n := c.ext.Load(); n != 0 {
		c.ext.Store(0)
		e.exts.release(e, e.pool(c), n)
	}
	c.w.Store(0)
	c.r.Store(0)
	c.wSite, c.rSite = 0, 0
}

// hbView is a cell's histories as lists: in its extension's record, or
// copies of its inline ones.
type hbView struct {
	w, r []hbEnt
	x    *hbExt // the cell's extension, nil for the inline histories: the lists are its record's then, and an entry changed in place changes it
}

// view returns c's histories, the inline ones copied into one and two:
// the plain lists of its hbView and its extension. Under c's lock. Seven
// words, returned in registers and stored in the caller's view field by
// field: the view returned as a struct, on the stack, was stored word by
// word and copied back in 16-byte loads, which stalled (two fifths of
// accessQuiet's own time in BenchmarkHBFanOut).
func (e *hbEngine) view(c *hbCell, one, two *hbOne) (w, r []hbEnt, x *hbExt) {
	if n := c.ext.Load(); n != 0 {
		x = e.exts.get(n)
		w, r = x.plain()
		return w, r, x
	}
	return one.list(c.w.Load(), c.wSite), two.list(c.r.Load(), c.rSite), nil
}

// atomics returns the atomic reads and writes of v (none inline).
func (v *hbView) atomics() (ar, aw []hbEnt) {
	if v.x == nil {
		return nil, nil
	}
	return v.x.atomics()
}

// repeats returns the addresses of a's granule that access a repeats in
// its epoch: those its own list (v.own) holds in that epoch, and for a
// plain read those the thread wrote in it too. A read after the thread's
// own write in one epoch adds nothing: an access that races with it
// races with that write (which is not before it, the read's epoch being
// the write's), as a write drops the reads before it for the same
// reason; recorded, it was dropped again by the next write, so a
// variable read and written in turn (acc = f(acc)) took its cell's lock
// at every access (bench/callbacks under -hb). hbThread.cachedBits finds
// the same repeats without the lock.
func (v *hbView) repeats(a *hbAcc) hbMask {
	m := epochMask(v.own(a), a.e)
	if !a.write && !a.atomic {
		m |= epochMask(v.w, a.e)
	}
	return m
}

// own returns the list that access a is recorded in.
func (v *hbView) own(a *hbAcc) []hbEnt {
	switch {
	case !a.write && !a.atomic:
		return v.r
	case !a.atomic:
		return v.w
	}
	ar, aw := v.atomics()
	if !a.write {
		return ar
	}
	return aw
}

// races reports whether access a by a thread whose clock is vc conflicts
// with an access in c that does not happen before it, and, with report,
// reports each such pair.
func (e *hbEngine) races(v *hbView, vc vclock, addr uintptr, a *hbAcc, report bool) bool {
	w, r := v.w, v.r
	switch {
	case !a.write && !a.atomic: // the common case: the atomic reads are not needed
		x := e.check(w, vc, writeRead, addr, a, false, report)
		if v.x == nil || !v.x.hasAtomicWrites() {
			return x
		}
		_, aw := v.atomics()
		return e.check(aw, vc, writeRead, addr, a, true, report) || x
	case !a.atomic:
		ar, aw := v.atomics()
		x := e.check(w, vc, writeWrite, addr, a, false, report)
		y := e.check(r, vc, readWrite, addr, a, false, report)
		z := e.check(ar, vc, readWrite, addr, a, true, report)
		return e.check(aw, vc, writeWrite, addr, a, true, report) || x || y || z
	case !a.write:
		return e.check(w, vc, writeRead, addr, a, false, report)
	}
	x := e.check(w, vc, writeWrite, addr, a, false, report)
	return e.check(r, vc, readWrite, addr, a, false, report) || x
}

// check says whether an entry of l holds a's address and does not happen
// before vc, and, with report, reports each. atomic says what l's
// accesses are.
func (e *hbEngine) check(l []hbEnt, vc vclock, k kind, addr uintptr, a *hbAcc, atomic, report bool) bool {
	raced := false
	for _, x := range l {
		if h := x.mark(); markMask(h)&a.bit == 0 || vc.before(markEpoch(h)) {
			continue
		}
		if !report {
			return true
		}
		e.report(k, addr, hbSide{a.e, a.site, a.atomic}, hbSide{markEpoch(x.mark()), x.site, atomic})
		raced = true
	}
	return raced
}

// record adds access a by th to c, whose histories v holds: inline when
// the result fits (hb_cell.go), else in c's extension, which is given
// back once the histories fit inline again. A plain read of a cell with
// an extension changes the read list in place, in its record (the next
// byte of a message a subscriber reads), when the record has room for
// one more entry. Otherwise the lists are changed in th's scratch
// buffers (no allocation once they have grown) and stored: a full read
// list grown in place by append was a new Go slice at every record that
// filled up (BenchmarkHBFanOut: 4 allocations per message).
func (e *hbEngine) record(th *hbThread, c *hbCell, v *hbView, a *hbAcc) {
	vc := th.vc
	if v.x == nil && !a.atomic && recordInline(c, vc, a) {
		return
	}
	if v.x != nil && !a.write && !a.atomic && len(v.r) < cap(v.r) {
		// Room for one more entry: addRead changes the list in place.
		v.x.setReads(addRead(v.r, vc, a))
		return
	}
	l := &th.scratch
	ar, aw := v.atomics()
	l[0], l[1], l[2], l[3] = append(l[0][:0], v.w...), append(l[1][:0], v.r...), append(l[2][:0], ar...), append(l[3][:0], aw...)
	switch {
	case !a.write && !a.atomic:
		l[1] = addRead(l[1], vc, a)
	case !a.atomic:
		l[0] = writeInto(l[0], a)
		l[1] = dropBefore(l[1], vc, a)
		l[2] = dropBefore(l[2], vc, a)
		l[3] = dropBefore(l[3], vc, a)
	case !a.write:
		l[2] = addRead(l[2], vc, a)
	default:
		l[3] = addRead(l[3], vc, a)
	}
	e.store(c, l[0], l[1], l[2], l[3])
}

// store makes w, r, ar and aw c's histories: inline if they fit (one
// entry of plain writes and reads at most, no atomic), giving back c's
// extension, else in c's extension, made if c has none. They are copies,
// or c's own lists shortened in place (hbExts.store). Under c's lock.
func (e *hbEngine) store(c *hbCell, w, r, ar, aw []hbEnt) {
	n := c.ext.Load()
	if len(w) <= 1 && len(r) <= 1 && len(ar) == 0 && len(aw) == 0 {
		var wh, rh hbMark
		var ws, rs Site
		if len(w) == 1 {
			wh, ws = w[0].mark(), w[0].site
		}
		if len(r) == 1 {
			rh, rs = r[0].mark(), r[0].site
		}
		if n != 0 {
			c.ext.Store(0)
			e.exts.release(e, e.pool(c), n)
		}
		c.w.Store(wh)
		c.r.Store(rh)
		c.wSite, c.rSite = ws, rs
		return
	}
	var x *hbExt
	if n != 0 {
		x = e.exts.get(n)
	} else {
		x, n = e.exts.alloc(e, e.pool(c), c)
		c.w.Store(0)
		c.r.Store(0)
		c.wSite, c.rSite = 0, 0
		c.ext.Store(n)
	}
	e.exts.store(e, e.pool(c), x, w, r, ar, aw)
}

// recordInline records plain access a in c's inline histories, if the
// result fits there: the access joins or replaces the one entry of its
// sort. Under c's lock, c with no extension.
func recordInline(c *hbCell, vc vclock, a *hbAcc) bool {
	if !a.write {
		h := c.r.Load()
		switch {
		case h == 0, markMask(h) == a.bit && vc.before(markEpoch(h)):
			c.r.Store(a.mark())
			c.rSite = a.site
		case markEpoch(h) == a.e && c.rSite == a.site:
			c.r.Store(h | uint64(a.bit))
		default: // a read of another address, or concurrent
			return false
		}
		return true
	}
	h := c.w.Load()
	switch {
	case h == 0, markMask(h) == a.bit:
		c.w.Store(a.mark())
		c.wSite = a.site
	case markEpoch(h) == a.e && c.wSite == a.site:
		c.w.Store(h | uint64(a.bit))
	default: // another address's last write stays
		return false
	}
	if r := c.r.Load(); markMask(r)&a.bit != 0 && vc.before(markEpoch(r)) {
		if r &^= uint64(a.bit); markMask(r) == 0 {
			r = 0
		}
		c.r.Store(r)
	}
	return true
}

// hbSide is one access of a report.
type hbSide struct {
	e      epoch
	site   Site
	atomic bool
}

// hbWord is the report word of an access by the goroutine numbered serial
// at site s: the goroutine's number where a structural word has its block
// tag.
func hbWord(serial uint32, s Site, atomic bool) uint64 {
	w := uint64(serial)<<tagShift | siteField(s)
	if atomic {
		w |= atomicBit
	}
	return w
}

// report sends a conflict found by the clocks to the reporter, naming the
// goroutines that made the two accesses (hbSlots.owner).
func (e *hbEngine) report(k kind, addr uintptr, sink, source hbSide) {
	a, b := e.slots.owner(sink.e), e.slots.owner(source.e)
	e.reporter().add(nil, rawReport{kind: k, class: dataRace, addr: addr,
		sink: hbWord(a.serial, sink.site, sink.atomic), source: hbWord(b.serial, source.site, source.atomic),
		hb: true, starts: [2]Site{a.site, b.site}, created: [2]*hbStack{a.stack, b.stack}})
}

// forget drops the histories of [addr, addr+size): the memory was just
// allocated, and what the shadow holds there is a freed object's (the
// collector reuses addresses), which would look concurrent with the new
// object's accesses. Only regions that exist are visited: by number, or,
// for a range of more regions than the shadow has, by a pass over them.
func (e *hbEngine) forget(addr, size uintptr) {
	if size == 0 {
		return
	}
	last := addr + (size - 1) // no overflow at the top of the address space
	first, lastKey := addr>>hbRegionShift, last>>hbRegionShift
	t := e.regions.tab.Load()
	if t == nil {
		return
	}
	if lastKey-first >= uintptr(len(t.slots)) {
		for i := range t.slots {
			if r := t.slots[i].Load(); r != nil && first <= r.key && r.key <= lastKey {
				e.forgetIn(r, addr, last)
			}
		}
		return
	}
	for key := first; ; key++ {
		if r := e.regions.find(key); r != nil {
			e.forgetIn(r, addr, last)
		}
		if key == lastKey {
			return
		}
	}
}

// forgetIn drops the histories of [lo, hi] in region r.
func (e *hbEngine) forgetIn(r *hbRegion, lo, hi uintptr) {
	base := r.key << hbRegionShift
	lo = max(lo, base)
	hi = min(hi, base+(hbRegionCells*hbGrain-1))
	for w := lo &^ (hbGrain - 1); ; w += hbGrain {
		a, b := max(lo, w), min(hi, w+hbGrain-1) // the bytes of granule w in the range
		m := hbAllMask << (a - w) & (hbAllMask >> (w + hbGrain - 1 - b))
		e.forgetCell(r.cellOf(w), m)
		if w+hbGrain-1 >= hi {
			return
		}
	}
}

// forgetCell drops the histories of the addresses of mask m in c.
func (e *hbEngine) forgetCell(c *hbCell, m hbMask) {
	if c.ext.Load() == 0 && c.w.Load() == 0 && c.r.Load() == 0 {
		return // nothing there (and an untouched page of cells stays untouched)
	}
	gen := e.lockCell(c)
	if m == hbAllMask { // the whole granule: new memory there (a message's payload at a freed one's address)
		e.clearCell(c)
	} else if n := c.ext.Load(); n != 0 {
		w, r, ar, aw := e.exts.get(n).lists()
		e.store(c, forgetIn(w, m), forgetIn(r, m), forgetIn(ar, m), forgetIn(aw, m))
	} else {
		for _, h := range [2]*atomic.Uint64{&c.w, &c.r} {
			if v := h.Load(); markMask(v)&m != 0 {
				if v &^= uint64(m); markMask(v) == 0 {
					v = 0
				}
				h.Store(v)
			}
		}
	}
	e.unlock(c, gen)
}
