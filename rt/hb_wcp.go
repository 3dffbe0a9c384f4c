package rt

// Lock hand-offs of the happens-before layer follow the weak-causally-
// precedes relation (WCP: Kini, Mathur and Viswanathan, "Dynamic Race
// Prediction in Linear Time", PLDI 2017), so that a race an unrelated mutex
// hides in this run's schedule is still found (DESIGN.md, "Siblings that
// synchronize"). An Unlock orders the next Lock's thread only through what
// the two critical sections did:
//
//	(a) the release of a section orders an access of a later section of
//	    the same lock that conflicts with an access of the first (same
//	    location, one a write; atomics included: a load reads what a store
//	    in the earlier section wrote);
//	(b) the release of a section orders the release of a later section of
//	    the same lock when the earlier one's acquire is already ordered
//	    before the later one's release (the two cannot overlap);
//	(c) the relation composes with happens-before on both sides.
//
// Two read sections of an RWMutex never conflict through it (they do not
// order each other under happens-before either). Every other
// synchronization (go, channels, WaitGroup, Once, Cond's signals, atomics,
// the global clock G) is a hard edge: an ordering in this relation, as
// RAPID (the paper's tool) treats fork and join.
//
// Clocks (the paper's Algorithm 1). A thread keeps three: the full
// happens-before clock H (wcp.h, which also takes the lock hand-offs; nil
// while no lock was acquired, and then it equals vc), the WCP predecessors
// P, and the check clock C = P with the thread's own entry replaced by its
// time. vc is C: the shadow compares with it unchanged, and P is vc but for
// its own entry, kept apart (wcp.pself). A hard edge carries H: the
// object's clock joins the releaser's H, and the acquirer joins it into vc
// and H (everything that happens before a send is ordered before the
// receive, by (c)). A lock keeps H and P of its releases; an acquire joins
// H into H and P into vc, and rule (a) and (b) join the H of earlier
// releases into vc (hb_wcp_lock.go, hb_wcp_log.go).
//
// A section whose accesses are not all seen cannot use rule (a): its
// conflicts are unknown. Such a section is opaque: at the point where it
// does something unseen (a call into code that is not rewritten: Foreign,
// Unseen; a construct whose blocks are checked structurally; more accesses
// than it records) it is ordered after every earlier release of its lock,
// and its own release orders every later acquire. The section a Cond's
// Wait resumes is opaque and follows every release fully. A lock that a
// goroutine which is no thread or a construct's block takes, that a thread
// releases without holding it, or whose sections overflow its tables is
// hard: it orders fully from then on, as under happens-before; so is any
// sync.Locker but a mutex and an RWMutex's RLocker. So a report is a race
// in this run's schedule or in one that reorders only lock hand-offs whose
// critical sections do not conflict.

// hbWCPThread is a thread's state for the rule: its H clock, its own P
// entry and its open critical sections.
type hbWCPThread struct {
	h     vclock       // H; nil while equal to vc (no lock acquired yet); its own entry is vc's, set by hclock
	pself uint32       // P's own entry: the last own event ordered before the thread's point by others
	held  []hbSection  // open critical sections, innermost last; the buffer and the sections' access lists are reused
	locks [4]hbLockRef // the last locks acquired: a Lock of one of them skips the engine's lookup
	next  uint8        // the entry of locks the next lookup replaces
	rel   vclock       // the buffer of H at a release, which the lock copies
}

// hbLockRef is a lock the thread acquired lately.
type hbLockRef struct {
	addr uintptr
	l    *hbLock
}

// hbSection is an open critical section of a thread.
type hbSection struct {
	l      *hbLock
	addr   uintptr
	read   bool
	opaque bool   // did something unseen: fully ordered with the lock's other sections
	seq    uint64 // its entry in l's log (hbNoSeq: none)
	acc    []hbSecAccess
}

// hbSecAccess is a location a section accessed, recorded for rule (a) at
// its release.
type hbSecAccess struct {
	addr  uintptr
	write bool
}

// hbSecMax is the number of accesses a section records; a section that
// makes more becomes opaque (its hand-offs order fully), which bounds the
// memory of a section that walks a large structure.
const hbSecMax = 4096

// hclock returns the thread's H clock, with its own entry up to date (vc
// when the thread has acquired no lock). Under mu, or by the thread's
// goroutine while no construct it entered is open.
func (th *hbThread) hclock() vclock {
	h := th.wcp.h
	if h == nil {
		return th.vc
	}
	h[th.id] = th.vc[th.id]
	return h
}

// joinHard joins c, the H clock of a hard release (an object's, G's), into
// vc and H: what happens before the release is ordered before the
// thread's point.
func (th *hbThread) joinHard(c vclock) {
	th.joinP(c)
	if th.wcp.h != nil {
		th.wcp.h.join(c)
	}
}

// joinP joins c into the thread's WCP predecessors (vc, and pself for its
// own entry): c is the H of releases that H already follows.
func (th *hbThread) joinP(c vclock) {
	th.vc.join(c)
	if x := c.get(th.id); x > th.wcp.pself {
		th.wcp.pself = x
	}
}

// hInP reports whether the thread's P (vc but for its own entry) holds
// its H: every lock hand-off joined into H alone is ordered by now.
func (th *hbThread) hInP() bool {
	for u, x := range th.wcp.h { // nil: H is vc
		if uint32(u) != th.id && x > th.vc.get(uint32(u)) {
			return false
		}
	}
	return true
}

// hbFull makes H apart from vc before the first lock hand-off joins into
// it alone, and returns it.
func (th *hbThread) hbFull() *vclock {
	if th.wcp.h == nil {
		th.wcp.h = th.vc.clone()
	}
	return &th.wcp.h
}

// joinPInto joins the thread's P into *dst.
func (th *hbThread) joinPInto(dst *vclock) {
	old := dst.get(th.id)
	dst.join(th.vc) // vc's own entry is the thread's time, not P's
	(*dst)[th.id] = max(old, th.wcp.pself)
}
