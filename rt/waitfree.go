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
func (t *Task) waitFreeRead(c *cell, addr uintptr, me uint64) {
	t.recordRead(&c.r, &c.c, me)
	if w := c.w.Load(); t.lc(w) {
		t.report(writeRead, addr, me, w)
	}
	if a := c.atom.Load(); a != nil {
		t.checkPair(&a.w, &a.cw, writeRead, addr, me)
	}
}

// waitFreeWrite checks a plain write.
func (t *Task) waitFreeWrite(c *cell, addr uintptr, me uint64) {
	if prev := c.w.Load(); prev != me {
		if prev = c.w.Swap(me); t.lc(prev) {
			t.report(writeWrite, addr, me, prev)
		}
	}
	t.checkPair(&c.r, &c.c, readWrite, addr, me)
	if a := c.atom.Load(); a != nil {
		t.checkPair(&a.w, &a.cw, writeWrite, addr, me)
		t.checkPair(&a.r, &a.cr, readWrite, addr, me)
	}
}

// waitFreeAtomic checks an atomic read or write: against the plain accesses
// as a read or write would be, and against the other atomic accesses, which
// report only with atomics=1.
func (t *Task) waitFreeAtomic(c *cell, addr uintptr, me uint64, write bool) {
	a := c.atomic()
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
func (t *Task) recordRead(r, c *atomic.Uint64, me uint64) {
	if prev := r.Load(); prev != me {
		if prev = r.Swap(me); t.lc(prev) {
			c.Store(prev)
		}
	}
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
