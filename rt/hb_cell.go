package rt

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// The happens-before shadow's cells. A location is an address, as the
// structural checks key it (an element, a field, a map's runtime
// pointer); accesses of different addresses never conflict, also inside
// one granule (two goroutines writing a[0] and a[1] of a []byte do not
// race). The shadow keeps one cell per aligned 16-byte granule (two
// words), and every history entry carries a mask of the granule's
// addresses it is the history of (bit k: the address granule+k). So a
// []byte that one goroutine fills in one epoch at one site is one entry
// per granule (its mask grows), not one history per byte, and a reader's
// sweep over it is one entry per granule and reader. A cell per 8-byte
// word was twice the memory: the cells were four times the memory the
// program checked, where they are now twice (bench/unstructured/cache and
// pipeline: most of -hb's memory), and a []float64's two elements of a
// granule are one lock of its cell.
//
// An entry is an epoch, a mask and a site: the access of those addresses
// by that thread at that clock, at that site. A cell keeps the last plain
// write and the plain reads, and, from its first atomic access on, the
// atomic reads and writes (hb_ext.go). Entries of one history have
// disjoint masks for writes (the last write of each address); reads keep,
// for each address, every read that does not happen before a later read
// of it (FastTrack's read set, per address). Two entries merge only when
// epoch and site are equal, so that every address keeps its exact
// accesses and a report names exactly the two that conflict.
//
// The cell itself holds the common case inline, without pointers (32
// bytes): at most one write entry and one read entry, no atomic access.
// Anything else (concurrent reads, a granule whose addresses were written in
// different epochs, atomics) moves the cell's histories to an extension,
// and back when they fit again.

// hbGrain is the bytes a cell is the shadow of, hbGrainShift its log.
const (
	hbGrainShift = 4
	hbGrain      = 1 << hbGrainShift
)

// hbMask is a set of a granule's addresses: bit k, the address granule+k.
type hbMask = uint16

// hbAllMask is every address of a granule.
const hbAllMask = hbMask(1<<hbGrain - 1)

// hbMark is a history entry's epoch and mask: epoch<<16 | mask. Thread
// slots stay under 2^16 (hbMaxSlot), so the epoch's 48 bits hold it.
type hbMark = uint64

// mkMark returns the mark of epoch e and mask m.
func mkMark(e epoch, m hbMask) hbMark { return e<<hbGrain | uint64(m) }

// markEpoch returns the epoch of h.
func markEpoch(h hbMark) epoch { return h >> hbGrain }

// markMask returns the mask of h.
func markMask(h hbMark) hbMask { return hbMask(h) }

// grainOf returns the granule of addr and addr's bit in it.
func grainOf(addr uintptr) (uintptr, hbMask) {
	return addr &^ (hbGrain - 1), 1 << (addr & (hbGrain - 1))
}

// hbEnt is a history entry: 12 bytes, four-byte aligned, as extension
// records pack them (hb_ext.go).
type hbEnt struct {
	lo, hi uint32 // the mark
	site   Site
}

// ent returns the entry of mark h at site s.
func ent(h hbMark, s Site) hbEnt { return hbEnt{uint32(h), uint32(h >> 32), s} }

// mark returns x's mark.
func (x hbEnt) mark() hbMark { return uint64(x.hi)<<32 | uint64(x.lo) }

// hbCell is the shadow of one granule (32 bytes, no pointers: cells
// live outside the Go heap where the platform allows, hb_region.go).
type hbCell struct {
	// The inline histories; 0 when empty or when the extension holds the
	// cell's histories. Threads read them without the lock to find a
	// repeat in the same epoch (hbThread.repeat): only the thread whose
	// epoch a mark holds can have written it.
	w, r         atomic.Uint64
	wSite, rSite Site
	ext          atomic.Uint32 // 1 + the index of the cell's extension (hb_ext.go), 0: none; read without the lock only to skip an empty cell
	state        atomic.Uint32 // the shadow generation the cell was last touched in (hb_gen.go)
}

// hbCellLocks is the number of mutexes that guard the cells (by their
// address): a cell has no lock of its own, as a mutex parks a waiting
// goroutine where a spinning one (a lock bit in the cell) kept yielding
// while the holder was descheduled (bench/unstructured/cache: 8 clients
// on a map's cell, 25% more wall time).
const (
	hbCellLockBits = 8
	hbCellLocks    = 1 << hbCellLockBits
)

// hbCellLock is one of the mutexes, alone in its cache line, with the
// pool of extensions its cells gave back (hb_ext.go), made at its first
// use.
type hbCellLock struct {
	sync.Mutex
	pool *hbExtPool
	_    [64 - unsafe.Sizeof(sync.Mutex{}) - unsafe.Sizeof((*hbExtPool)(nil))]byte
}

