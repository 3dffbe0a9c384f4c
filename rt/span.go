package rt

import "unsafe"

// The helpers below check, before a sequential loop, the accesses that the
// loop makes to the elements of a slice one by one (see the rewriter's
// coalesce.go): for j := lo; j < hi; j++ { … s[j+d] … } is checked as
// ReadSpan(t, s, lo+d, hi+d, site) ahead of the loop, with the site of the
// element access, so reports name the same position. Each is safe with a
// nil task and does not allocate.

// ReadSpan checks reads of the elements s[lo:hi], clamped to [0, len(s)):
// no element outside s is checked and no index panics.
//
// An element that is an array or a struct is read at each of its leaves,
// as RA reads it (leaves.go): a range loop's value of a struct type is
// checked this way before the loop.
func ReadSpan[S ~[]E, E any](t *Task, s S, lo, hi int, site Site) {
	if p, n, size := elemSpan(s, lo, hi); n > 0 && t != nil {
		t.leaves(p, n, size, leavesOf[E](), site, false)
	}
}

// WriteSpan checks writes of the elements s[lo:hi], clamped as ReadSpan.
// An array or struct element is written at each of its leaves, as WA does.
func WriteSpan[S ~[]E, E any](t *Task, s S, lo, hi int, site Site) {
	if p, n, size := elemSpan(s, lo, hi); n > 0 && t != nil {
		t.leaves(p, n, size, leavesOf[E](), site, true)
	}
}

// elemSpan returns the address of s[lo] and the number and size of the
// elements of s[lo:hi] once the bounds are clamped to [0, len(s)].
func elemSpan[S ~[]E, E any](s S, lo, hi int) (addr, n, size uintptr) {
	lo, hi = max(lo, 0), min(hi, len(s))
	if lo >= hi {
		return 0, 0, 0
	}
	var zero E
	size = unsafe.Sizeof(zero)
	return uintptr(unsafe.Pointer(unsafe.SliceData(s))) + uintptr(lo)*size, uintptr(hi - lo), size
}

// SameOrApart reports whether the elements of a and b are the same
// elements (one array, from the same first element) or have no byte in
// common. The rewriter checks the element accesses of a loop through
// several slices before the loop only when this holds for each pair: then
// every element sees its checks in the order the loop would make them.
func SameOrApart[A ~[]E, B ~[]F, E, F any](a A, b B) bool {
	pa, pb := uintptr(unsafe.Pointer(unsafe.SliceData(a))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	if pa == pb {
		return true
	}
	var e E
	var f F
	return pa+uintptr(len(a))*unsafe.Sizeof(e) <= pb || pb+uintptr(len(b))*unsafe.Sizeof(f) <= pa
}
