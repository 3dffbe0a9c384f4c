package rt

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// A tree is everything that descends from one root goroutine's constructs.
// Tags are unique within a tree only; conflicts are looked for only between
// blocks of one tree, in the tree's own shadow table, which is dropped when
// the root's outermost construct joins.
type tree struct {
	rep  *reporter
	sh   atomic.Pointer[shadow] // nil while the root has no open construct
	hb   *hbThread              // the thread whose task entered the root construct (-hb), or nil
	feed treeFeed               // hb, when the tree's checks also go to the happens-before engine (hb_feed.go)

	mu        sync.Mutex
	next      uint64       // next free tag
	blocks    []blockRange // every allocated tag range, sorted by lo
	exhausted bool         // tags passed maxTag: later blocks go unchecked

	instance     uint64 // sample=P: the root instance this tree is (dormant.go), 0 otherwise
	instanceSite Site   // and its root construct

	lsMu   sync.Mutex
	lsIDs  map[string]uint32
	lsSets atomic.Pointer[[][]uintptr] // lockset id -> sorted lock addresses; copied on write
}

// blockKind says what the blocks of a tag range are, for reports.
type blockKind uint8

const (
	parentBlocks blockKind = iota // the parent's blocks inside a construct
	childBlocks                   // one per forked goroutine, by fork number
	itemBlocks                    // work items of a worker pool
	taskBlock                     // a task's block after a nested join
)

// blockRange records what the tags lo..hi are.
type blockRange struct {
	lo, hi uint64
	kind   blockKind
	con    *Construct // the construct the blocks belong to (nil: the root)
	fork   int        // childBlocks: fork number of lo; taskBlock: the task's fork number
}

// newTree returns an empty tree reporting to rep. Its lockset tables start
// shared and empty (copied on the first lock, internLockset), and its block
// list with room for a construct's two ranges: a tree per root construct
// instance (conc's ForEach, a sweep's loop) allocates little.
func newTree(rep *reporter) *tree {
	tr := &tree{rep: rep, next: 1, blocks: make([]blockRange, 0, 4)}
	tr.lsSets.Store(&noLocksets)
	return tr
}

// noLocksets is the lockset table of a tree that took no lock: id 0, the
// empty set. Never written: internLockset copies it.
var noLocksets = [][]uintptr{nil}

// alloc reserves n consecutive tags and records rs (whose lo and hi are
// offsets from the first reserved tag) for reports. It returns the first tag.
func (tr *tree) alloc(n uint64, rs ...blockRange) uint64 {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	b := tr.next
	tr.next += n
	for _, r := range rs {
		if r.lo > r.hi {
			continue
		}
		r.lo += b
		r.hi += b
		tr.blocks = append(tr.blocks, r)
	}
	if tr.next-1 > maxTag && !tr.exhausted {
		tr.exhausted = true
		tr.rep.stats.exhausted.Add(1)
	}
	tr.rep.stats.blocks.Add(n)
	return b
}

// shadowFor returns the shadow table that a block with tag checks in: nil
// when the tree has none or the tag does not fit in a shadow word.
func (tr *tree) shadowFor(tag uint64) *shadow {
	if tag > maxTag {
		return nil
	}
	return tr.sh.Load()
}

// start gives the tree a fresh shadow table (the root enters its outermost
// construct).
// It returns the first free tag: every tag below it (the root's block, and
// those of earlier trees whose words a recycled table still holds) precedes
// everything in the new tree.
func (tr *tree) start() uint64 {
	sh := newShadow(tr)
	tr.mu.Lock()
	tr.next = max(tr.next, sh.floor) // a recycled table's old words carry tags below floor
	next := tr.next
	tr.mu.Unlock()
	tr.sh.Store(sh)
	tr.rep.stats.trees.Add(1)
	return next
}

// firstFree is the tree's next free tag.
func (tr *tree) firstFree() uint64 {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.next
}

// finish drops the shadow table and the tag records after the root's
// outermost construct joined: every block of the tree precedes what follows.
func (tr *tree) finish() {
	if sh := tr.sh.Swap(nil); sh != nil {
		sh.recycle(tr.firstFree())
	}
	tr.mu.Lock()
	tr.next = 1
	tr.blocks = nil
	tr.exhausted = false
	tr.mu.Unlock()
}

// block returns the record of the range holding tag, if any.
func (tr *tree) block(tag uint64) (blockRange, bool) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	i, found := slices.BinarySearchFunc(tr.blocks, tag, func(r blockRange, t uint64) int {
		switch {
		case r.hi < t:
			return -1
		case r.lo > t:
			return 1
		}
		return 0
	})
	if !found {
		return blockRange{}, false
	}
	return tr.blocks[i], true
}

// internLockset returns the id of the set of locks held (in any order, with
// repeats for reentrant read locks).
func (tr *tree) internLockset(held []uintptr) uint32 {
	if len(held) == 0 {
		return 0
	}
	var buf [8]uintptr
	set := append(buf[:0], held...)
	slices.Sort(set)
	set = slices.Compact(set)
	key := unsafe.String((*byte)(unsafe.Pointer(&set[0])), len(set)*int(unsafe.Sizeof(set[0])))
	tr.lsMu.Lock()
	defer tr.lsMu.Unlock()
	if id, ok := tr.lsIDs[key]; ok {
		return id
	}
	sets := *tr.lsSets.Load()
	if len(sets) >= lsOverflow {
		return lsOverflow
	}
	id := uint32(len(sets))
	if tr.lsIDs == nil {
		tr.lsIDs = map[string]uint32{}
	}
	tr.lsIDs[strings.Clone(key)] = id
	sets = append(slices.Clip(sets), slices.Clone(set))
	tr.lsSets.Store(&sets)
	return id
}

// commonLock reports whether the locksets a and b share a lock. A set past
// the table's capacity is unknown and counts as sharing none, so the
// conflict is classified as a DATA RACE.
func (tr *tree) commonLock(a, b uint32) bool {
	if a == 0 || b == 0 || a == lsOverflow || b == lsOverflow {
		return false
	}
	if a == b {
		return true
	}
	sets := *tr.lsSets.Load()
	x, y := sets[a], sets[b]
	for len(x) > 0 && len(y) > 0 {
		switch {
		case x[0] == y[0]:
			return true
		case x[0] < y[0]:
			x = x[1:]
		default:
			y = y[1:]
		}
	}
	return false
}
