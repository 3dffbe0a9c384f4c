package rt

import "sync/atomic"

// Blocks seen by happens-before (issue 13). A construct's blocks check
// their accesses structurally among themselves, in their tree's shadow,
// which no thread's check reads; and a thread's accesses go to the
// happens-before shadow only. A race between a block and a goroutine
// outside the construct (started before it and still running, or
// started inside one of its blocks) was therefore seen by neither. A
// tree whose instance may run beside another thread is fed: each of its
// checks also goes to the happens-before engine, as an access of the
// thread that entered the construct, at that thread's epoch.
//
// That is sound because the tree's blocks already act on that thread's
// clock for every synchronization they do (hbOf): what a block releases
// carries the thread's entry as of the release, so an access recorded at
// the thread's epoch before it is ordered before whoever acquires it, and
// what a block acquires joins the thread's clock. Treating the blocks as
// one thread only adds order (accesses of concurrent blocks look ordered
// by one another's releases): a race missed, never a false one. Blocks
// never race with each other in the happens-before shadow (one thread);
// the structural checks report those, for every schedule.
//
// A tree is fed from its Enter when the thread is not alone (quiescent
// below), when the rewriter asks for it (EnterFed: the construct's blocks
// may start goroutines), and from the moment one of its blocks starts a
// thread (a go statement, a callback the runtime runs later), which the
// rewriter could not see coming.

// hbAsync counts the callbacks ever registered to run later on a thread
// of their own (time.AfterFunc, finalizers, cleanups): such a thread may
// begin while a construct runs, so while one may still come no instance
// is quiescent. Never decremented: a timer stopped before it fired is
// not told apart from one still pending.
func (e *hbEngine) noteAsync() { e.all.async.Add(1) }

// quiescent reports whether nothing but th can run beside a construct th
// enters now: no other thread is alive or forked and not started yet,
// none may still start on its own (noteAsync),
// and every access of the threads that ended happens before th's clock.
// Then the construct's blocks can race only with one another and with
// threads they start themselves, which feed the tree (feedOnSpawn).
// Called by th's goroutine; takes th.mu, then the registry's.
func (e *hbEngine) quiescent(th *hbThread) bool {
	a := &e.all
	if a.async.Load() != 0 || a.spawned.Load() != 0 {
		return false // a thread may begin while the construct runs
	}
	th.mu.Lock()
	defer th.mu.Unlock()
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, o := range a.live {
		if o != nil && o != th {
			return false
		}
	}
	for u, c := range a.lastAcc {
		if uint32(u) != th.id && c > th.vc.get(uint32(u)) {
			return false
		}
	}
	return true
}

// feedOnSpawn feeds the tree of t, a task of a construct tree a thread
// entered, from now on: one of its blocks starts a thread (hbGoAt,
// hbLaterOf). Accesses its blocks made before are not in the
// happens-before shadow, nor those the version that runs does not check
// (the rewriter runs a construct whose blocks may start goroutines fed
// from its Enter, fully checked: EnterFed).
func (t *Task) feedOnSpawn() {
	if t != nil && t.hb == nil && t.tree != nil && t.tree.hb != nil {
		t.tree.feed.CompareAndSwap(nil, t.tree.hb)
	}
}

// hbFeed is the happens-before half of a fed tree's check of addr, me
// being the structural shadow word (site and atomic bit): th's access.
// th's trees are open (entered), so access holds th.mu throughout.
func hbFeed(th *hbThread, addr uintptr, me uint64, write bool) {
	th.eng.access(th, addr, wordSite(me), write, me&atomicBit != 0)
}

// hbFeedRun is hbFeed for n elements of size elem from addr.
func hbFeedRun(th *hbThread, addr, n, elem uintptr, me uint64, write bool) {
	for k := uintptr(0); k < n; k++ {
		th.eng.access(th, addr+k*elem, wordSite(me), write, false)
	}
}

// feedOf returns the thread a tree's checks also go to, or nil.
func (tr *tree) feedOf() *hbThread { return tr.feed.Load() }

// treeFeed is a tree's feed pointer (a field of tree).
type treeFeed = atomic.Pointer[hbThread]
