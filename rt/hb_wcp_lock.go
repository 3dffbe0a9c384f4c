package rt

import (
	"reflect"
	"sync"
	"unsafe"
)

// A mutex under the weak-causally-precedes rule (hb_wcp.go): the clocks of
// its releases, what its sections accessed (rule (a)) and its recent
// sections (rule (b), hb_wcp_log.go). Locks are keyed by address and never
// dropped, as objects' clocks are not (hb_sync.go): a freed mutex's address
// reused by a new one only adds orderings.

// hbLock is one mutex's state. Its fields are guarded by mu.
type hbLock struct {
	mu   sync.Mutex
	hard bool // every hand-off orders fully from now on (hb_wcp.go says when)

	hw vclock // H at the last Unlock (its own: joined into at every Unlock once hard)
	pw vclock // P at the last Unlock
	hr vclock // H of every RUnlock, joined
	pr vclock // P of every RUnlock, joined
	ow vclock // H of every release of an opaque write section, joined: every acquire takes it
	or vclock // H of every release of an opaque read section, joined: every Lock takes it

	wtab  map[uintptr]hbLockSnaps // per location, the last release whose write section wrote it (w) and read it (r)
	rtab  map[uintptr]*hbLockAcc  // per location, the releases of read sections that wrote or read it, joined (owned)
	log   hbLockLog
	snaps hbSnaps // the free snapshots of wtab's and log's (hb_wcp_snap.go)
}

// hbLockSnaps is the last write section's releases that wrote (w) and read
// (r) a location.
type hbLockSnaps struct{ w, r *hbSnap }

// hbLockAcc is what the releases of a lock's sections did to a location.
type hbLockAcc struct{ w, r vclock }

// hbTabMax bounds a lock's tables: a lock whose sections touched more
// locations orders fully from then on.
const hbTabMax = 1 << 14

// hbLockShard is one lock domain of the engine's locks.
type hbLockShard struct {
	mu sync.Mutex
	m  map[uintptr]*hbLock
	_  [40]byte
}

// lockOf returns the state of the mutex at mu, making it on first use.
func (e *hbEngine) lockOf(mu uintptr) *hbLock {
	sh := &e.locks[hashKey(mu)>>(64-hbShardBits)]
	sh.mu.Lock()
	l := sh.m[mu]
	if l == nil {
		if sh.m == nil {
			sh.m = map[uintptr]*hbLock{}
		}
		l = new(hbLock)
		sh.m[mu] = l
	}
	sh.mu.Unlock()
	return l
}

// lockOf returns the state of the mutex at mu through the thread's cache
// of the locks it took lately (the mutexes of one struct are often a few
// words apart, so every entry is looked at).
func (th *hbThread) lockOf(mu uintptr) *hbLock {
	for _, c := range th.wcp.locks {
		if c.addr == mu && c.l != nil {
			return c.l
		}
	}
	l := th.eng.lockOf(mu)
	th.wcp.locks[th.wcp.next%uint8(len(th.wcp.locks))] = hbLockRef{mu, l}
	th.wcp.next++
	return l
}

// markHard makes l order fully from now on: its tables and log go, and hw
// is joined into at every Unlock. Under l.mu.
func (l *hbLock) markHard() {
	if l.hard {
		return
	}
	l.hard = true
	l.pw, l.pr, l.ow, l.or = nil, nil, nil, nil
	l.wtab, l.rtab = nil, nil
	l.log = hbLockLog{}
	l.snaps = hbSnaps{}
}

