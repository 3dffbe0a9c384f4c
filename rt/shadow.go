package rt

import (
	"sync"
	"sync/atomic"
)

// A shadow table maps element addresses to cells holding their access
// history. It is sharded by address hash; each shard is an open-addressing
// table of *cell that readers probe with atomic loads and no lock. Inserts
// take the shard's mutex; growth rehashes the same *cell pointers into a
// larger table, so a reader still holding the old table updates the same
// cells. Cells come from slabs, so checks on known addresses never allocate.
type shadow struct {
	tree   *tree
	locked bool         // cells carry the locked protocol's history
	limit  int64        // cells the table may hold
	cells  atomic.Int64 // cells it holds
	floor  uint64       // tags below floor are a finished tree's: every block precedes them (see recycle)
	shards [nShards]shard
}

const (
	nShards   = 64
	shardBits = 6
	slabCells = 128 // the largest slab; a shard's first slabs are smaller
	firstSlab = 4
	firstSize = 8
)

// shard is one lock domain of a shadow table.
type shard struct {
	tbl   atomic.Pointer[table]
	mu    sync.Mutex
	n     int    // cells in tbl
	slab  []cell // free cells
	slabN int    // size of the last slab: small first, so a tree that touches few addresses (a short construct run over and over) allocates little
	_     [32]byte
}

// table is an open-addressing hash table; len(slots) is a power of two.
type table struct {
	mask  uint64
	slots []atomic.Pointer[cell]
}

// cell is the access history of one element.
type cell struct {
	w, r, c atomic.Uint64 // wait-free protocol: last writer, last reader, a concurrent reader
	addr    uintptr
	hist    *history                 // locked protocol
	atom    atomic.Pointer[atomHist] // wait-free protocol: atomic accesses, from the first one on
}

// atomHist is the wait-free history of a location's atomic accesses, kept
// apart from the plain ones: without atomics=1 atomic writes do not conflict
// with each other, so, like reads, they need a last one (w) and a concurrent
// one (cw), or a plain access would miss the atomic write a later atomic
// write replaced.
type atomHist struct {
	w, cw atomic.Uint64 // last atomic write, a concurrent earlier one
	r, cr atomic.Uint64 // last atomic read, a concurrent earlier one
}

// atomic returns c's atomic history, creating it on first use.
func (c *cell) atomic() *atomHist {
	if a := c.atom.Load(); a != nil {
		return a
	}
	c.atom.CompareAndSwap(nil, new(atomHist))
	return c.atom.Load()
}

// newShadow returns an empty table for tr: a recycled one when a finished
// tree left one, so a short construct run over and over (one tree each
// time) finds its addresses' cells already in place instead of inserting
// and allocating them again.
func newShadow(tr *tree) *shadow {
	cfg := &tr.rep.cfg
	if s, ok := shadowPool.Get().(*shadow); ok && s.locked == cfg.locked {
		s.tree, s.limit = tr, cfg.maxCells
		return s
	}
	return emptyShadow(tr)
}

// emptyShadow returns a table with no cells, never a recycled one.
func emptyShadow(tr *tree) *shadow {
	cfg := &tr.rep.cfg
	return &shadow{tree: tr, locked: cfg.locked, limit: cfg.maxCells}
}

// shadowPool holds the tables of finished trees, emptied (see recycle).
var shadowPool sync.Pool

// recycleCells bounds the tables kept for reuse: a larger one is dropped,
// so memory stays bounded when each run touches fresh addresses.
const recycleCells = 1 << 18

// recycle offers the table for reuse. Its tree has finished: every
// goroutine that checked in it was joined, so every access recorded in it
// precedes whatever the next tree does. Under the wait-free protocol the
// cells keep their words: the next tree numbers its blocks from next (the
// tree's next free tag) on and counts every tag below as an ancestor of all
// its blocks, so an old word is never concurrent and is simply overwritten
// (no pass over the cells; a tree touching few of many cells pays nothing
// for the others). The locked protocol's histories, and a table whose tags
// are running out, are cleared cell by cell instead.
func (s *shadow) recycle(next uint64) {
	if s.cells.Load() > recycleCells {
		return
	}
	s.tree = nil
	if !s.locked && next <= maxTag/2 {
		s.floor = next
		shadowPool.Put(s)
		return
	}
	s.floor = 1
	for i := range s.shards {
		if tb := s.shards[i].tbl.Load(); tb != nil {
			for j := range tb.slots {
				if c := tb.slots[j].Load(); c != nil {
					c.forget()
				}
			}
		}
	}
	shadowPool.Put(s)
}

// hashAddr spreads addresses of neighbouring elements over the table.
func hashAddr(addr uintptr) uint64 { return uint64(addr) * 0x9E3779B97F4A7C15 }

// cell returns the cell of addr, creating it on first touch; nil when the
// table is full.
func (s *shadow) cell(addr uintptr) *cell {
	h := hashAddr(addr)
	sh := &s.shards[h>>(64-shardBits)]
	if tb := sh.tbl.Load(); tb != nil {
		if c := tb.find(addr, h); c != nil {
			return c
		}
	}
	return s.insert(sh, addr, h)
}

// find probes tb for addr.
func (tb *table) find(addr uintptr, h uint64) *cell {
	for i := h >> 20; ; i++ {
		c := tb.slots[i&tb.mask].Load()
		if c == nil || c.addr == addr {
			return c
		}
	}
}

// insert adds a cell for addr to sh unless another goroutine did first.
func (s *shadow) insert(sh *shard, addr uintptr, h uint64) *cell {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	tb := sh.tbl.Load()
	if tb == nil {
		tb = newTable(firstSize)
		sh.tbl.Store(tb)
	} else if c := tb.find(addr, h); c != nil {
		return c
	}
	if s.cells.Add(1) > s.limit {
		s.cells.Add(-1)
		s.tree.rep.stats.untracked.Add(1)
		return nil
	}
	if len(sh.slab) == 0 {
		sh.slabN = min(max(2*sh.slabN, firstSlab), slabCells)
		sh.slab = make([]cell, sh.slabN)
	}
	c := &sh.slab[0]
	sh.slab = sh.slab[1:]
	c.addr = addr
	if s.locked {
		c.hist = new(history)
	}
	if 2*(sh.n+1) > len(tb.slots) {
		tb = tb.grow()
		sh.tbl.Store(tb)
	}
	tb.put(c, h)
	sh.n++
	return c
}

// newTable returns an empty table of n slots (a power of two).
func newTable(n int) *table {
	return &table{mask: uint64(n - 1), slots: make([]atomic.Pointer[cell], n)}
}

// put stores c in the first free slot of its probe sequence. The caller
// holds the shard's mutex and c is fully initialized: the atomic store
// publishes it to lock-free readers.
func (tb *table) put(c *cell, h uint64) {
	for i := h >> 20; ; i++ {
		if tb.slots[i&tb.mask].Load() == nil {
			tb.slots[i&tb.mask].Store(c)
			return
		}
	}
}

// grow returns a table twice as large holding the same cells.
func (tb *table) grow() *table {
	nt := newTable(2 * len(tb.slots))
	for i := range tb.slots {
		if c := tb.slots[i].Load(); c != nil {
			nt.put(c, hashAddr(c.addr))
		}
	}
	return nt
}