// stripe returns the lock that guards c.
func (e *hbEngine) stripe(c *hbCell) *hbCellLock {
	return &e.cellLocks[uint64(uintptr(unsafe.Pointer(c))>>5)*0x9E3779B97F4A7C15>>(64-hbCellLockBits)]
}

// cellMutex returns the mutex that guards c.
func (e *hbEngine) cellMutex(c *hbCell) *sync.Mutex { return &e.stripe(c).Mutex }

// pool returns the pool of c's stripe. Under c's lock.
func (e *hbEngine) pool(c *hbCell) *hbExtPool {
	s := e.stripe(c)
	if s.pool == nil {
		s.pool = new(hbExtPool)
	}
	return s.pool
}

// lock locks c and returns the generation it was last touched in.
func (e *hbEngine) lock(c *hbCell) uint32 {
	e.cellMutex(c).Lock()
	return c.state.Load()
}

// unlock unlocks c, touched in generation gen. The generation is stored
// only when it changed (an atomic store is a full barrier on amd64, and
// most checks are in the generation the cell was last touched in).
func (e *hbEngine) unlock(c *hbCell, gen uint32) {
	if c.state.Load() != gen {
		c.state.Store(gen)
	}
	e.cellMutex(c).Unlock()
}

// empty reports whether c holds no history. Under c's lock.
func (c *hbCell) empty() bool { return c.ext.Load() == 0 && c.w.Load() == 0 && c.r.Load() == 0 }

// hbOne is a history of at most one entry: the inline ones as a list.
type hbOne [1]hbEnt

// list returns the inline history h at site s as a list.
func (o *hbOne) list(h hbMark, s Site) []hbEnt {
	if h == 0 {
		return o[:0]
	}
	o[0] = ent(h, s)
	return o[:1]
}

// hbAcc is one access: its epoch, site, mask (the bit of its address in
// the granule) and sort.
type hbAcc struct {
	e             epoch
	site          Site
	bit           hbMask
	write, atomic bool
}

// mark returns the access's mark.
func (a *hbAcc) mark() hbMark { return mkMark(a.e, a.bit) }

// epochMask returns the addresses the entries of l of epoch e hold.
func epochMask(l []hbEnt, e epoch) hbMask {
	var m hbMask
	for _, x := range l {
		if h := x.mark(); markEpoch(h) == e {
			m |= markMask(h)
		}
	}
	return m
}

// addRead records read-like access a (a plain or atomic read, an atomic
// write) by a thread whose clock is vc in l, and returns l: an entry of
// a's address that happens before a no longer holds it (a later access
// that races with it races with a), and a joins the entry of its epoch
// and site or is added.
func addRead(l []hbEnt, vc vclock, a *hbAcc) []hbEnt { return addEntry(l, vc, a, false) }

// writeInto records plain write a in l, the writes: it is the last write
// of its address, whatever the entry before it was (a write that did not
// happen before it was just reported).
func writeInto(l []hbEnt, a *hbAcc) []hbEnt { return addEntry(l, nil, a, true) }

// addEntry adds a to l, merged into the entry of its epoch and site if l
// has one, and takes a's addresses out of the other entries: out of every
// one (every), or out of those that happen before vc.
func addEntry(l []hbEnt, vc vclock, a *hbAcc, every bool) []hbEnt {
	merged := false
	out := l[:0]
	for _, x := range l {
		h := x.mark()
		switch {
		case markEpoch(h) == a.e && x.site == a.site:
			h |= uint64(a.bit)
			merged = true
		case markMask(h)&a.bit != 0 && (every || vc.before(markEpoch(h))):
			if h &^= uint64(a.bit); markMask(h) == 0 {
				continue
			}
		}
		out = append(out, ent(h, x.site))
	}
	if !merged {
		out = append(out, ent(a.mark(), a.site))
	}
	return out
}

// dropBefore removes from l, a read-like history, the address of write a
// from every entry that happens before a: a later access that would race
// with one races with a.
func dropBefore(l []hbEnt, vc vclock, a *hbAcc) []hbEnt {
	out := l[:0]
	for _, x := range l {
		h := x.mark()
		if markMask(h)&a.bit != 0 && vc.before(markEpoch(h)) {
			if h &^= uint64(a.bit); markMask(h) == 0 {
				continue
			}
		}
		out = append(out, ent(h, x.site))
	}
	return out
}

// forgetIn removes the addresses of mask m from every entry of l.
func forgetIn(l []hbEnt, m hbMask) []hbEnt {
	out := l[:0]
	for _, x := range l {
		if h := x.mark() &^ uint64(m); markMask(h) != 0 {
			out = append(out, ent(h, x.site))
		}
	}
	return out
}