// acquireLock is a Lock (read false) or an RLock that returned: the thread
// holds mu now and begins a section of it. It joins H of the releases
// into H, and their P into vc (fully, when mu is hard); the thread's epoch
// moves on first, so that no access of the section is taken for a repeat
// of one before it (rule (a) sees each location's first access in it).
func (th *hbThread) acquireLock(mu uintptr, read bool) {
	l := th.lockOf(mu)
	th.tick()
	h := th.hbFull()
	seq := hbNoSeq
	l.mu.Lock()
	h.join(l.hw)
	if !read {
		h.join(l.hr)
	}
	switch {
	case l.hard:
		th.joinP(l.hw)
		if !read {
			th.joinP(l.hr)
		}
	default:
		th.joinP(l.pw)
		th.joinP(l.ow)
		if !read {
			th.joinP(l.pr)
			th.joinP(l.or)
		}
		seq = l.log.add(th.id, th.vc[th.id], read)
		if seq == hbNoSeq { // sections left open beyond the log's bound
			l.markHard()
			th.joinP(l.hw)
			th.joinP(l.hr)
		}
	}
	hard := l.hard
	l.mu.Unlock()
	if !read || hard {
		th.dropHeld(mu) // a Lock of a mutex the thread holds: another thread released it (and a hard lock needs no section)
	}
	th.push(hbSection{l: l, addr: mu, read: read, opaque: hard, seq: seq})
	th.acquireG()
}

// push opens section s, reusing the buffer of a section closed before.
func (th *hbThread) push(s hbSection) {
	held := th.wcp.held
	if len(held) < cap(held) {
		held = held[:len(held)+1]
		s.acc = held[len(held)-1].acc[:0]
		held[len(held)-1] = s
	} else {
		held = append(held, s)
	}
	th.wcp.held = held
}

// dropHeld closes the thread's sections of mu without releasing them.
func (th *hbThread) dropHeld(mu uintptr) {
	for i := len(th.wcp.held) - 1; i >= 0; i-- {
		if th.wcp.held[i].addr == mu {
			th.closeHeld(i)
		}
	}
}

// closeHeld removes section i, keeping its access buffer for a later one.
func (th *hbThread) closeHeld(i int) {
	held := th.wcp.held
	last := len(held) - 1
	if i != last {
		s := held[i]
		copy(held[i:], held[i+1:])
		held[last] = s
	}
	held[last].l = nil
	held[last].acc = held[last].acc[:0]
	th.wcp.held = held[:last]
}

// releaseLock is an Unlock (read false) or an RUnlock about to happen: the
// thread's innermost section of mu of that kind ends. Rule (b) joins the
// earlier sections whose acquire the thread follows; the section's
// accesses go to the tables (rule (a)), or, for an opaque one, its H to
// what every later acquire takes; H and P are published; the thread ticks.
// A release of a lock the thread does not hold (another goroutine locked
// it) makes the lock hard.
func (th *hbThread) releaseLock(mu uintptr, read bool) {
	i := len(th.wcp.held) - 1
	for i >= 0 && (th.wcp.held[i].addr != mu || th.wcp.held[i].read != read) {
		i--
	}
	if i < 0 {
		th.releaseHard(th.lockOf(mu), read)
		th.escapedRelease(mu)
		return
	}
	s := &th.wcp.held[i]
	l := s.l
	rel := append(th.wcp.rel[:0], th.hclock()...) // the thread's buffer: the lock keeps copies
	l.mu.Lock()
	if !read {
		rel.join(l.hw) // a no-op but after a release of a section that overlapped this one, which a mutex does not let happen
	}
	th.wcp.rel = rel
	switch {
	case l.hard:
		l.releaseHard(rel, read)
	default:
		th.ruleB(&l.log, read)
		snap := l.snaps.take(rel)
		switch {
		case s.opaque && read:
			l.or.join(rel)
		case s.opaque:
			l.ow.join(rel)
		case !l.record(s.acc, snap, read):
			l.markHard()
			l.releaseHard(rel, read)
		}
		if l.hard {
			break
		}
		if read {
			l.hr.join(rel)
			th.joinPInto(&l.pr)
		} else {
			l.hw = append(l.hw[:0], rel...)
			th.joinPInto(&l.pw)
		}
		l.log.release(&l.snaps, s.seq, snap)
		l.snaps.let(snap) // its taker's hold: stored, or no one's
	}
	l.mu.Unlock()
	th.closeHeld(i)
	th.tick()
	th.escapedRelease(mu) // code that is not rewritten may take it next (escapeLock)
}

