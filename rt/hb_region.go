package rt

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Regions of the happens-before shadow. The cells of 64 KB of memory are
// one region (4096 cells of 32 bytes), found by the region's number
// (address >> 16) in an open-addressing table that threads read without
// a lock; a region is made at the first access in its memory and never
// dropped, so the shadow is at most twice the memory the program
// ever checked, however many objects it allocated there over time
// (the collector reuses addresses). Where the platform allows, regions
// live in memory mapped outside the Go heap (hb_mem_unix.go), as do the
// extensions' records (hb_ext.go): the
// collector neither scans them nor counts them in its heap goal, and an
// operating system page of cells takes memory only once touched.

const (
	hbRegionShift = 16
	hbRegionCells = 1 << (hbRegionShift - hbGrainShift)
)

// hbCells is the cells of a region.
type hbCells [hbRegionCells]hbCell

// hbRegion is the shadow of 64 KB of memory.
type hbRegion struct {
	key   uintptr // address >> hbRegionShift
	cells *hbCells
}

// hbRegionTab is a table of regions: len(slots) is a power of two, at
// most half full.
type hbRegionTab struct {
	slots []atomic.Pointer[hbRegion]
	n     int // regions in it, under hbRegions.mu
}

// hbRegions is a shadow's regions.
type hbRegions struct {
	tab atomic.Pointer[hbRegionTab]
	mu  sync.Mutex // also guards the engine's hbMem
}

// find returns region key, or nil.
func (rs *hbRegions) find(key uintptr) *hbRegion {
	t := rs.tab.Load()
	if t == nil {
		return nil
	}
	mask := uint64(len(t.slots) - 1)
	for i := hashKey(key) >> 32 & mask; ; i = (i + 1) & mask {
		if r := t.slots[i].Load(); r == nil || r.key == key {
			return r
		}
	}
}

// get returns region key, made if new. e owns rs.
func (rs *hbRegions) get(e *hbEngine, key uintptr) *hbRegion {
	if r := rs.find(key); r != nil {
		return r
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if r := rs.find(key); r != nil {
		return r
	}
	t := rs.tab.Load()
	if t == nil || 2*(t.n+1) > len(t.slots) {
		t = rs.grow(t)
	}
	e.made.cells.Add(uint64(unsafe.Sizeof(hbCells{})))
	c := (*hbCells)(e.mem.alloc(e, unsafe.Sizeof(hbCells{})))
	if c == nil {
		c = new(hbCells) // the system has no more address space: from the Go heap
	}
	r := &hbRegion{key: key, cells: c}
	t.insert(r)
	return r
}

// grow returns a table twice as large as t (or a first one) with t's
// regions, now the table. Under mu.
func (rs *hbRegions) grow(t *hbRegionTab) *hbRegionTab {
	n := 64
	if t != nil {
		n = 2 * len(t.slots)
	}
	nt := &hbRegionTab{slots: make([]atomic.Pointer[hbRegion], n)}
	if t != nil {
		for i := range t.slots {
			if r := t.slots[i].Load(); r != nil {
				nt.insert(r)
			}
		}
	}
	rs.tab.Store(nt)
	return nt
}

// insert adds r to t. Under hbRegions.mu.
func (t *hbRegionTab) insert(r *hbRegion) {
	mask := uint64(len(t.slots) - 1)
	i := hashKey(r.key) >> 32 & mask
	for t.slots[i].Load() != nil {
		i = (i + 1) & mask
	}
	t.slots[i].Store(r)
	t.n++
}

// cellOf returns the cell of the granule at addr in r.
func (r *hbRegion) cellOf(addr uintptr) *hbCell {
	return &r.cells[addr>>hbGrainShift&(hbRegionCells-1)]
}

// hbCellSize is the size of a cell (TestHBCellSize keeps it 32).
const hbCellSize = unsafe.Sizeof(hbCell{})
