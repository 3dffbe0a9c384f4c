package rt

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Extensions of the happens-before shadow's cells: the histories of a
// cell that do not fit inline (hb_cell.go) — concurrent reads, writes of
// the word's addresses in different epochs or at different sites, atomic
// accesses. A cell names its extension by index in the engine's table
// (cells hold no pointers); the entry points to a record, outside the Go
// heap where cells are: the lengths of the four lists, then their entries
// (12 bytes each). Records come in size classes and are reused.
//
// In the Go heap, the read sets of a pub/sub's messages (every subscriber
// reads every word of a message) were most of the heap, so the heap goal
// grew with them, collections came rarer, freed messages' addresses were
// reused later, and their extensions lived longer: 1.2 GB for 480,000
// 32-byte messages. Outside it, collections come at the program's pace.
//
// The table is blocks of entries found from a snapshot of the block list
// without a lock. Free indexes and records are kept per stripe of the
// cells' locks (hbExtPool, in the stripe's hbCellLock): every change of
// a cell's extension is made under its stripe's mutex, which therefore
// guards the pool too. One mutex for the whole table was pubsub's
// bottleneck (every message word's extension was made, grown and given
// back under it, by 16 subscribers at once: 10% of its time in the
// mutex's slow path). A stripe hands out what its own cells gave back;
// the stripes are a hash of the cell's address, so they fill evenly.

// hbExt is a cell's extension.
type hbExt struct {
	rec   unsafe.Pointer         // the record: [4]uint32 lengths of w, ar, aw and r, then their entries in that order
	class uint8                  // the record holds hbRecCap(class) entries
	cell  atomic.Pointer[hbCell] // the cell whose extension it is or was last (read by the sweep without the cell's lock)
}

const (
	hbExtShift   = 10
	hbExtBlock   = 1 << hbExtShift
	hbRecHead    = 16 // the lengths
	hbRecClasses = 24
)

// hbReadSetClass is the least class of a record that holds concurrent
// reads (8 entries): a message that five subscribers read made its
// words' records and grew each once, copying it, at the fourth reader.
const hbReadSetClass = 2

// hbRecCap returns how many entries a record of class k holds.
func hbRecCap(k uint8) int { return 2 << k }

// hbRecSize returns the size of a record of class k.
func hbRecSize(k uint8) uintptr { return hbRecHead + uintptr(hbRecCap(k))*unsafe.Sizeof(hbEnt{}) }

// hbExtBlk is a block of the table.
type hbExtBlk [hbExtBlock]hbExt

// hbExts is the table of a shadow's extensions.
type hbExts struct {
	blocks atomic.Pointer[[]*hbExtBlk] // grown under mu; a snapshot stays valid
	mu     sync.Mutex
	keep   []unsafe.Pointer // blocks and records from the Go heap (no shadow memory was left), under mu
	n      atomic.Uint32    // indexes given out
}

// hbExtPool is what a stripe's cells gave back: extension indexes and
// records by class. Under the stripe's mutex.
type hbExtPool struct {
	live int64 // extensions of the stripe's cells (liveExts); one counter for every thread was a contended line
	free []uint32
	recs [hbRecClasses][]unsafe.Pointer
	net  int64 // record bytes handed out minus given back, not yet counted in the engine's pace
}

// get returns extension n (1 + its index). Under the lock of the cell
// that holds it.
func (t *hbExts) get(n uint32) *hbExt {
	i := n - 1
	return &(*t.blocks.Load())[i>>hbExtShift][i&(hbExtBlock-1)]
}

// lists returns x's lists, in its record: w, ar and aw with no room to
// grow, r (the last in the record) with room to its end, so that a read
// set changes in place (hbEngine.record).
func (x *hbExt) lists() (w, r, ar, aw []hbEnt) {
	w, r = x.plain()
	ar, aw = x.atomics()
	return w, r, ar, aw
}

// plain returns x's plain writes and reads, as lists does. (Two lists
// are six words, returned in registers: the four of lists, returned on
// the stack in a struct, were stored word by word and copied back in
// 16-byte loads, which stalled.)
func (x *hbExt) plain() (w, r []hbEnt) {
	if x.rec == nil {
		return nil, nil
	}
	n := (*[4]uint32)(x.rec)
	all := x.entries()
	c := n[0] + n[1] + n[2]
	return all[:n[0]:n[0]], all[c : c+n[3]]
}

// atomics returns x's atomic reads and writes, as lists does.
func (x *hbExt) atomics() (ar, aw []hbEnt) {
	if x.rec == nil {
		return nil, nil
	}
	n := (*[4]uint32)(x.rec)
	all := x.entries()
	a, b, c := n[0], n[0]+n[1], n[0]+n[1]+n[2]
	return all[a:b:b], all[b:c:c]
}

// hasAtomicWrites reports whether x's record holds atomic writes.
func (x *hbExt) hasAtomicWrites() bool { return x.rec != nil && (*[4]uint32)(x.rec)[2] != 0 }

// entries returns every entry slot of x's record.
func (x *hbExt) entries() []hbEnt {
	return unsafe.Slice((*hbEnt)(unsafe.Add(x.rec, hbRecHead)), hbRecCap(x.class))
}

// setReads makes r, the read list lists returned, changed in place by a
// check that had room for one more entry (hbEngine.record), x's read
// list: only its length changed.
func (x *hbExt) setReads(r []hbEnt) { (*[4]uint32)(x.rec)[3] = uint32(len(r)) }