// releaseHard is the release of l, made hard first, by a thread that does
// not hold it.
func (th *hbThread) releaseHard(l *hbLock, read bool) {
	l.mu.Lock()
	l.markHard()
	l.releaseHard(th.hclock(), read)
	l.mu.Unlock()
	th.tick()
}

// releaseHard joins h, a release's H, into the clock every later acquire
// of l, which is hard, takes. Under l.mu.
func (l *hbLock) releaseHard(h vclock, read bool) {
	if read {
		l.hr.join(h)
	} else {
		l.hw.join(h)
	}
}

// record puts the accesses acc of a section released with H rel in l's
// tables. It returns false when the tables would grow past hbTabMax.
// Under l.mu.
func (l *hbLock) record(acc []hbSecAccess, rel *hbSnap, read bool) bool {
	if len(l.wtab)+len(l.rtab)+len(acc) > hbTabMax {
		return false
	}
	for _, a := range acc {
		if read {
			e := l.rtab[a.addr]
			if e == nil {
				if l.rtab == nil {
					l.rtab = map[uintptr]*hbLockAcc{}
				}
				e = new(hbLockAcc)
				l.rtab[a.addr] = e
			}
			if a.write {
				e.w.join(rel.vc)
			} else {
				e.r.join(rel.vc)
			}
			continue
		}
		if l.wtab == nil {
			l.wtab = map[uintptr]hbLockSnaps{}
		}
		e := l.wtab[a.addr]
		at := &e.r
		if a.write {
			at = &e.w
		}
		if *at != rel {
			l.snaps.let(*at)
			*at = hold(rel)
		}
		l.wtab[a.addr] = e
	}
	return true
}

// wcpAccess applies rule (a) to an access of addr by the thread, which
// holds a section: for each of its sections that is not opaque, the
// releases of earlier sections of the lock that made a conflicting access
// of addr are joined into vc (a read section looks at write sections
// only), and the access is recorded for the section's release. Called
// from the check of an access that is not a repeat in the epoch: the
// sections a thread holds change only at its ticks.
func (th *hbThread) wcpAccess(addr uintptr, write bool) {
	for i := range th.wcp.held {
		s := &th.wcp.held[i]
		if s.opaque {
			continue
		}
		l := s.l
		l.mu.Lock()
		switch {
		case l.hard:
			th.opaqueLocked(s)
		default:
			if e, ok := l.wtab[addr]; ok {
				th.joinP(e.w.clock())
				if write {
					th.joinP(e.r.clock())
				}
			}
			if e := l.rtab[addr]; e != nil && !s.read {
				th.joinP(e.w)
				if write {
					th.joinP(e.r)
				}
			}
			if len(s.acc) < hbSecMax {
				s.acc = append(s.acc, hbSecAccess{addr, write})
			} else {
				th.opaqueLocked(s)
			}
		}
		l.mu.Unlock()
	}
}

// wcpUnseen makes every open section of the thread opaque: it is about to
// run code whose accesses the checks do not see.
func (th *hbThread) wcpUnseen() {
	for i := range th.wcp.held {
		if s := &th.wcp.held[i]; !s.opaque {
			s.l.mu.Lock()
			th.opaqueLocked(s)
			s.l.mu.Unlock()
		}
	}
}

// opaqueLocked makes s opaque: from here on it follows every earlier
// release of its lock (a read section: every Unlock), and its own release
// will order every later acquire. Under s.l.mu.
func (th *hbThread) opaqueLocked(s *hbSection) {
	s.opaque = true
	s.acc = s.acc[:0]
	th.joinP(s.l.hw)
	if !s.read {
		th.joinP(s.l.hr)
	}
}

// lockHard is a lock (held now) or an unlock (about to be) of mu by a
// construct's block, acting on the clock of the thread that entered the
// construct: the block's accesses are checked structurally, unseen here,
// so mu orders fully from now on.
func (th *hbThread) lockHard(mu uintptr, lock bool) {
	l := th.lockOf(mu)
	l.mu.Lock()
	l.markHard()
	if lock {
		th.joinHard(l.hw)
		th.joinHard(l.hr)
	} else {
		l.releaseHard(th.hclock(), false)
	}
	l.mu.Unlock()
	if lock {
		th.acquireG()
	} else {
		th.tick()
	}
}

