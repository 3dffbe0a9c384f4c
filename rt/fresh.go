package rt

import (
	"reflect"
	"unsafe"
)

// freshBytes bounds the byte-by-byte sweep fresh makes at the start of a
// new object; past it only the object's leaves are cleared (see clearLeaves).
const freshBytes = 256

// fresh forgets the access history of [addr, addr+size): the memory was
// just allocated, so whatever the shadow holds there belongs to a freed
// object. Without this, a goroutine's object freed and reused by a
// concurrent sibling's allocation would show the sibling's tags as
// concurrent: a false report. Only cells that exist are touched. Every
// byte of the first freshBytes is swept; the leaves of the whole object,
// where checks are keyed, are cleared by clearLeaves.
func (t *Task) fresh(addr, size uintptr) {
	if t == nil || t.sh == nil || t.sh.cells.Load() == 0 {
		return
	}
	settleFresh(t.forgetBytes(addr, size))
}

// forgetBytes forgets the cells of the first freshBytes of [addr,
// addr+size) and reports whether any existed.
func (t *Task) forgetBytes(addr, size uintptr) bool {
	forgot := false
	for k := uintptr(0); k < min(size, freshBytes); k++ {
		forgot = t.forgetAt(addr+k) || forgot
	}
	return forgot
}

// settleFresh tells the tasks' recent sets that a history they may hold
// was forgotten (recent.go), once per New, Make or pool Get, not per cell:
// a program that allocates in its loop would make its processors take
// freshGen's line from each other at every element.
func settleFresh(forgot bool) {
	if forgot {
		freshGen.n.Add(1)
	}
}

// clearLeaves forgets the history of n consecutive values of layout l,
// size bytes apart, at addr: every address a check of them is keyed by
// (an element or field is checked at its leaves, see leaves). It is the
// part of fresh that covers an object of any size.
func (t *Task) clearLeaves(addr, n, size uintptr, l *layout) {
	if t == nil || t.sh == nil || t.sh.cells.Load() == 0 {
		return
	}
	forgot := false
	for k := uintptr(0); k < n; k++ {
		for r := uintptr(0); r < l.reps; r++ {
			base := addr + k*size + r*l.stride
			for _, off := range l.off {
				forgot = t.forgetAt(base+off) || forgot
			}
		}
	}
	settleFresh(forgot)
}

// forgetAt clears the cell of address a, if it exists, and reports whether
// it did.
func (t *Task) forgetAt(a uintptr) bool {
	key, i := chunkOf(a)
	h := hashKey(key)
	tb := t.sh.shards[h>>(64-shardBits)].tbl.Load()
	if tb == nil {
		return false
	}
	ch := tb.find(key, h)
	if ch != nil {
		ch.forget(t.sh, i)
	}
	return ch != nil
}

// forget clears the history of cell i. A uniform chunk is split first,
// unless it holds no history at all; the cleared words are clearedWord, not
// zero, so that a late copy of the uniform history (see split) cannot bring
// the freed object's accesses back.
func (ch *chunk) forget(s *shadow, i int) {
	switch ch.mode.Load() {
	case chunkLocked:
		h := &ch.hist()[i]
		h.mu.Lock()
		h.readers, h.writers = h.readers[:0], h.writers[:0]
		h.mu.Unlock()
		return
	case chunkUniform, chunkSplitting:
		if u := &ch.u; ch.mode.Load() == chunkUniform && u.w.Load()|u.r.Load()|u.c.Load() == 0 {
			return
		}
		ch.split(s)
	}
	c := &ch.cellsOf()[i]
	c.w.Store(clearedWord)
	c.r.Store(clearedWord)
	c.c.Store(clearedWord)
	if sd := ch.side.Load(); sd != nil {
		sd.atom[i].Store(nil)
	}
}

// reset clears every history of ch and makes it uniform again (a locked
// chunk stays locked). Only for a chunk no goroutine checks in (a finished
// tree's, see recycle).
func (ch *chunk) reset() {
	if ch.mode.Load() == chunkLocked {
		for i := range ch.hist() {
			h := &ch.hist()[i]
			h.readers, h.writers = h.readers[:0], h.writers[:0]
		}
		return
	}
	ch.u.w.Store(0)
	ch.u.r.Store(0)
	ch.u.c.Store(0)
	if cs := ch.cells.Load(); cs != nil { // kept: the chunk is uniform again, its cells zero
		for i := range cs {
			c := &cs[i]
			c.w.Store(0)
			c.r.Store(0)
			c.c.Store(0)
		}
	}
	ch.side.Store(nil)
	ch.mode.Store(chunkUniform)
}

// freshElems is fresh for n elements of size elem: every byte of each
// element up to freshBytes/4, where a field of an element may start.
func (t *Task) freshElems(addr, n, elem uintptr) {
	if t == nil || t.sh == nil || t.sh.cells.Load() == 0 {
		return
	}
	per := min(elem, freshBytes/4)
	forgot := false
	for i := uintptr(0); i < n; i++ {
		forgot = t.forgetBytes(addr+i*elem, per) || forgot
	}
	settleFresh(forgot)
}

// heapSink makes the pointers New and Make receive escape: the compiler
// then allocates the variable or backing array on the heap, where it stays
// put. A goroutine's stack is reused by the next goroutine started and is
// moved when it grows, without anything the rewriter could clear; an
// object checked in construct code must not live there (see
// docs/runtime.md, "Goroutine stacks"). on is never set.
var heapSink struct {
	on bool
	p  unsafe.Pointer
}

// escape makes p escape to the heap (see heapSink); it does nothing.
func escape(p unsafe.Pointer) {
	if heapSink.on {
		heapSink.p = p
	}
}

// PoolGot forgets the history of the object a sync.Pool's Get returned and
// returns v: pool.Get() in checked code becomes _ga_rt.PoolGot(t, pool.Get()).
// A Put happens before the Get that returns its object, so the goroutine
// that put it is done with it: its accesses, concurrent as blocks with the
// getter's, are not a race (go test -race is silent on a WaitGroup's
// goroutines sharing buffers through a pool). A goroutine that kept using
// an object after Put races with the getter, and that is missed.
func PoolGot(t *Task, v any) any {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return v
	}
	typ := rv.Type().Elem()
	addr, size := rv.Pointer(), typ.Size()
	hbForgetFresh(t, addr, size)
	if t != nil && t.sh != nil && t.sh.cells.Load() != 0 {
		t.fresh(addr, size)
		t.clearLeaves(addr, 1, size, leavesOfType(typ))
	}
	return v
}