// alloc returns a new extension of cell c, with no record yet, and its
// number (1 + its index). Under c's lock; p is its stripe's pool.
func (t *hbExts) alloc(e *hbEngine, p *hbExtPool, c *hbCell) (*hbExt, uint32) {
	var i uint32
	if n := len(p.free); n > 0 {
		i = p.free[n-1]
		p.free = p.free[:n-1]
	} else {
		i = t.n.Add(1) - 1
		if b := t.blocks.Load(); b == nil || int(i>>hbExtShift) >= len(*b) {
			t.grow(e, i)
		}
	}
	x := t.get(i + 1)
	x.rec, x.class = nil, 0
	if x.cell.Load() != c { // often the cell that gave it back (its word's address was reused)
		x.cell.Store(c)
	}
	p.live++
	return x, i + 1
}

// grow adds blocks to the table until it holds index i. The blocks are
// e's shadow memory, outside the Go heap: they hold pointers only to
// records and cells, which are there too (or kept by the table's keep
// and the regions), and the collector, which the pace runs often
// (hb_pace.go), scanned every block at every cycle when they were in it.
func (t *hbExts) grow(e *hbEngine, i uint32) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for {
		b := t.blocks.Load()
		if b != nil && int(i>>hbExtShift) < len(*b) {
			return
		}
		var nb []*hbExtBlk
		if b != nil {
			nb = append(nb, *b...)
		}
		var blk *hbExtBlk
		if hbMemOffHeap {
			blk = (*hbExtBlk)(e.mem.alloc(e, unsafe.Sizeof(hbExtBlk{})))
		}
		if blk == nil { // Go memory, which the collector scans: where the shadow's is not outside the heap, or none was left
			blk = new(hbExtBlk)
			t.keep = append(t.keep, unsafe.Pointer(blk))
		}
		nb = append(nb, blk)
		t.blocks.Store(&nb)
	}
}

// store makes w, r, ar and aw x's lists, moving them to a larger record
// if they do not fit in x's. They are copies, x's own lists shortened in
// place (moved down in the record's order), or, when they move to a
// larger record, x's own lists. Under the lock of x's cell; p is its
// stripe's pool.
func (t *hbExts) store(e *hbEngine, p *hbExtPool, x *hbExt, w, r, ar, aw []hbEnt) {
	total := len(w) + len(r) + len(ar) + len(aw)
	old, oldClass := unsafe.Pointer(nil), x.class
	if x.rec == nil || total > hbRecCap(x.class) {
		k := uint8(0)
		if len(r) > 1 {
			k = hbReadSetClass // concurrent readers: room for a few more at once
		}
		for hbRecCap(k) < total {
			k++
		}
		old = x.rec
		x.rec, x.class = p.record(e, k), k
	}
	n := (*[4]uint32)(x.rec)
	all := x.entries()
	at := 0
	for i, l := range [4][]hbEnt{w, ar, aw, r} { // in the record's order
		copy(all[at:], l)
		n[i] = uint32(len(l))
		at += len(l)
	}
	if old != nil { // given back only now: the lists may be in it
		p.recs[oldClass] = append(p.recs[oldClass], old)
		p.count(e, -int64(hbRecSize(oldClass)))
	}
}

// count adds d to the record bytes p's cells hold (negative: given
// back), told to the engine's pace in batches: one counter for every
// thread was a contended line. Records taken and given back between two
// collections (a rewritten buffer's read sets, given back at each write)
// cancel out: the pace asks for collections when the records in use
// grow, not when they are reused.
func (p *hbExtPool) count(e *hbEngine, d int64) {
	if p.net += d; p.net >= hbPaceBatch || p.net <= -hbPaceBatch {
		e.pace.took(e, p.net)
		p.net = 0
	}
}

// record returns a record of class k: one p holds, else new.
func (p *hbExtPool) record(e *hbEngine, k uint8) unsafe.Pointer {
	p.count(e, int64(hbRecSize(k)))
	if n := len(p.recs[k]); n > 0 {
		r := p.recs[k][n-1]
		p.recs[k] = p.recs[k][:n-1]
		return r
	}
	e.made.records.Add(uint64(hbRecSize(k)))
	if r := e.mem.alloc(e, hbRecSize(k)); r != nil {
		return r
	}
	r := unsafe.Pointer(unsafe.SliceData(make([]uint64, (hbRecSize(k)+7)/8))) // the system has no more address space
	e.exts.mu.Lock()
	e.exts.keep = append(e.exts.keep, r) // the blocks that point to it are not the collector's to see
	e.exts.mu.Unlock()
	return r
}

// release takes back extension n of e. Under the lock of the cell that
// held it, which no longer does; p is its stripe's pool.
func (t *hbExts) release(e *hbEngine, p *hbExtPool, n uint32) {
	x := t.get(n)
	if x.rec != nil {
		p.recs[x.class] = append(p.recs[x.class], x.rec)
		p.count(e, -int64(hbRecSize(x.class)))
	}
	x.rec, x.class = nil, 0 // cell stays: a sweep that finds it clears it only if it is old
	p.free = append(p.free, n-1)
	p.live--
}

// owners copies the cells of the extensions of block b into cells, and
// returns how many blocks there are.
func (t *hbExts) owners(b int, cells *[hbExtBlock]*hbCell) int {
	blocks := t.blocks.Load()
	if blocks == nil {
		return 0
	}
	if b < len(*blocks) {
		for i := range (*blocks)[b] {
			cells[i] = (*blocks)[b][i].cell.Load()
		}
	}
	return len(*blocks)
}

// liveExts returns the number of extensions in use: the stripes' counts,
// each read under its mutex (tests and statistics; not the check path).
func (e *hbEngine) liveExts() int64 {
	var n int64
	for i := range e.cellLocks {
		s := &e.cellLocks[i]
		s.Lock()
		if s.pool != nil {
			n += s.pool.live
		}
		s.Unlock()
	}
	return n
}
