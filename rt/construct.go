package rt

import (
	"sync"
	"sync/atomic"
)

// Construct is one dynamic instance of a parallel construct: a parallel
// loop, a list of sections or a worker pool, from Enter to Join. Its fork
// state is used by the parent goroutine only; what children touch is under mu.
type Construct struct {
	tree   *tree
	parent *Task      // the goroutine that entered and will join
	site   Site       // the construct's site, for reports
	up     *Construct // the construct whose child entered this one (nil: the root)

	root         bool       // Enter started a tree: the parent was attached to its root task
	depth        uintptr    // root: the stack depth of the Enter (0: unknown; see current_root.go)
	prevAttached *Task      // root: the task the parent was attached to before, restored at the join
	prevRoot     *Construct // root: the root construct that attached prevAttached, if any

	forks    int    // goroutines forked so far
	nextP    uint64 // next tag for the parent's next block
	endP     uint64 // last parent tag of the current chunk
	nextC    uint64 // next tag for a child
	chunk    uint64 // forks the current chunk has room for
	children []*Task
	slab     []Task   // the children's tasks when the fork count is known at Enter: one allocation
	first    ancestry // ancestors of the first child: those of every work item
	hasItems bool     // a worker called Item (set under mu)

	mu     sync.Mutex
	ranges []interval // every tag allocated in the construct's subtree
	merged int        // len(ranges) after the last merge
	index  []int      // fork number -> index given to Fork

	guard atomic.Uint32 // a specialized callback's guard: 0 unknown, 1 fails, 2 holds (guard_memo.go)
}

// enter is Enter: t is the entering task, nil for a new tree. fed (EnterFed)
// feeds the tree of a thread's construct whatever else runs (hb_feed.go).
func enter(t *Task, n int, site Site, fed bool) *Construct {
	if t == nil || t.hb != nil { // a thread's task starts a tree as nil does; the tree remembers the thread
		d := stackDepth()
		rep := defaultReporter()
		logTestEnv(rep) // testcache.go
		tr := newTree(rep)
		if t != nil {
			tr.hb = t.hb
			tr.hb.entered.Add(1) // until the root's outermost join: the blocks share the clock
			t.hbEnter()          // the blocks' accesses are unseen by the thread's sections (hb_wcp_lock.go)
			if fed || !tr.hb.eng.quiescent(tr.hb) {
				tr.feed.Store(tr.hb) // another thread may run beside the blocks (hb_feed.go)
			}
		}
		t = newRootTask(tr)
		c := t.enter(n, site)
		enterRoot(c, d)
		return c
	}
	return t.enter(n, site)
}

// enter begins a construct that will fork n goroutines (-1: unknown). The
// parent moves to the first of the reserved block tags P_0..P_m; the children
// get C_0..C_{m-1}, where m is n or a first guess.
func (t *Task) enter(n int, site Site) *Construct {
	tr := t.tree
	if t.con == nil && t.open == 0 {
		t.lo, t.hi, t.anc = 1, tr.start()-1, nil // the tags below the first free one are ancestors
	}
	t.open++
	tr.rep.stats.constructs.Add(1)
	m := uint64(4)
	if n >= 0 {
		m = uint64(n)
	}
	c := &Construct{tree: tr, parent: t, site: site, up: t.con, chunk: m}
	if n > 0 {
		c.children, c.index, c.slab = make([]*Task, 0, n), make([]int, 0, n), make([]Task, n)
	}
	b := tr.alloc(1+2*m,
		blockRange{lo: 0, hi: m, kind: parentBlocks, con: c},
		blockRange{lo: m + 1, hi: 2 * m, kind: childBlocks, con: c})
	c.ranges = []interval{{b, b + 2*m}}
	c.nextP, c.endP, c.nextC = b+1, b+m, b+m+1
	t.addAncestor(t.cur)
	t.setCur(b)
	return c
}

// parentTask is Construct.Task.
func (c *Construct) parentTask() *Task { return c.parent }

// fork starts the child for index (-1: the fork number). The child's
// ancestors are the parent's plus the parent's current block; the parent
// moves on to a block concurrent with the child.
func (c *Construct) fork(index int) *Task {
	t := c.parent
	if c.nextP > c.endP {
		c.grow()
	}
	t.addAncestor(t.cur)
	var child *Task
	if c.forks < len(c.slab) {
		child = &c.slab[c.forks]
	} else {
		child = new(Task)
	}
	child.tree, child.con, child.fork, child.anc, child.lo, child.hi = c.tree, c, c.forks, t.anc, t.lo, t.hi
	child.setCur(c.nextC)
	c.nextC++
	if c.forks == 0 {
		c.first = ancestry{t.anc, t.lo, t.hi}
	}
	if index < 0 {
		index = c.forks
	}
	c.mu.Lock()
	c.index = append(c.index, index)
	c.mu.Unlock()
	c.children = append(c.children, child)
	c.forks++
	t.setCur(c.nextP)
	c.nextP++
	return child
}

