package rt

import (
	"sync"
	"sync/atomic"
)

// The happens-before shadow: per location (an element's address, as the
// structural checks key it) the FastTrack history of plain and atomic
// accesses. Plain writes to a location are totally ordered until the
// first race on it, so the last one is kept as one epoch; reads may be
// concurrent, so they are one epoch while each read follows the last and
// a clock of per-thread epochs once two are concurrent. Atomic accesses
// never race with each other, only with plain ones (as -race has it), so
// atomic reads and writes are two more read-like histories: an atomic
// write is checked against the plain write and reads, a plain read against
// the atomic writes, a plain write against all.
//
// A plain write that follows every read (plain or atomic) and every atomic
// write drops them: a later access that races with one of them races with
// that write too. The report of a conflict names both accesses' sites and
// threads.
//
// Locations live in chunks of 64 bytes, keyed by address>>6, so that fresh
// memory (New, Make) is forgotten a chunk at a time.

// hbVar is the history of one location (64 bytes): most locations are
// never accessed atomically, so the atomic histories are apart.
type hbVar struct {
	w     epoch // the last plain write (0: none)
	wSite Site
	r     hbHist  // plain reads
	at    *hbAtom // atomic accesses, from the first one on

	// Copies of w and of r's epoch (0 when r is a set), which the owner of
	// a thread's cache reads without the shard's mutex to skip a repeat
	// (hbThread.repeat); hbDead once the location is forgotten.
	fw, fr atomic.Uint64
}

// hbDead marks a forgotten location for the threads' caches: no epoch is
// all ones (that would be the clock 2^32-1 of thread 2^32-1).
const hbDead = ^uint64(0)

// hbAtom is the history of a location's atomic accesses.
type hbAtom struct {
	ar hbHist // atomic reads
	aw hbHist // atomic writes
}

// hbHist is a read-like history: one epoch (set nil), or the last access
// of each thread (set) once two concurrent ones were seen.
type hbHist struct {
	e    epoch
	site Site
	set  *hbSet
}

// hbSet is the last access of each thread of a read-like history.
type hbSet struct {
	c    vclock // thread -> clock of its last access (0: none)
	site []Site
}

// hbChunk holds the locations of 64 bytes of memory.
type hbChunk struct {
	words [8]*hbVar // the 8-byte-aligned addresses
	other []hbOther // others (bytes, 4-byte fields)
}

// hbOther is a location of a chunk at an address not 8-byte aligned.
type hbOther struct {
	addr uintptr
	v    *hbVar
}

// hbVarShard is one lock domain of the shadow. Its mutex also guards the
// histories of its locations.
type hbVarShard struct {
	mu   sync.Mutex
	m    map[uintptr]*hbChunk
	old  map[uintptr]*hbChunk // the previous collection's generation (hb_gen.go)
	gen  uint64               // the generation m is of
	slab []hbVar
}

const hbChunkShift = 6

// varShard returns the shard of the chunk key.
func (e *hbEngine) varShard(key uintptr) *hbVarShard {
	return &e.vars[hashKey(key)>>(64-hbShardBits)]
}

// location returns the history of addr in sh, its shard (whose mutex is
// held), creating it on first touch.
func (e *hbEngine) location(sh *hbVarShard, addr uintptr) *hbVar {
	e.age(sh)
	key := addr >> hbChunkShift
	ch := sh.m[key]
	if ch == nil {
		if sh.m == nil {
			sh.m = map[uintptr]*hbChunk{}
		}
		if ch = sh.old[key]; ch != nil { // touched again: it lives on
			delete(sh.old, key)
		} else {
			ch = new(hbChunk)
			e.chunks.Add(1)
		}
		sh.m[key] = ch
	}
	if addr&7 == 0 {
		p := &ch.words[addr>>3&7]
		if *p == nil {
			*p = sh.newVar()
		}
		return *p
	}
	for _, o := range ch.other {
		if o.addr == addr {
			return o.v
		}
	}
	v := sh.newVar()
	ch.other = append(ch.other, hbOther{addr, v})
	return v
}

// newVar takes an empty history from the shard's slab.
func (sh *hbVarShard) newVar() *hbVar {
	if len(sh.slab) == 0 {
		sh.slab = make([]hbVar, 64)
	}
	v := &sh.slab[0]
	sh.slab = sh.slab[1:]
	return v
}

