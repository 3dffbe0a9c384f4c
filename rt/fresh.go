package rt

// freshBytes bounds how many bytes of a new object fresh clears; cells are
// keyed by the address of the element accessed, which may be any byte.
const freshBytes = 256

// fresh forgets the access history of [addr, addr+size): the memory was
// just allocated, so whatever the shadow holds there belongs to a freed
// object. Without this, a goroutine's object freed and reused by a
// concurrent sibling's allocation would show the sibling's tags as
// concurrent: a false report. Only cells that exist are touched.
func (t *Task) fresh(addr, size uintptr) {
	if t == nil || t.sh == nil || t.sh.cells.Load() == 0 {
		return
	}
	for k := uintptr(0); k < min(size, freshBytes); k++ {
		a := addr + k
		h := hashAddr(a)
		tb := t.sh.shards[h>>(64-shardBits)].tbl.Load()
		if tb == nil {
			continue
		}
		if c := tb.find(a, h); c != nil {
			c.forget()
		}
	}
}

// forget clears a cell's history.
func (c *cell) forget() {
	c.w.Store(0)
	c.r.Store(0)
	c.c.Store(0)
	c.atom.Store(nil)
	if h := c.hist; h != nil {
		h.mu.Lock()
		h.readers, h.writers = h.readers[:0], h.writers[:0]
		h.mu.Unlock()
	}
}

// freshElems is fresh for n elements of size elem: every byte of each
// element up to freshBytes/4, where a field of an element may start.
func (t *Task) freshElems(addr, n, elem uintptr) {
	if t == nil || t.sh == nil || t.sh.cells.Load() == 0 {
		return
	}
	per := min(elem, freshBytes/4)
	for i := uintptr(0); i < n; i++ {
		t.fresh(addr+i*elem, per)
	}
}