// grow takes a new chunk of parent and child tags, twice the last one.
func (c *Construct) grow() {
	m := max(4, 2*c.chunk)
	c.chunk = m
	b := c.tree.alloc(2*m,
		blockRange{lo: 0, hi: m - 1, kind: parentBlocks, con: c},
		blockRange{lo: m, hi: 2*m - 1, kind: childBlocks, con: c, fork: c.forks})
	c.addRanges([]interval{{b, b + 2*m - 1}})
	c.nextP, c.endP, c.nextC = b, b+m-1, b+m
}

// addRanges records tags allocated in c's subtree, coalescing the list
// whenever it doubles, so a child running many nested constructs keeps it
// short.
func (c *Construct) addRanges(rs []interval) {
	c.mu.Lock()
	c.ranges = append(c.ranges, rs...)
	if len(c.ranges) > 2*c.merged+8 {
		c.ranges = mergeIntervals(c.ranges)
		c.merged = len(c.ranges)
	}
	c.mu.Unlock()
}

// join moves the parent to a fresh block preceded by everything in the
// construct, and hands the construct's tag ranges to the enclosing one. When
// the root's outermost construct joins, the tree's shadow is dropped instead.
func (c *Construct) join() {
	t, tr := c.parent, c.tree
	for _, ch := range c.children {
		t.checks += ch.checks
	}
	c.children = nil
	t.open--
	if t.con == nil && t.open == 0 {
		tr.rep.stats.checks.Add(t.checks)
		t.checks = 0
		tr.finish()
		if tr.hb != nil {
			tr.hb.entered.Add(-1)
		}
		t.anc, t.lo, t.hi = nil, 1, 0
		t.setCur(tr.alloc(1, blockRange{kind: taskBlock, fork: -1}))
		if c.root {
			leaveRoot(c)
		}
		return
	}
	c.mu.Lock()
	rs := c.ranges
	c.mu.Unlock()
	kind, con := taskBlock, t.con
	if t.inItems {
		kind = itemBlocks
	} else if con == nil {
		con = c
	}
	tag := tr.alloc(1, blockRange{kind: kind, con: con, fork: t.fork})
	sub := mergeIntervals(rs, []interval{{tag, tag}})
	t.setAncestry(mergeIntervals(t.anc, []interval{{t.lo, t.hi}, {t.cur, t.cur}}, sub), tag)
	if t.con != nil {
		t.con.addRanges(sub)
	}
}

// item moves a worker to a new work item: a block whose ancestors are those
// of the construct's first child, concurrent with every other item and with
// the workers' own blocks. Tags come from per-worker chunks.
func (t *Task) item() {
	if t == nil || t.con == nil {
		return
	}
	c := t.con
	if !t.inItems {
		t.saved = ancestry{t.anc, t.lo, t.hi}
		t.savedCur = t.cur
		t.inItems = true
		t.wk = nil
		c.mu.Lock()
		c.hasItems = true
		c.mu.Unlock()
	}
	if t.itemNext == 0 || t.itemNext > t.itemEnd {
		m := min(max(4, 2*t.itemChunk), 1024)
		t.itemChunk = m
		b := t.tree.alloc(m, blockRange{lo: 0, hi: m - 1, kind: itemBlocks, con: c})
		c.addRanges([]interval{{b, b + m - 1}})
		t.itemNext, t.itemEnd = b, b+m-1
	}
	t.anc, t.lo, t.hi = c.first.anc, c.first.lo, c.first.hi
	t.setCur(t.itemNext)
	t.itemNext++
}

// endItems returns a worker to its own block.
func (t *Task) endItems() {
	if t == nil || !t.inItems {
		return
	}
	t.anc, t.lo, t.hi = t.saved.anc, t.saved.lo, t.saved.hi
	t.inItems = false
	if t.wk != nil {
		t.checks += t.wk.checks
		t.wk = nil
	}
	t.setCur(t.savedCur)
}

// worker returns the task of t's own block while t runs work items (t
// itself otherwise): a view with the ancestors and the tag the worker had
// when it took its first item, and the locks it holds now. The worker's
// block is concurrent with the other workers' blocks and with every item,
// its own included, and follows the worker's code before its items.
func (t *Task) worker() *Task {
	if t == nil || !t.inItems {
		return t
	}
	wk := t.wk
	if wk == nil {
		wk = &Task{tree: t.tree, con: t.con, fork: t.fork, anc: t.saved.anc, lo: t.saved.lo, hi: t.saved.hi}
		wk.setCur(t.savedCur)
		t.wk = wk
	}
	if wk.lsid != t.lsid {
		wk.lsid = t.lsid
		wk.base = wk.cur<<tagShift | uint64(wk.lsid)
		wk.bumpRecent()
	}
	return wk
}