// condWait is the unlock and relock of mu that c.Wait makes: the section
// ends as at an Unlock, and the section after Wait returns is opaque and
// follows every release of mu fully, taken when the pending acquire of mu
// is (the relock comes after other goroutines' sections, which this hook,
// run before Wait, cannot see).
func (th *hbThread) condWait(mu uintptr) {
	th.releaseLock(mu, false)
	th.push(hbSection{l: th.lockOf(mu), addr: mu, opaque: true, seq: hbNoSeq})
	th.addPending(hbKey{mu, hbWriters})
	th.addPending(hbKey{mu, hbReaders})
}

// acquireRelock joins the clock kind (hbWriters: the Unlocks'; hbReaders:
// the RUnlocks') of the lock at mu into vc and H: the pending acquire of
// the relock a Cond's Wait makes. Under mu.
func (th *hbThread) acquireRelock(mu uintptr, kind uint8) {
	l := th.lockOf(mu)
	l.mu.Lock()
	if kind == hbWriters {
		th.joinHard(l.hw)
	} else {
		th.joinHard(l.hr)
	}
	l.mu.Unlock()
}

// hbLockUnseen is a lock or unlock of mu by a goroutine that is no thread,
// or by a construct's task with no thread, in a program whose
// happens-before layer runs: what its section does is unseen, so mu
// orders fully from now on.
func hbLockUnseen(mu uintptr) {
	if global.hb.generations.Load() {
		global.hb.lockUnseen(mu)
	}
}

// lockUnseen makes the lock at mu hard.
func (e *hbEngine) lockUnseen(mu uintptr) {
	l := e.lockOf(mu)
	l.mu.Lock()
	l.markHard()
	l.mu.Unlock()
}

// hbLocker is the synchronization of a lock (lock true: held now) or an
// unlock (about to happen) of l by t when t is a thread's task and l is no
// *sync.Mutex or *sync.RWMutex: an RWMutex's RLocker is a read section of
// it; any other Locker orders fully (its Lock may let two goroutines in,
// which the rule's sections may not). It returns false when t is no
// thread's task or l a mutex: Lock and Unlock do the rest.
func (t *Task) hbLocker(l sync.Locker, lock bool) bool {
	if t == nil || t.hb == nil {
		return false
	}
	switch l.(type) {
	case *sync.Mutex, *sync.RWMutex:
		return false
	}
	mu := lockID(l)
	th := t.hbOf()
	switch {
	case reflect.TypeOf(l) == hbRLocker && lock:
		th.rlockAcquired(mu)
	case reflect.TypeOf(l) == hbRLocker:
		th.runlocking(mu)
	default:
		th.lockHard(mu, lock)
	}
	th.mu.Unlock()
	return true
}

// hbRLocker is the type of what (*sync.RWMutex).RLocker returns, whose
// Lock and Unlock are RLock and RUnlock of the RWMutex it points to.
var hbRLocker = reflect.TypeOf(new(sync.RWMutex).RLocker())

// mutexAddr returns the address of the mutex p points to, when it is a
// *sync.Mutex or *sync.RWMutex.
func mutexAddr(p any) (uintptr, bool) {
	switch m := p.(type) {
	case *sync.Mutex:
		return uintptr(unsafe.Pointer(m)), m != nil
	case *sync.RWMutex:
		return uintptr(unsafe.Pointer(m)), m != nil
	}
	return 0, false
}

// hbEnter is t, a thread's task, entering a construct: the blocks'
// accesses are checked structurally, unseen by the thread's open sections,
// which become opaque.
func (t *Task) hbEnter() {
	th := t.hb
	if len(th.wcp.held) == 0 {
		return
	}
	th.mu.Lock()
	th.wcpUnseen()
	th.mu.Unlock()
}
