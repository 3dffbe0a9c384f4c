package rt

import (
	"sort"
	"sync"
)

// Thread slots. A thread's number in the vector clocks is its slot. Had
// every thread a slot of its own, clocks would grow with every goroutine
// the program ever started: a loop that starts and joins 128k goroutines
// one after another copied a 128k-entry clock at each go statement (49.8 s
// under -hb against 0.36 s plain), and a goroutine pool's tests timed out.
// So a thread that ends gives its slot back, and a new thread may take
// it, continuing the slot's clock, when that is sound:
//
// A slot u that thread A held until it ended with clock f, whose last
// access recorded in the shadow was at u@a (every access of A is at u@c,
// c <= a), is taken by a new thread B whose parent's clock P already has
// P[u] >= a, and B starts at u@(f+1). Every access of A happens before
// P's current point, hence before B: the slot's history stays one chain
// in happens-before order, as if A had gone on as B. Only accesses are
// compared with clocks (an epoch in the shadow is an access's), so that
// P did not see A's releases after its last access (a goroutine's
// deferred wg.Done, a Cond's Signal) does not matter: B claims to follow
// them, and a thread that acquires from B claims the same, and both
// truly follow every access of A. Another thread Q orders an access of A
// as before (c <= Q[u]) exactly as it did before B existed, and none of
// B's accesses (clock f+1 on) until it acquires something B released,
// since no one had seen a clock past f on slot u. A read set that keeps
// slot u's last read keeps the later of A's and B's, as for one thread.
// What P[u] was at B's start is B's own P entry (wcp.pself): A's events up
// to it are WCP-before B by the hard edge of its start, and P keeps its own
// entry apart from vc's (hb_wcp.go); left at 0, B's lock releases carried
// less than B knew, which the oracle found as a false race once slots
// were recycled (below). B's last access is u@a until B makes one: the
// slot's history is A's and B's, and the next thread to take the slot
// must follow A's accesses too when B made none (taken as none, a parent
// that knew nothing of the slot covered it, and its child's clock past
// A's accesses ordered them: a race missed, the oracle's seed 104435).
// When no exited slot is covered so, the thread gets a new slot. So a
// goroutine joined by a WaitGroup, a channel, ExitJoined or G before the
// next go statement leaves its slot for the next goroutine, and so does
// a pool's worker whose end the pool observes (an atomic count), and a
// program that starts and joins goroutines one after another keeps
// clocks as long as the number of goroutines alive at once.
//
// Slots of goroutines nothing joined. A goroutine whose last access no
// later goroutine's parent follows (a pool's workers, released and left
// to end on their own) keeps its slot, and a program that keeps starting
// such goroutines grows its clocks, and with them every synchronization:
// ants/v2's tests, 1,000 workers per test and none of them reused by the
// next, ran 17, 30, 66, 127 and 401 s in turn (10 s each plain). Past
// hbRecycleAt such slots, a new thread takes one anyway, and its clock
// first joins the exited thread's final clock: as if the goroutine that
// ended had released to an object the new one acquires as it starts.
// That is the covered case above for a program with one synchronization
// more, so the engine runs a trace it is right for, whose order only
// contains more than the real one: a report stays a true race (the oracle
// test plays every trace so, TestHBRecycledSlotsNoFalseRace), and the
// races it may hide are those of the exited goroutine's accesses (and of
// what it had seen) with the new goroutine's lineage. The race detector
// too forgets goroutines that ended (a fixed number of slots, reset when
// they run out). Final clocks are kept for at most hbRecycleKeep exited
// slots at once, so that a program that ends many goroutines at once
// does not keep as many clocks as long.
//
// Reports name goroutines by a serial number of their own ("goroutine
// #4"), given in the order threads are made, not by slot: each slot keeps
// the list of the threads that held it and the clock each began at, and
// a report maps the epoch u@c of an access to the last thread that took
// slot u at a clock <= c (12 bytes per thread the program started).

// hbSlots hands out slots and remembers who held them.
type hbSlots struct {
	mu      sync.Mutex
	n       uint32      // slots given out: 1..n
	serials uint32      // threads made
	free    hbRing      // exited threads' slots, the latest first
	owners  [][]hbOwner // slot -> the threads that took it, in clock order

	kept       int // exited slots in free whose final clock is kept (hbFree.h)
	recycled   int // slots taken though the parent did not cover them
	recycleMax int // tests: recycleAt's bound (0: hbRecycleAt, -1: none)
}

// hbOwner is a thread that took a slot: from its first clock on, the
// slot's epochs are its.
type hbOwner struct {
	from   uint32   // the slot's clock when the thread took it
	serial uint32   // the thread's number in reports
	site   Site     // the go statement that started it (0: a root, or Go without a site)
	stack  *hbStack // the stack that go statement ran in (hb_depot.go; nil: unknown)
}

// hbFree is the slot of an exited thread: the clock of its last access,
// its final clock, and its final H clock, or nil when not kept.
type hbFree struct {
	slot, last, final uint32
	h                 vclock
}

const (
	// hbReuseTries bounds the exited slots a new thread looks at: the
	// latest first (a goroutine joined just before the next go statement),
	// those not covered are put at the back, so that uncovered slots (of
	// goroutines nothing joined) do not make each go statement slower.
	hbReuseTries = 8
	// hbSlotLimit: a slot whose clock passed it is not reused, so that a
	// slot's clock, which continues over its threads, never wraps at 2^32.
	hbSlotLimit = 1 << 31
	// hbMaxSlot is the largest slot: a history entry keeps 16 bits of it.
	hbMaxSlot = 1<<16 - 1
	// hbRecycleAt is how many exited slots that no new thread's parent
	// covers are kept before a new thread takes one all the same (see
	// "Slots of goroutines nothing joined" above), hbRecycleKeep how many
	// of them keep their final clock for it.
	hbRecycleAt   = 256
	hbRecycleKeep = 1024
)

