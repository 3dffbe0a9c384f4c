package rt

import "sync/atomic"

// The wait-free protocol (the paper's, with atomic swap as fetch_and_store).
// Per location: W, the last writer; R, the last reader; C, an earlier reader
// that a later read found concurrent with itself. Every report comes from an
// exact LC test against a recorded access, so no report is ever false.
// Deviations from the paper, each found by the oracle: C is never cleared
// (clearing it when R precedes the writer loses readers in Go's fork model,
// where the parent reads between forks; keeping it costs nothing since LC(C)
// is tested), and atomic accesses have histories of their own (atomHist).

// waitFreeRead checks a plain read.
func (t *Task) waitFreeRead(ch *chunk, i int, addr uintptr, me uint64) {
	c := &ch.cellsOf()[i]
	if !sameAccess(c.r.Load(), me) && !sameAccess(c.c.Load(), me) { // recordRead, by hand: two blocks reading in turn skip the call
		t.swapRead(&c.r, &c.c, me)
	}
	if w := c.w.Load(); w>>tagShift != 0 && t.lc(w) {
		t.report(writeRead, addr, me, w)
	}
	if ch.side.Load() != nil {
		t.readAtomics(ch, i, addr, me)
	}
}

// readAtomics checks a plain read against the atomic writes of cell i.
func (t *Task) readAtomics(ch *chunk, i int, addr uintptr, me uint64) {
	if a := ch.atomOf(i); a != nil {
		t.checkPair(&a.w, &a.cw, writeRead, addr, me)
	}
}

// waitFreeWrite checks a plain write.
func (t *Task) waitFreeWrite(ch *chunk, i int, addr uintptr, me uint64) {
	c := &ch.cellsOf()[i]
	if prev := c.w.Load(); !sameAccess(prev, me) {
		if prev = c.w.Swap(me); t.lc(prev) {
			t.report(writeWrite, addr, me, prev)
		}
	}
	t.checkPair(&c.r, &c.c, readWrite, addr, me)
	if a := ch.atomOf(i); a != nil {
		t.checkPair(&a.w, &a.cw, writeWrite, addr, me)
		t.checkPair(&a.r, &a.cr, readWrite, addr, me)
	}
}

// waitFreeAtomic checks an atomic read or write: against the plain accesses
// as a read or write would be, and against the other atomic accesses, which
// report only with atomics=1.
func (t *Task) waitFreeAtomic(ch *chunk, i int, addr uintptr, me uint64, write bool) {
	c := &ch.cellsOf()[i]
	a := ch.atomic(i)
	if !write {
		t.recordRead(&a.r, &a.cr, me)
		if w := c.w.Load(); t.lc(w) {
			t.report(writeRead, addr, me, w)
		}
		t.checkPair(&a.w, &a.cw, writeRead, addr, me)
		return
	}
	if prev := a.w.Load(); prev != me {
		if prev = a.w.Swap(me); t.lc(prev) {
			a.cw.Store(prev)
			t.report(writeWrite, addr, me, prev)
		}
	}
	if w := c.w.Load(); t.lc(w) {
		t.report(writeWrite, addr, me, w)
	}
	t.checkPair(&c.r, &c.c, readWrite, addr, me)
	t.checkPair(&a.r, &a.cr, readWrite, addr, me)
}

// recordRead makes me the last reader in r, keeping the previous one in c
// when it is concurrent with me.
//
// A read whose block is already the one in r or in c (same tag, lockset
// and atomic flag) records nothing: the protocol's state is then exactly
// what it would be in the same run without this read. Every conflict this
// read takes part in, the block's earlier read recorded there takes part
// in too (concurrency is a property of blocks), and that run is checked by
// the protocol as usual, so its guarantee (a report for every location
// with a conflict) holds; the test against W that the caller still makes
// only adds exact reports. Without it, two blocks reading one location in
// turn (a captured bound or slice header that every iteration reads) swap
// R and store C on every read, and the location's cache line moves
// between their processors each time: 2mm's fully checked build spent
// most of its time there.
func (t *Task) recordRead(r, c *atomic.Uint64, me uint64) {
	if (r.Load()^me)&^(siteMask<<siteShift) != 0 { // !sameAccess, spelled out to inline
		t.swapRead(r, c, me)
	}
}

// swapRead is recordRead's slow path, out of line so that the common case
// (the block read the location last) inlines.
//
//go:noinline
func (t *Task) swapRead(r, c *atomic.Uint64, me uint64) {
	if sameAccess(c.Load(), me) {
		return
	}
	if prev := r.Swap(me); t.lc(prev) {
		c.Store(prev)
	}
}

// sameAccess reports whether the shadow words a and b differ in their site
// only: the same block, lockset and atomic flag. A block that read (or
// wrote) a location at one site and reads (writes) it again at another
// leaves the first word in place, with no atomic swap: every later access
// concurrent with the one is concurrent with the other and conflicts with
// it in the same class, so only the site a report names as the previous
// access can differ, and it names a real access of that block. A
// stencil's five reads of each element (cur[i±1][j±1]) cost one swap, not
// five.
func sameAccess(a, b uint64) bool {
	return (a^b)&^(siteMask<<siteShift) == 0
}

// checkPair reports a conflict of me with the last access in last or,
// failing that, with the concurrent one kept in conc.
func (t *Task) checkPair(last, conc *atomic.Uint64, k kind, addr uintptr, me uint64) {
	if l := last.Load(); t.lc(l) && t.report(k, addr, me, l) {
		return
	}
	if cc := conc.Load(); t.lc(cc) {
		t.report(k, addr, me, cc)
	}
}