// hbAcc is one access as a report names it.
type hbAcc struct {
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
	sh := e.varShard(addr >> hbChunkShift)
	sh.mu.Lock()
	v := e.location(sh, addr)
	now := th.epoch()
	th.remember(addr, v)
	if v.repeat(now, write, atomic) {
		sh.mu.Unlock()
		return
	}
	me := hbAcc{now, site, atomic}
	if th.npend.Load() != 0 && e.races(v, th.vc, addr, me, write, atomic, false) {
		sh.mu.Unlock()
		if !shared {
			th.mu.Lock()
		}
		th.takePending(false)
		if !shared {
			th.mu.Unlock()
		}
		sh.mu.Lock()
		v = e.location(sh, addr) // New may have dropped it meanwhile
	}
	e.races(v, th.vc, addr, me, write, atomic, true)
	v.record(th.vc, now, site, write, atomic)
	th.recorded = true
	th.remember(addr, v)
	sh.mu.Unlock()
}

// repeat reports whether v's last access of this sort by now's thread is
// in epoch now: the access needs no check (FastTrack's same-epoch case).
func (v *hbVar) repeat(now epoch, write, atomic bool) bool {
	switch {
	case !write && !atomic:
		return v.r.same(now)
	case !atomic:
		return v.w == now
	case v.at == nil:
		return false
	case !write:
		return v.at.ar.same(now)
	}
	return v.at.aw.same(now)
}

// races reports whether an access by a thread whose clock is vc
// conflicts with an access of v that does not happen before it, and,
// with report, reports each such pair.
func (e *hbEngine) races(v *hbVar, vc vclock, addr uintptr, me hbAcc, write, atomic, report bool) bool {
	at := v.at
	if at == nil {
		at = &hbNoAtom // read only
	}
	switch {
	case !write && !atomic:
		a := e.checkWrite(v, vc, writeRead, addr, me, report)
		return e.checkHist(&at.aw, vc, writeRead, addr, me, true, report) || a
	case !atomic:
		a := e.checkWrite(v, vc, writeWrite, addr, me, report)
		b := e.checkHist(&v.r, vc, readWrite, addr, me, false, report)
		c := e.checkHist(&at.ar, vc, readWrite, addr, me, true, report)
		return e.checkHist(&at.aw, vc, writeWrite, addr, me, true, report) || a || b || c
	case !write:
		return e.checkWrite(v, vc, writeRead, addr, me, report)
	}
	a := e.checkWrite(v, vc, writeWrite, addr, me, report)
	return e.checkHist(&v.r, vc, readWrite, addr, me, false, report) || a
}

// record adds the access to v. A plain write drops the read-like
// histories it follows: a later access that would race with one of them
// races with the write.
func (v *hbVar) record(vc vclock, now epoch, site Site, write, atomic bool) {
	switch {
	case !write && !atomic:
		v.r.record(vc, now, site)
		v.fr.Store(v.r.e) // 0 for a set
	case !atomic:
		if v.r.before(vc) {
			v.r.clear()
			v.fr.Store(0)
		}
		if at := v.at; at != nil {
			if at.ar.before(vc) {
				at.ar.clear()
			}
			if at.aw.before(vc) {
				at.aw.clear()
			}
		}
		v.w, v.wSite = now, site
		v.fw.Store(now)
	default:
		if v.at == nil {
			v.at = new(hbAtom)
		}
		if write {
			v.at.aw.record(vc, now, site)
		} else {
			v.at.ar.record(vc, now, site)
		}
	}
}

// hbNoAtom is the atomic history of a location that had no atomic access.
var hbNoAtom hbAtom

// checkWrite says whether the last plain write of v does not happen
// before vc, and reports it then if report.
func (e *hbEngine) checkWrite(v *hbVar, vc vclock, k kind, addr uintptr, me hbAcc, report bool) bool {
	if vc.before(v.w) {
		return false
	}
	if report {
		e.report(k, addr, me, hbAcc{v.w, v.wSite, false})
	}
	return true
}

// checkHist says whether an access of h does not happen before vc, and,
// with report, reports each. atomic says what h's accesses are.
func (e *hbEngine) checkHist(h *hbHist, vc vclock, k kind, addr uintptr, me hbAcc, atomic, report bool) bool {
	if h.set == nil {
		if vc.before(h.e) {
			return false
		}
		if report {
			e.report(k, addr, me, hbAcc{h.e, h.site, atomic})
		}
		return true
	}
	raced := false
	for u, c := range h.set.c {
		if c > vc.get(uint32(u)) {
			if !report {
				return true
			}
			e.report(k, addr, me, hbAcc{mkEpoch(uint32(u), c), h.set.site[u], atomic})
			raced = true
		}
	}
	return raced
}

// before reports whether every access of h happens before vc.
func (h *hbHist) before(vc vclock) bool {
	if h.set == nil {
		return vc.before(h.e)
	}
	for u, c := range h.set.c {
		if c > vc.get(uint32(u)) {
			return false
		}
	}
	return true
}

