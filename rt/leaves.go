package rt

import (
	"reflect"
	"sync"
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
}

// leafCache maps a reflect.Type to its layout (*layout). It is the
// runtime's memo of static type layouts: written once per type, read
// without allocation.
var leafCache sync.Map

// leavesOf returns the layout of T.
func leavesOf[T any]() *layout {
	typ := reflect.TypeFor[T]()
	if l, ok := leafCache.Load(typ); ok {
		return l.(*layout)
	}
	l := layoutOf(typ)
	leafCache.Store(typ, l)
	return l
}

func layoutOf(typ reflect.Type) *layout {
	l := &layout{reps: 1}
	for typ.Kind() == reflect.Array {
		l.reps *= uintptr(typ.Len())
		typ = typ.Elem()
	}
	l.stride = typ.Size()
	l.off = appendLeaves(nil, typ, 0)
	return l
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
		return
	}
	me := t.base | siteField(site)
	if l == scalar || len(l.off) == 1 && l.off[0] == 0 && l.reps == 1 && l.stride == size {
		t.run(addr, n, size, me, write)
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
