package rt

import (
	"sync"
	"sync/atomic"
)

// Extensions of the happens-before shadow's cells: the histories of a
// cell that do not fit inline (hb_cell.go) — concurrent reads, writes of
// the word's addresses in different epochs or at different sites, atomic
// accesses. Cells hold no pointers (they may live outside the Go heap),
// so a cell names its extension by index in the engine's table. The
// table is blocks of extensions found from a snapshot of the block list
// without a lock; an index is given and taken back under the table's
// mutex and the cell's lock, and read under the cell's lock. Released
// extensions are kept, with their lists' arrays, for the next cells that
// need one.

// hbExt is a cell's histories as lists (hb_cell.go).
type hbExt struct {
	cell         *hbCell // the cell whose extension it is
	w, r, ar, aw []hbEnt // plain writes and reads, atomic reads and writes
}

const (
	hbExtShift = 10
	hbExtBlock = 1 << hbExtShift
	hbExtPool  = 1024 // released extensions kept for reuse
	hbExtKeep  = 64   // longer lists are not kept with a released extension
)

// hbExtBlk is a block of the table.
type hbExtBlk [hbExtBlock]*hbExt

// hbExts is the table of a shadow's extensions.
type hbExts struct {
	blocks atomic.Pointer[[]*hbExtBlk] // grown under mu; a snapshot stays valid

	mu   sync.Mutex
	n    uint32   // indexes given out
	free []uint32 // released indexes
	pool []*hbExt // released extensions
	live atomic.Int64
}

// get returns extension ext (1 + its index). Under the lock of the cell
// that holds it.
func (t *hbExts) get(ext uint32) *hbExt {
	i := ext - 1
	return (*t.blocks.Load())[i>>hbExtShift][i&(hbExtBlock-1)]
}

// alloc returns a new extension of cell c and its number (1 + its
// index). Under c's lock.
func (t *hbExts) alloc(c *hbCell) (*hbExt, uint32) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var i uint32
	if n := len(t.free); n > 0 {
		i = t.free[n-1]
		t.free = t.free[:n-1]
	} else {
		i = t.n
		t.n++
		if b := t.blocks.Load(); b == nil || int(i>>hbExtShift) >= len(*b) {
			var nb []*hbExtBlk
			if b != nil {
				nb = append(nb, *b...)
			}
			nb = append(nb, new(hbExtBlk))
			t.blocks.Store(&nb)
		}
	}
	var x *hbExt
	if n := len(t.pool); n > 0 {
		x = t.pool[n-1]
		t.pool[n-1] = nil
		t.pool = t.pool[:n-1]
	} else {
		x = new(hbExt)
	}
	x.cell = c
	(*t.blocks.Load())[i>>hbExtShift][i&(hbExtBlock-1)] = x
	t.live.Add(1)
	return x, i + 1
}

// release takes back extension ext. Under the lock of the cell that held
// it, which no longer does.
func (t *hbExts) release(ext uint32) {
	i := ext - 1
	t.mu.Lock()
	defer t.mu.Unlock()
	slot := &(*t.blocks.Load())[i>>hbExtShift][i&(hbExtBlock-1)]
	x := *slot
	*slot = nil
	t.free = append(t.free, i)
	t.live.Add(-1)
	if len(t.pool) >= hbExtPool {
		return
	}
	x.cell = nil
	x.w, x.r, x.ar, x.aw = keep(x.w), keep(x.r), keep(x.ar), keep(x.aw)
	t.pool = append(t.pool, x)
}

// keep empties l for reuse, unless it grew long.
func keep(l []hbEnt) []hbEnt {
	if cap(l) > hbExtKeep {
		return nil
	}
	return l[:0]
}