// report sends a conflict found by the clocks to the reporter, naming the
// goroutines that made the two accesses (hbSlots.owner).
func (e *hbEngine) report(k kind, addr uintptr, sink, source hbAcc) {
	a, b := e.slots.owner(sink.e), e.slots.owner(source.e)
	e.reporter().add(nil, rawReport{kind: k, class: dataRace, addr: addr,
		sink: hbWord(a.serial, sink.site, sink.atomic), source: hbWord(b.serial, source.site, source.atomic),
		hb: true, starts: [2]Site{a.site, b.site}})
}

// same reports whether h's last access by now's thread is now: a repeat
// in the same epoch, which needs no check.
func (h *hbHist) same(now epoch) bool {
	if h.set == nil {
		return h.e == now
	}
	return h.set.c.get(epochThread(now)) == epochClock(now)
}

// record adds the access now at site, by a thread whose clock is vc, to h.
func (h *hbHist) record(vc vclock, now epoch, site Site) {
	switch {
	case h.set != nil:
		h.set.put(now, site)
	case h.e == 0 || epochThread(h.e) == epochThread(now) || vc.before(h.e):
		h.e, h.site = now, site
	default:
		s := newSet(vc, h.e, now)
		s.put(h.e, h.site)
		s.put(now, site)
		h.e, h.site, h.set = 0, 0, s
	}
}

// newSet returns an empty set sized for the threads vc knows of and the
// two epochs a and b, so that put does not grow it one thread at a time
// (a byte read by 16 subscribers grew its two slices a dozen times).
func newSet(vc vclock, a, b epoch) *hbSet {
	n := max(len(vc), int(max(epochThread(a), epochThread(b)))+1)
	return &hbSet{c: make(vclock, n), site: make([]Site, n)}
}

// clear empties h.
func (h *hbHist) clear() { *h = hbHist{} }

// put records e's clock and site as its thread's last access.
func (s *hbSet) put(e epoch, site Site) {
	u := epochThread(e)
	s.c.set(u, epochClock(e))
	for len(s.site) <= int(u) {
		s.site = append(s.site, 0)
	}
	s.site[u] = site
}

// forget drops the histories of [addr, addr+size): the memory was just
// allocated, and what the shadow holds there is a freed object's (the
// collector reuses addresses), which would look concurrent with the new
// object's accesses. A range of more chunks than the shadow holds is
// forgotten by a pass over the shadow instead of a lookup per chunk (a
// large make in a program that checked little).
func (e *hbEngine) forget(addr, size uintptr) {
	if size == 0 {
		return
	}
	end := addr + size
	first, last := addr>>hbChunkShift, (end-1)>>hbChunkShift
	if n := last - first + 1; n > 64 && int64(n) > e.chunks.Load() {
		for i := range e.vars {
			sh := &e.vars[i]
			sh.mu.Lock()
			e.age(sh)
			for _, m := range [2]map[uintptr]*hbChunk{sh.m, sh.old} {
				for key, ch := range m {
					if first <= key && key <= last {
						e.forgetChunk(m, key, ch, addr, end)
					}
				}
			}
			sh.mu.Unlock()
		}
		return
	}
	for key := first; key <= last; key++ {
		sh := e.varShard(key)
		sh.mu.Lock()
		e.age(sh)
		for _, m := range [2]map[uintptr]*hbChunk{sh.m, sh.old} {
			if ch := m[key]; ch != nil {
				e.forgetChunk(m, key, ch, addr, end)
			}
		}
		sh.mu.Unlock()
	}
}

// forgetChunk drops the locations of ch, the chunk key of m (a map of a
// shard whose mutex is held), in [addr, end).
func (e *hbEngine) forgetChunk(m map[uintptr]*hbChunk, key uintptr, ch *hbChunk, addr, end uintptr) {
	lo, hi := key<<hbChunkShift, (key+1)<<hbChunkShift
	if addr <= lo && hi <= end {
		ch.forget(lo, hi)
		delete(m, key)
		e.chunks.Add(-1)
		return
	}
	ch.forget(max(addr, lo), min(end, hi))
}

// forget drops the locations of ch in [lo, hi).
func (ch *hbChunk) forget(lo, hi uintptr) {
	for a := (lo + 7) &^ 7; a < hi; a += 8 {
		if v := ch.words[a>>3&7]; v != nil {
			v.kill()
			ch.words[a>>3&7] = nil
		}
	}
	keep := ch.other[:0]
	for _, o := range ch.other {
		if o.addr < lo || o.addr >= hi {
			keep = append(keep, o)
		} else {
			o.v.kill()
		}
	}
	clear(ch.other[len(keep):])
	ch.other = keep
}

// kill marks v forgotten, for threads that still hold it in their caches.
func (v *hbVar) kill() {
	v.fw.Store(hbDead)
	v.fr.Store(hbDead)
}
