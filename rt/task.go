package rt

import "unsafe"

// Task is the checking state of one goroutine of a construct tree: the tag
// of the block it runs now and the set of tags that precede that block. The
// rewriter threads it as a hidden parameter, so a check finds its block with
// no lookup. A Task belongs to one goroutine; its fields are never shared.
type Task struct {
	// Hot: read by every check.
	sh     *shadow    // the tree's shadow table; nil when checks do nothing
	base   uint64     // cur<<tagShift | lsid: the shadow word minus the site
	cur    uint64     // tag of the current block
	lo     uint64     // [lo, hi]: the most recent contiguous run of ancestors
	hi     uint64     // (empty when lo > hi)
	anc    []interval // the other ancestors: sorted, immutable, shared
	last   *chunk     // the chunk of the last check, in sh
	seen   chunkCache // chunks of sh this task checked in lately
	recent *recentSet // locations the current block checked (recent.go), or nil

	tree   *tree
	hb     *hbThread  // a thread's task (happens-before, hb_thread.go): sh and tree are nil
	con    *Construct // the construct that forked this task (nil: a root)
	fork   int        // fork number in con
	open   int        // constructs entered and not yet joined
	opaque int32      // calls into plain code under way (opaque.go): Current is nil
	checks uint64     // checks done, summed into the parent at join

	held   []uintptr // addresses of the locks held, in acquisition order
	lsid   uint32    // id of the set held
	oneMu  uintptr   // a cache for the common one-lock set:
	oneID  uint32    // lockset id of {oneMu}
	oneSet bool

	inItems   bool     // between the first Item and EndItems
	saved     ancestry // the worker's own block, restored by EndItems
	savedCur  uint64
	itemNext  uint64         // next free tag of the worker's item chunk
	itemEnd   uint64         // last tag of the chunk
	itemChunk uint64         // size of the last chunk
	wk        *Task          // the worker's own block while it runs items (see Worker), or nil
	drain     unsafe.Pointer // the pool channel whose receives in a callback are items (drain.go), or nil
}

// ancestry is a saved copy of a task's ancestor set.
type ancestry struct {
	anc    []interval
	lo, hi uint64
}

// newRootTask returns the task of a goroutine that starts a tree.
func newRootTask(tr *tree) *Task {
	t := &Task{tree: tr, lo: 1, fork: -1}
	t.setCur(tr.alloc(1, blockRange{kind: taskBlock, fork: -1}))
	return t
}

// setCur moves t to the block tag.
func (t *Task) setCur(tag uint64) {
	t.cur = tag
	t.base = tag<<tagShift | uint64(t.lsid)
	if sh := t.tree.shadowFor(tag); sh != t.sh {
		t.sh, t.last, t.seen = sh, nil, chunkCache{}
	}
	t.bumpRecent()
}

// sp reports whether the block tag sequentially precedes t's current block.
func (t *Task) sp(tag uint64) bool {
	return tag >= t.lo && tag <= t.hi || len(t.anc) > 0 && inIntervals(t.anc, tag)
}

// lc reports whether the access recorded in shadow word w is logically
// concurrent with t's current block. The common cases (no access, the same
// block, the contiguous run of ancestors) are decided inline.
func (t *Task) lc(w uint64) bool {
	tag := w >> tagShift
	if tag == 0 || tag == t.cur || tag >= t.lo && tag <= t.hi {
		return false
	}
	return len(t.anc) == 0 || !inIntervals(t.anc, tag)
}

// addAncestor adds tag x to t's ancestors, extending the contiguous run when
// x follows it and otherwise moving the run into anc (a new list).
func (t *Task) addAncestor(x uint64) {
	switch {
	case t.lo <= x && x <= t.hi:
		// already in the run
	case t.lo > t.hi:
		t.lo, t.hi = x, x
	case t.hi+1 == x:
		t.hi = x
	default:
		t.anc = mergeIntervals(t.anc, []interval{{t.lo, t.hi}})
		t.lo, t.hi = x, x
	}
}

// setAncestry makes list (sorted, disjoint, owned) t's ancestors and moves
// t to block tag. A last interval adjacent to tag becomes the contiguous run.
func (t *Task) setAncestry(list []interval, tag uint64) {
	t.lo, t.hi = 1, 0
	if k := len(list) - 1; k >= 0 && list[k].hi+1 == tag {
		t.lo, t.hi = list[k].lo, list[k].hi
		list = list[:k:k]
	}
	if len(list) == 0 {
		list = nil
	}
	t.anc = list
	t.setCur(tag)
}

// lock records that t holds the lock at mu.
func (t *Task) lock(mu uintptr) {
	if t == nil {
		hbLockUnseen(mu) // hb_wcp_lock.go
		return
	}
	if (t.hb != nil || t.tree.hb != nil) && t.hbLock(mu, true) { // hb_sync.go
		return
	}
	if t.tree.hb == nil {
		hbLockUnseen(mu)
	}
	t.held = append(t.held, mu)
	t.setLockset()
}

// unlock records that t no longer holds the lock at mu (its last
// acquisition, for read locks taken more than once).
func (t *Task) unlock(mu uintptr) {
	if t == nil {
		hbLockUnseen(mu)
		return
	}
	if (t.hb != nil || t.tree.hb != nil) && t.hbLock(mu, false) {
		return
	}
	if t.tree.hb == nil {
		hbLockUnseen(mu)
	}
	for i := len(t.held) - 1; i >= 0; i-- {
		if t.held[i] == mu {
			t.held = append(t.held[:i], t.held[i+1:]...)
			break
		}
	}
	t.setLockset()
}

// setLockset recomputes the id of the set of locks t holds.
func (t *Task) setLockset() {
	switch {
	case len(t.held) == 0:
		t.lsid = 0
	case len(t.held) == 1 && t.oneSet && t.oneMu == t.held[0]:
		t.lsid = t.oneID
	default:
		t.lsid = t.tree.internLockset(t.held)
		if len(t.held) == 1 {
			t.oneMu, t.oneID, t.oneSet = t.held[0], t.lsid, true
		}
	}
	t.base = t.cur<<tagShift | uint64(t.lsid)
	t.bumpRecent()
}
