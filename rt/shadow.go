package rt

import (
	"sync"
	"sync/atomic"
)

// A shadow table maps element addresses to cells holding their access
// history. Cells live in chunks of neighbouring addresses (see chunk); the
// table maps a chunk's key to the chunk. It is sharded by key hash; each
// shard is an open-addressing table of *chunk that readers probe with
// atomic loads and no lock. Inserts take the shard's mutex and add a whole
// chunk, its cells' addresses set before the atomic store publishes it;
// growth rehashes the same *chunk pointers into a larger table, so a reader
// still holding the old table updates the same cells. Chunks come from
// slabs, so checks on known addresses never allocate.
type shadow struct {
	tree   *tree
	locked bool         // cells carry the locked protocol's history
	limit  int64        // cells the table may hold (max_shadow), counted a chunk at a time
	cells  atomic.Int64 // cells it holds: chunkCells per chunk
	floor  uint64       // tags below floor are a finished tree's: every block precedes them (see recycle)
	shards [nShards]shard
}

const (
	nShards   = 64
	shardBits = 6
	// slabChunks is the largest slab: 116 chunks of 56 bytes (and the
	// allocation's 8-byte header) fill the 6,528-byte size class but 24
	// bytes, and where pointers have 4 bytes 135 chunks of 48 fill it but
	// 40 (TestChunkSlabFits); a shard's first slabs are smaller.
	slabChunks = 116 + 19*(8-ptrBytes)/4
	ptrBytes   = 4 << (^uintptr(0) >> 63)
	cellsSlab  = 17 // 17 chunks' cells of 384 bytes fill the 6,528-byte size class
	firstSize  = 8
)

// shard is one lock domain of a shadow table.
type shard struct {
	tbl      atomic.Pointer[table]
	mu       sync.Mutex
	n        int     // chunks in tbl
	slab     []chunk // free chunks
	slabN    int     // size of the last slab: small first, so a tree that touches few addresses (a short construct run over and over) allocates little
	cellSlab []cells // free cells, for chunks that split (cellsFor)
	_        [32]byte
}

// table is an open-addressing hash table of chunks; len(slots) is a power
// of two.
type table struct {
	mask  uint64
	slots []atomic.Pointer[chunk]
}

// cell is the wait-free access history of one element: last writer, last
// reader, a concurrent reader. Its address is its chunk's key and its index
// there; its atomic and locked histories are in the chunk's header.
type cell struct {
	w, r, c atomic.Uint64
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

// recycleCells bounds the tables kept for reuse, with half of the table's
// limit (max_shadow) when that is larger: a larger one is dropped, so
// memory stays bounded when each run touches fresh addresses, and a tree
// given a recycled table has at least half of its limit for addresses the
// earlier trees did not touch. A kernel running one construct per sweep
// over a few MB (bench/fem) keeps its table instead of building and
// dropping one per sweep (peak RSS 47 -> 21 MB, fully checked). With a
// quarter (until session 10), bench/jacobi's two grids, 1.2M cells, were
// just over: its fully checked build spent most of each sweep inserting
// chunks, growing tables and collecting the last sweep's (-sweeps 40: 2.3
// s user and 88 MB, now 0.9 s and 49 MB; -race 1.8 s and 47 MB).
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
	if s.cells.Load() > max(recycleCells, s.limit/2) {
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
				if ch := tb.slots[j].Load(); ch != nil {
					ch.reset()
				}
			}
		}
	}
	shadowPool.Put(s)
}

// hashKey is the hash of a chunk key; it spreads neighbouring chunks over
// the table.
func hashKey(key uintptr) uint64 { return uint64(key) * 0x9E3779B97F4A7C15 }

// cell returns the cell of addr, creating its chunk on first touch and
// splitting it; nil when the table is full.
func (s *shadow) cell(addr uintptr) *cell {
	key, i := chunkOf(addr)
	if ch := s.chunk(key); ch != nil {
		ch.split(s)
		return &ch.cellsOf()[i]
	}
	return nil
}