// take gives a new thread, whose clock *vc is its parent's (or G, for a
// root), a slot and a serial number, and sets its own entry of *vc: an
// exited thread's slot whose last access *vc covers, continued after its
// final clock, or a new slot at clock 1. site is where the thread was
// started. prior is what *vc knew of the slot before (0 for a new one):
// the exited thread's events up to it are ordered before the new thread
// by a hard edge, which the new thread's P keeps as its own entry
// (hbThread.wcp.pself), since its vc's own entry is its time. last is
// the slot's last access (0 for a new one), the new thread's own until it
// makes one (hbThread.lastAcc).
func (s *hbSlots) take(vc *vclock, site Site, stack *hbStack) (slot, prior, last uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	slot, final, last := s.reuse(vc)
	if slot == 0 {
		if s.n == hbMaxSlot {
			// a cell's mark holds 16 bits of slot (hb_cell.go), eight times
			// the race detector's limit of 8128 goroutines alive at once
			// (and each go statement copies a clock of 65535 entries)
			panic("goanomaly: limit on 65535 simultaneously alive goroutines under -hb is exceeded")
		}
		s.n++
		slot = s.n
		s.owners = append(s.owners, nil) // owners[slot-1]
	}
	prior = vc.get(slot)
	vc.set(slot, final+1)
	s.serials++
	s.owners[slot-1] = append(s.owners[slot-1], hbOwner{from: (*vc)[slot], serial: s.serials, site: site, stack: stack})
	return slot, prior, last
}

// reuse returns an exited slot whose last access *vc covers, taken out
// of the free list, its final clock and that last access; slot 0 if there
// is none. Past recycleAt exited slots, one whose final clock was kept is
// taken all the same, that clock joined into *vc. Under mu.
func (s *hbSlots) reuse(vc *vclock) (slot, final, last uint32) {
	for range min(hbReuseTries, s.free.n) {
		f := s.free.popFront()
		if vc.get(f.slot) >= f.last {
			s.forget(f)
			return f.slot, f.final, f.last
		}
		s.free.pushBack(f)
	}
	if s.free.n <= s.recycleAt() {
		return 0, 0, 0
	}
	// too many goroutines ended unobserved: the new thread follows one
	for range min(hbReuseTries, s.free.n) {
		f := s.free.popFront()
		if f.h != nil {
			vc.join(f.h)
			s.forget(f)
			s.recycled++
			return f.slot, f.final, f.last
		}
		s.free.pushBack(f)
	}
	return 0, 0, 0
}

// forget counts f, taken out of free, out of the kept clocks. Under mu.
func (s *hbSlots) forget(f hbFree) {
	if f.h != nil {
		s.kept--
	}
}

// recycleAt returns how many exited slots no new thread's parent covers
// are kept before one is taken all the same (hbRecycleAt, or what a test
// set; -1: from the first).
func (s *hbSlots) recycleAt() int {
	if s.recycleMax != 0 {
		return s.recycleMax
	}
	return hbRecycleAt
}

// retire gives back slot, whose thread made its last access at clock
// last and ended at clock final with H clock h (the thread's own, which
// retire copies while fewer than hbRecycleKeep are kept).
func (s *hbSlots) retire(slot, last, final uint32, h vclock) {
	if final >= hbSlotLimit {
		return
	}
	s.mu.Lock()
	f := hbFree{slot: slot, last: last, final: final}
	if s.kept < hbRecycleKeep {
		f.h = h.clone()
		s.kept++
	}
	s.free.pushFront(f)
	s.mu.Unlock()
}

// owner returns the thread that made the access at epoch e.
func (s *hbSlots) owner(e epoch) hbOwner {
	u, c := epochThread(e), epochClock(e)
	s.mu.Lock()
	defer s.mu.Unlock()
	if u == 0 || u > s.n {
		return hbOwner{}
	}
	log := s.owners[u-1]
	i := sort.Search(len(log), func(i int) bool { return log[i].from > c }) // the first that took it after c
	if i == 0 {
		return hbOwner{}
	}
	return log[i-1]
}

// hbRing is a double-ended queue of exited slots.
type hbRing struct {
	buf     []hbFree
	head, n int
}

// pushFront adds x before the others.
func (r *hbRing) pushFront(x hbFree) {
	r.fit()
	r.head = (r.head - 1 + len(r.buf)) % len(r.buf)
	r.buf[r.head] = x
	r.n++
}

// pushBack adds x after the others.
func (r *hbRing) pushBack(x hbFree) {
	r.fit()
	r.buf[(r.head+r.n)%len(r.buf)] = x
	r.n++
}

// popFront removes and returns the first; r is not empty.
func (r *hbRing) popFront() hbFree {
	x := r.buf[r.head]
	r.head = (r.head + 1) % len(r.buf)
	r.n--
	return x
}

// fit makes room for one more.
func (r *hbRing) fit() {
	if r.n < len(r.buf) {
		return
	}
	b := make([]hbFree, max(8, 2*len(r.buf)))
	for i := range r.n {
		b[i] = r.buf[(r.head+i)%len(r.buf)]
	}
	r.buf, r.head = b, 0
}
