package rt

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Checks are keyed by the address of the element accessed: a[3] = 1 is
// checked at &a[3], p.y at &p.y. An access to a whole array or struct
// (a = b, m[k] with an array key k, copy of a slice of structs) touches
// every element and field inside it, so it is checked at each of them: its
// leaves, the offsets of the scalar fields and elements of its type.

// maxLeaves bounds the leaves listed for one struct value; past it the
// rest of a very large struct goes unchecked (a miss, never a false report;
// the rewriter notes such types). Arrays are not listed element by element:
// a layout repeats the leaves of the innermost element (see layout).
const maxLeaves = 1 << 12

// layout is where the scalar parts of a type lie: the leaf offsets of its
// innermost non-array element, repeated reps times, stride bytes apart. A
// nested array ([2][2][2]Point) is one run of its innermost elements, so
// a whole-value access to an array of any size is checked at every leaf
// without listing them.
type layout struct {
	off    []uintptr
	reps   uintptr
	stride uintptr
	words  uintptr // k when the leaves are the k consecutive words of a value of 8k bytes (struct{ x, y, z float64 }), else 0
}

// leafCache maps a reflect.Type to its layout (a *leafEntry). It is the
// runtime's memo of static type layouts: written once per type, read
// without allocation. leafMemo, a direct-mapped table of its entries keyed
// by the type's address, answers first: a sync.Map load hashed the
// interface on every whole-value check (15 of RA's 93 ns on a 3-word
// struct).
var (
	leafCache sync.Map
	leafMemo  [256]atomic.Pointer[leafEntry]
)

// leafEntry is a type (the address of its runtime type) and its layout.
type leafEntry struct {
	typ unsafe.Pointer
	l   *layout
}

// leavesOf returns the layout of T.
func leavesOf[T any]() *layout {
	typ := reflect.TypeFor[T]()
	key := (*[2]unsafe.Pointer)(unsafe.Pointer(&typ))[1] // the *rtype: one per type
	slot := &leafMemo[uintptr(key)>>4&255]
	if e := slot.Load(); e != nil && e.typ == key {
		return e.l
	}
	e, ok := leafCache.Load(typ)
	if !ok {
		e, _ = leafCache.LoadOrStore(typ, &leafEntry{typ: key, l: layoutOf(typ)})
	}
	slot.Store(e.(*leafEntry)) // the cache's own entry: no allocation when two types share a slot
	return e.(*leafEntry).l
}

// leavesOfType is leavesOf for a type known at run time.
func leavesOfType(typ reflect.Type) *layout {
	e, ok := leafCache.Load(typ)
	if !ok {
		key := (*[2]unsafe.Pointer)(unsafe.Pointer(&typ))[1]
		e, _ = leafCache.LoadOrStore(typ, &leafEntry{typ: key, l: layoutOf(typ)})
	}
	return e.(*leafEntry).l
}

func layoutOf(typ reflect.Type) *layout {
	l := &layout{reps: 1}
	for typ.Kind() == reflect.Array {
		l.reps *= uintptr(typ.Len())
		typ = typ.Elem()
	}
	l.stride = typ.Size()
	l.off = appendLeaves(nil, typ, 0)
	l.words = denseWords(l)
	return l
}

// denseWords returns k when the leaves of l, repeated, are the offsets 0,
// 8, …, 8(k-1) of a value of 8k bytes, else 0. Such a value's leaves are
// the cells of k consecutive words, so n values are checked as one run of
// nk words (leaves), with whole chunks recorded once (uniform.go).
func denseWords(l *layout) uintptr {
	size := l.reps * l.stride
	if size == 0 || size%8 != 0 || uintptr(len(l.off))*l.reps != size/8 {
		return 0
	}
	w := uintptr(0)
	for r := uintptr(0); r < l.reps; r++ {
		for _, off := range l.off {
			if r*l.stride+off != 8*w {
				return 0
			}
			w++
		}
	}
	return w
}

func appendLeaves(out []uintptr, typ reflect.Type, off uintptr) []uintptr {
	if len(out) >= maxLeaves {
		return out
	}
	switch typ.Kind() {
	case reflect.Array:
		for i := 0; i < typ.Len() && len(out) < maxLeaves; i++ {
			out = appendLeaves(out, typ.Elem(), off+uintptr(i)*typ.Elem().Size())
		}
		return out
	case reflect.Struct:
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			if f.Type.Size() > 0 {
				out = appendLeaves(out, f.Type, off+f.Offset)
			}
		}
		return out
	}
	return append(out, off)
}

// leaves checks the accesses of n consecutive values of size size at
// addr, each at every leaf of its layout.
func (t *Task) leaves(addr, n, size uintptr, l *layout, site Site, write bool) {
	if t == nil || t.sh == nil {
		t.hbLeaves(addr, n, size, l, site, write)
		return
	}
	me := t.base | siteField(site)
	if l == scalar || len(l.off) == 1 && l.off[0] == 0 && l.reps == 1 && l.stride == size {
		t.run(addr, n, size, me, write)
		return
	}
	if w := l.words; w != 0 && (size == w*8 || n == 1) {
		t.run(addr, n*w, 8, me, write) // the same cells, in the same order
		return
	}
	for k := uintptr(0); k < n; k++ {
		for r := uintptr(0); r < l.reps; r++ {
			base := addr + k*size + r*l.stride
			for _, off := range l.off {
				t.check(base+off, me, write)
			}
		}
	}
}