// cellsFor returns the cells of ch, a chunk of s, taking them from its
// shard's slab the first time (under the shard's mutex, as an insert: once
// per chunk).
func (s *shadow) cellsFor(ch *chunk) *cells {
	if cs := ch.cells.Load(); cs != nil {
		return cs
	}
	sh := &s.shards[hashKey(ch.key)>>(64-shardBits)]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if cs := ch.cells.Load(); cs != nil {
		return cs
	}
	if len(sh.cellSlab) == 0 {
		sh.cellSlab = make([]cells, cellsSlab)
	}
	cs := &sh.cellSlab[0]
	sh.cellSlab = sh.cellSlab[1:]
	ch.cells.Store(cs)
	return cs
}

// chunk returns the chunk key, creating it on first touch; nil when the
// table is full.
func (s *shadow) chunk(key uintptr) *chunk {
	h := hashKey(key)
	sh := &s.shards[h>>(64-shardBits)]
	if tb := sh.tbl.Load(); tb != nil {
		if ch := tb.find(key, h); ch != nil {
			return ch
		}
	}
	return s.insert(sh, key, h)
}

// find probes tb for the chunk key, h being its hash.
func (tb *table) find(key uintptr, h uint64) *chunk {
	for j := h >> 20; ; j++ {
		ch := tb.slots[j&tb.mask].Load()
		if ch == nil || ch.key == key {
			return ch
		}
	}
}

// insert adds the chunk key to sh unless another goroutine did first, and
// returns it.
func (s *shadow) insert(sh *shard, key uintptr, h uint64) *chunk {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	tb := sh.tbl.Load()
	if tb == nil {
		tb = newTable(firstSize)
		sh.tbl.Store(tb)
	} else if ch := tb.find(key, h); ch != nil {
		return ch
	}
	if s.cells.Add(chunkCells) > s.limit {
		s.cells.Add(-chunkCells)
		s.tree.rep.stats.untracked.Add(1)
		return nil
	}
	ch := sh.newChunk(key, s.locked)
	if 2*(sh.n+1) > len(tb.slots) {
		tb = tb.grow()
		sh.tbl.Store(tb)
	}
	tb.put(ch, h)
	sh.n++
	return ch
}

// newChunk takes a chunk from sh's slab and sets its key (and histories,
// under the locked protocol). The caller holds sh.mu.
func (sh *shard) newChunk(key uintptr, locked bool) *chunk {
	if len(sh.slab) == 0 {
		sh.slabN = min(max(2*sh.slabN, 1), slabChunks)
		sh.slab = make([]chunk, sh.slabN)
	}
	ch := &sh.slab[0]
	sh.slab = sh.slab[1:]
	ch.key = key
	if locked {
		ch.side.Store(&chunkSide{hist: new([chunkCells]history)})
		ch.mode.Store(chunkLocked)
	}
	return ch
}

// newTable returns an empty table of n slots (a power of two).
func newTable(n int) *table {
	return &table{mask: uint64(n - 1), slots: make([]atomic.Pointer[chunk], n)}
}

// put stores ch in the first free slot of its probe sequence. The caller
// holds the shard's mutex and ch is fully initialized: the atomic store
// publishes it to lock-free readers.
func (tb *table) put(ch *chunk, h uint64) {
	for i := h >> 20; ; i++ {
		if tb.slots[i&tb.mask].Load() == nil {
			tb.slots[i&tb.mask].Store(ch)
			return
		}
	}
}

// grow returns a table twice as large holding the same chunks.
func (tb *table) grow() *table {
	nt := newTable(2 * len(tb.slots))
	for i := range tb.slots {
		if ch := tb.slots[i].Load(); ch != nil {
			nt.put(ch, hashKey(ch.key))
		}
	}
	return nt
}
