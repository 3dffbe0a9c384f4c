package rt

import (
	"reflect"
	"unsafe"
)

// Reflection reads and writes memory the rewriter cannot see: v.Set(x)
// writes what v refers to, v.Int() reads it, reflect.Copy(dst, src)
// copies elements. The race detector sees them inside package reflect; a
// source rewriter sees only the call. The rewriter puts the receiver of
// such a method in a ReflectValue (ReflectOf of api_hb.go), whose method
// of the same name checks the access and then calls the reflect method:
// the arguments are evaluated before the method runs, so the check comes
// after them (a receive among them orders as it does the write). Only a
// Value that refers to memory (CanAddr: an element, a field, what a
// pointer points to) is checked; the rest are copies no one else reaches.

// ReflectValue is a reflect.Value whose memory accesses are checked.
type ReflectValue struct {
	t    *Task
	v    reflect.Value
	site Site
}

// reflectAccess checks an access of the whole of v's memory, at each leaf of
// its type, as a plain access of a variable of that type is checked.
func reflectAccess(t *Task, v reflect.Value, site Site, write bool) {
	if t == nil || !v.IsValid() || !v.CanAddr() {
		return
	}
	typ := v.Type()
	if typ.Size() == 0 {
		return
	}
	t.leaves(v.UnsafeAddr(), 1, typ.Size(), leavesOfType(typ), site, write)
}

func (r ReflectValue) read()  { reflectAccess(r.t, r.v, r.site, false) }
func (r ReflectValue) write() { reflectAccess(r.t, r.v, r.site, true) }

// Set checks the write of r's memory and the read of x's, then sets.
func (r ReflectValue) Set(x reflect.Value) {
	reflectAccess(r.t, x, r.site, false)
	r.write()
	r.v.Set(x)
}

// SetInt checks the write, then sets.
func (r ReflectValue) SetInt(x int64) { r.write(); r.v.SetInt(x) }

// SetUint checks the write, then sets.
func (r ReflectValue) SetUint(x uint64) { r.write(); r.v.SetUint(x) }

// SetFloat checks the write, then sets.
func (r ReflectValue) SetFloat(x float64) { r.write(); r.v.SetFloat(x) }

// SetComplex checks the write, then sets.
func (r ReflectValue) SetComplex(x complex128) { r.write(); r.v.SetComplex(x) }

// SetBool checks the write, then sets.
func (r ReflectValue) SetBool(x bool) { r.write(); r.v.SetBool(x) }

// SetString checks the write, then sets.
func (r ReflectValue) SetString(x string) { r.write(); r.v.SetString(x) }

// SetBytes checks the write of the slice (its header), then sets.
func (r ReflectValue) SetBytes(x []byte) { r.write(); r.v.SetBytes(x) }

// SetZero checks the write, then sets.
func (r ReflectValue) SetZero() { r.write(); r.v.SetZero() }

// SetLen checks the write of the slice header, then sets.
func (r ReflectValue) SetLen(n int) { r.write(); r.v.SetLen(n) }

// SetCap checks the write of the slice header, then sets.
func (r ReflectValue) SetCap(n int) { r.write(); r.v.SetCap(n) }

// Int checks the read, then reads.
func (r ReflectValue) Int() int64 { r.read(); return r.v.Int() }

// Uint checks the read, then reads.
func (r ReflectValue) Uint() uint64 { r.read(); return r.v.Uint() }

// Float checks the read, then reads.
func (r ReflectValue) Float() float64 { r.read(); return r.v.Float() }

// Complex checks the read, then reads.
func (r ReflectValue) Complex() complex128 { r.read(); return r.v.Complex() }

// Bool checks the read, then reads.
func (r ReflectValue) Bool() bool { r.read(); return r.v.Bool() }

// String checks the read of a string, then reads; the String of any
// other kind reads nothing ("<int Value>").
func (r ReflectValue) String() string {
	if r.v.Kind() == reflect.String {
		r.read()
	}
	return r.v.String()
}

// Interface checks the read of the whole value it copies, then reads.
func (r ReflectValue) Interface() any { r.read(); return r.v.Interface() }

// IsZero checks the read of the whole value, then reads.
func (r ReflectValue) IsZero() bool { r.read(); return r.v.IsZero() }

// reflectCopy is ReflectCopy: the first n elements of dst are written and
// of src read, n the number reflect.Copy copies. A string's bytes are
// never written, so a string src is not checked.
func reflectCopy(t *Task, dst, src reflect.Value, site Site) int {
	if t != nil {
		n := min(reflectLen(dst), reflectLen(src))
		reflectElems(t, dst, n, site, true)
		if src.Kind() != reflect.String {
			reflectElems(t, src, n, site, false)
		}
	}
	return reflect.Copy(dst, src)
}

// reflectLen is v's Len for the kinds reflect.Copy takes, else 0 (it
// panics on the others itself).
func reflectLen(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Slice, reflect.Array, reflect.String:
		return v.Len()
	}
	return 0
}

// reflectElems checks the access of the first n elements of the slice or
// addressable array v.
func reflectElems(t *Task, v reflect.Value, n int, site Site, write bool) {
	if n <= 0 {
		return
	}
	var base unsafe.Pointer
	switch {
	case v.Kind() == reflect.Slice:
		base = v.UnsafePointer()
	case v.Kind() == reflect.Array && v.CanAddr():
		base = unsafe.Pointer(v.UnsafeAddr())
	default:
		return // an array that is a copy: no one else reaches it
	}
	elem := v.Type().Elem()
	if elem.Size() == 0 || base == nil {
		return
	}
	t.leaves(uintptr(base), uintptr(n), elem.Size(), leavesOfType(elem), site, write)
}
