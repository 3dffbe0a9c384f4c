package rt

import "sync/atomic"

// A chunk holds the cells of chunkCells neighbouring addresses of one
// alignment class, contiguously, so the shadow table is keyed by chunk
// (several times fewer slots) and the cells of neighbouring elements share
// cache lines.
//
// Elements may be of any size and interleaved, so a chunk must give every
// distinct address a cell of its own: a 64-byte chunk indexed by word would
// give the eight bytes of a word one cell, and one indexed by byte would
// hold 64 cells, eight times too many for a program touching one word in
// each. Instead an address's class is its alignment, the number of its
// trailing zero bits up to 3 (a word, an odd multiple of 4, of 2, an odd
// address). The addresses of one class are evenly spaced (8, 8, 4 and 2
// bytes apart), so a chunk covers the sixteen consecutive addresses of one
// class that start at a multiple of sixteen times that spacing (128, 128, 64
// and 32 bytes), and an address's cell is its index in that run. The
// mapping is exact for every element size and mix of sizes, needs no
// probing inside a chunk, and fills every cell of a dense array of 1-, 2-,
// 4- or 8-byte elements (a []int32's even elements fill word chunks, its
// odd ones the chunks of odd multiples of 4). A program touching one
// address per chunk pays for sixteen cells, about 420 bytes per address.
//
// A chunk keeps its cells apart from what few accesses need: the cells
// hold only the wait-free protocol's three words (24 bytes, three per
// 8-byte word of a dense array, as the race detector's four 8-byte
// shadow slots), and the chunk's header holds its key, its mode, its
// uniform history u (while only whole-chunk range checks touched the
// chunk, u stands for every cell, uniform.go) and, in side, what few
// chunks need: the locked protocol's histories, or the wait-free atomic
// histories, created on the chunk's first atomic access. A check reads the
// header's line (hot, shared by the chunk's cells) and the cell's.
//
// The cells themselves are allocated when the chunk first splits
// (uniform.go): a chunk that only whole-chunk range checks ever touch (a
// row read or written whole by a coalesced loop) keeps its history in u
// and needs no cells. Such a chunk costs its 56-byte header (and its table
// slots) per 128 bytes of a []float64, where inline cells cost 432 bytes:
// the fully checked build of a kernel whose rows are checked whole (atax,
// gesummv) held three to five times plain's memory in cells it never
// used. A split chunk pays one more load (the cells' pointer, on the
// header's line) and 8 bytes.
type chunk struct {
	key   uintptr                   // chunkOf's key; set before the chunk is published, never changed
	mode  atomic.Uint32             // chunkUniform (u stands for every cell), chunkSplitting, chunkSplit (see uniform.go) or chunkLocked
	side  atomic.Pointer[chunkSide] // the locked protocol's histories, set before the chunk is published; under the wait-free one, the atomic histories, nil until the chunk's first atomic access
	u     cell                      // the whole-chunk accesses: only uniform.go's checks write it (see uniform.go)
	cells atomic.Pointer[cells]     // nil until the chunk first splits; set before its mode is chunkSplit
}

// cells are a split chunk's per-element histories.
type cells [chunkCells]cell

// cellsOf returns the cells of ch, which is split (chunkSplit): they were
// stored before the mode was.
func (ch *chunk) cellsOf() *cells { return ch.cells.Load() }

// chunkLocked is the mode of every chunk under the locked protocol: its
// cells are not used, its histories are side.hist.
const chunkLocked = 3

// chunkSide holds what few chunks need: the locked protocol's histories
// (hist) or the wait-free atomic histories of the cells (atom).
type chunkSide struct {
	hist *[chunkCells]history
	atom [chunkCells]atomic.Pointer[atomHist]
}

// hist returns the locked protocol's histories of a chunkLocked chunk.
func (ch *chunk) hist() *[chunkCells]history { return ch.side.Load().hist }

const (
	chunkBits  = 4
	chunkCells = 1 << chunkBits
)

// chunkOf returns the key of the chunk that holds addr's cell, unique across
// classes, and the cell's index in it.
func chunkOf(addr uintptr) (key uintptr, i int) {
	low := addr & 7 * 2
	class := classes >> low & 3
	shift := spacings >> low & 3
	return addr>>(shift+chunkBits)<<2 | class, int(addr>>shift) & (chunkCells - 1)
}

// classes and spacings give, two bits for each value of an address's low
// three bits, its class (trailing zeros, up to 3) and the log2 of the
// spacing of its class (1, 2, 3, 3), without counting bits.
const (
	classes  uintptr = 3 | 0<<2 | 1<<4 | 0<<6 | 2<<8 | 0<<10 | 1<<12 | 0<<14
	spacings uintptr = 3 | 1<<2 | 2<<4 | 1<<6 | 3<<8 | 1<<10 | 2<<12 | 1<<14
)

// chunkAddr returns the address whose cell is index i of the chunk key.
func chunkAddr(key uintptr, i int) uintptr {
	class := key & 3
	shift := min(class+1, 3)
	return key>>2<<(shift+chunkBits) | uintptr(i)<<shift | 1<<class&7
}

// atomOf returns the atomic history of cell i, nil if it has none.
func (ch *chunk) atomOf(i int) *atomHist {
	if sd := ch.side.Load(); sd != nil {
		return sd.atom[i].Load()
	}
	return nil
}

// atomic returns the atomic history of cell i, creating it on first use.
func (ch *chunk) atomic(i int) *atomHist {
	sd := ch.side.Load()
	if sd == nil {
		ch.side.CompareAndSwap(nil, new(chunkSide))
		sd = ch.side.Load()
	}
	at := &sd.atom
	if a := at[i].Load(); a != nil {
		return a
	}
	at[i].CompareAndSwap(nil, new(atomHist))
	return at[i].Load()
}

// at returns the chunk that holds addr's cell and the cell's index in it:
// the chunk of the last check when addr is in it (a run of neighbouring
// elements), else from the chunk cache or the table (see find). The chunk
// is nil when the table is full.
func (t *Task) at(addr uintptr) (*chunk, int) {
	key, i := chunkOf(addr)
	if ch := t.last; ch != nil && ch.key == key {
		return ch, i
	}
	return t.find(key), i
}

// chunkCache is a task's direct-mapped cache of the chunks it checked in
// lately, indexed by a hash of the chunk key: a kernel walking a few rows
// or arrays in turn (c[i][j] += a[i][k]*b[k][j]) leaves the last chunk on
// nearly every check, and finds the next one here with a multiply, a load
// and a compare instead of a probe of the shared table (its shard, table,
// slot and chunk loads, often cache misses). A slot is checked by the key
// of the chunk it holds, so a colliding entry is simply a miss. Entries
// are chunks of t.sh and are dropped with it (setCur). (A small fully
// associative set of the last eight chunks in front of it measured no
// better on bench/jacobi and bench/search.)
type chunkCache [chunkCacheSize]*chunk

const (
	chunkCacheBits = 4
	chunkCacheSize = 1 << chunkCacheBits
)

// find returns the chunk key, from the chunk cache or else the table,
// creating it on first touch (nil when the table is full), and makes it the
// task's last chunk.
func (t *Task) find(key uintptr) *chunk {
	slot := &t.seen[uint32(hashKey(key)>>32)>>(32-chunkCacheBits)]
	ch := *slot
	if ch == nil || ch.key != key {
		if ch = t.sh.chunk(key); ch == nil {
			return nil
		}
		*slot = ch
	}
	t.last = ch
	return ch
}
