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

// maxLeaves bounds the leaves checked for one aggregate value; past it the
// rest of a very large array goes unchecked (a miss, never a false report).
const maxLeaves = 1 << 12

// leafCache maps a reflect.Type to its leaf offsets ([]uintptr). It is the
// runtime's memo of static type layouts: written once per type, read
// without allocation.
var leafCache sync.Map

// leavesOf returns the offsets of the scalar parts of T.
func leavesOf[T any]() []uintptr {
	typ := reflect.TypeFor[T]()
	if l, ok := leafCache.Load(typ); ok {
		return l.([]uintptr)
	}
	l := appendLeaves(nil, typ, 0)
	leafCache.Store(typ, l)
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
// addr, each at every leaf offset.
func (t *Task) leaves(addr, n, size uintptr, leaves []uintptr, site Site, write bool) {
	if t == nil || t.sh == nil {
		return
	}
	me := t.base | siteField(site)
	for k := uintptr(0); k < n; k++ {
		for _, off := range leaves {
			t.check(addr+k*size+off, me, write)
		}
	}
}
