package rt

import (
	"reflect"
	"unsafe"
)

// The check entry points route a thread's task here: the funnels of
// check.go, leaves.go and wrap.go test t.sh first, which is nil for a
// thread's task (and when checks are off), and only then whether t is a
// thread's, so a construct's checks pay nothing for the layer. A task of a
// construct tree that a thread entered checks structurally, as any
// construct's; its atomics also synchronize the thread (hbAtomicSync), as
// its locks (hbLock) and hooks (hbOf) do.

// hbAccess checks one access of t, a thread's task or nil.
func (t *Task) hbAccess(addr uintptr, site Site, write, atomic bool) {
	if t == nil || t.hb == nil {
		return
	}
	th := t.hb
	if !atomic {
		if !th.repeat(addr, write) {
			th.eng.access(th, addr, site, write, false)
		}
		return
	}
	th.mu.Lock() // an atomic is a hook: it applies the pending acquires first
	th.takePending(false)
	th.mu.Unlock()
	th.eng.access(th, addr, site, write, true)
	th.mu.Lock()
	if write {
		th.atomicStore(addr)
	} else {
		th.atomicLoad(addr)
	}
	th.mu.Unlock()
}

// hbAtomicSync is the synchronization of an atomic access by a task of a
// construct tree that a thread entered: the blocks share the thread's
// clock, and an unstructured goroutine that loads what a block stored
// follows the block.
func (t *Task) hbAtomicSync(addr uintptr, write bool) {
	th := t.hbOf()
	if th == nil {
		return
	}
	if write {
		th.atomicStore(addr)
	} else {
		th.atomicLoad(addr)
	}
	th.mu.Unlock()
}

// hbRange checks n elements of size elem from addr, each one location.
func (t *Task) hbRange(addr, n, elem uintptr, site Site, write bool) {
	if t == nil || t.hb == nil {
		return
	}
	th := t.hb
	now := th.cacheEpoch()
	if elem >= hbGrain || elem == 0 {
		for k := uintptr(0); k < n; k++ {
			if a := addr + k*elem; !th.cached(a, write, now) {
				th.eng.access(th, a, site, write, false)
			}
		}
		return
	}
	// Elements smaller than a granule: the addresses of one granule are
	// one check (accessGrain), a []byte's sixteen bytes or a []float64's
	// two elements one cell lock.
	if hbGrain%elem == 0 && n != 0 {
		// 1, 2, 4 or 8 bytes: each granule's mask is a pattern, cut to the
		// span (element by element, the loop below was a twelfth of
		// BenchmarkHBFanOut's time).
		pat := hbElemStarts[elem] << (addr % elem)
		last := addr + (n-1)*elem // the last element's address
		for g := addr &^ (hbGrain - 1); g <= last; g += hbGrain {
			lo, hi := max(addr, g)-g, min(last, g+hbGrain-1)-g
			m := pat & (hbAllMask << lo) & (hbAllMask >> (hbGrain - 1 - hi))
			if m &^= th.cachedBits(g, write, now); m != 0 {
				th.eng.accessGrain(th, g, m, site, write)
			}
		}
		return
	}
	var grain uintptr
	var mask hbMask
	for k := uintptr(0); k < n; k++ {
		g, bit := grainOf(addr + k*elem)
		if g != grain {
			if mask &^= th.cachedBits(grain, write, now); mask != 0 {
				th.eng.accessGrain(th, grain, mask, site, write)
			}
			grain, mask = g, 0
		}
		mask |= bit
	}
	if mask &^= th.cachedBits(grain, write, now); mask != 0 {
		th.eng.accessGrain(th, grain, mask, site, write)
	}
}

// hbElemStarts holds, for each element size that divides a granule, the
// addresses of a granule where elements of that size start at its first.
var hbElemStarts = [hbGrain/2 + 1]hbMask{1: hbAllMask, 2: 0x5555, 4: 0x1111, 8: 0x0101}

// hbLeaves checks n values of layout l, size bytes apart, at each leaf
// (as leaves does).
func (t *Task) hbLeaves(addr, n, size uintptr, l *layout, site Site, write bool) {
	if t == nil || t.hb == nil {
		return
	}
	if l == scalar || len(l.off) == 1 && l.off[0] == 0 && l.reps == 1 && l.stride == size {
		t.hbRange(addr, n, size, site, write) // one location per element: a granule at a time
		return
	}
	if w := l.words; w != 0 && (size == w*8 || n == 1) {
		t.hbRange(addr, n*w, 8, site, write) // dense words: the same locations, in the same order
		return
	}
	th := t.hb
	now := th.cacheEpoch()
	for k := uintptr(0); k < n; k++ {
		for r := uintptr(0); r < l.reps; r++ {
			base := addr + k*size + r*l.stride
			for _, off := range l.off {
				if a := base + off; !th.cached(a, write, now) {
					th.eng.access(th, a, site, write, false)
				}
			}
		}
	}
}

// hbForgetFresh forgets the happens-before histories of fresh memory that
// New, Make and the like got: in t's engine for a thread's task, else, in
// a program whose happens-before layer runs (an -hb build once a root
// began), in the program's. Memory allocated by a goroutine that is no
// thread (a callback the runtime runs), or by a construct's block, is
// read by threads too; the collector may have taken it from an object a
// thread's history still names.
func hbForgetFresh(t *Task, addr, size uintptr) {
	switch {
	case size == 0:
	case t != nil && t.hb != nil:
		t.hb.eng.forget(addr, size)
	case global.hb.generations.Load():
		global.hb.forget(addr, size)
	}
}

// Appended forgets the array append allocated for s, when Grow found
// that it would (its capacity was too small), and returns s: a thread's
// x = append(x, v) becomes x = _ga_rt.Appended(t, append(_ga_rt.Grow(t, x, 1, site), v)).
func Appended[S ~[]E, E any](t *Task, s S) S {
	if t != nil && t.hb != nil && t.hb.growFresh {
		t.hb.growFresh = false
		var zero E
		hbForgetFresh(t, uintptr(unsafe.Pointer(unsafe.SliceData(s[:cap(s)]))), uintptr(cap(s))*unsafe.Sizeof(zero))
	}
	return s
}

// Fresh forgets the memory a call into code that is not rewritten returned
// (strings.Split's slice, a constructor's pointer, a map), and returns it:
// it may be new memory at the address of an object the collector freed.
// Memory that was not new loses its history (a race with an earlier
// access of it is missed, never invented).
func Fresh[T any](t *Task, v T) T {
	if t == nil || t.hb == nil {
		return v
	}
	hbForgetValue(t, reflect.ValueOf(v))
	return v
}

// hbForgetValue forgets what a slice, a pointer or a map value refers to.
func hbForgetValue(t *Task, v reflect.Value) {
	switch v.Kind() {
	case reflect.Slice:
		if v.Cap() > 0 {
			hbForgetFresh(t, v.Pointer(), uintptr(v.Cap())*v.Type().Elem().Size())
		}
	case reflect.Pointer:
		if !v.IsNil() {
			hbForgetFresh(t, v.Pointer(), v.Type().Elem().Size())
		}
	case reflect.Map:
		if !v.IsNil() {
			hbForgetFresh(t, v.Pointer(), 1)
		}
	}
}

// MakeMap forgets the history of the map m just made (a map is one
// location, at its runtime pointer) and returns it. M is a map type (see
// mapID).
func MakeMap[M any](t *Task, m M) M {
	if id := mapID(&m); id != 0 {
		hbForgetFresh(t, id, 1)
	}
	return m
}
