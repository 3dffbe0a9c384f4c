package rt

import "unsafe"

// The whole-array spans of GuardW and GuardR fail a construct that reads
// one part of an array while writing another: PolyBench's lu reads the
// pivot row urow := A[k*n+k+1 : (k+1)*n] while its workers write the rows
// below it, and urow shares A's array, so a guard over both arrays fails
// on every pivot. The two entries below narrow the spans to what the
// construct can touch; the analysis emits them only when it has shown the
// narrower span covers every element the construct reaches through the
// slice (instrument/analysis/guardrange.go).

// GuardRLen adds the elements of s up to len(s), not cap(s), as memory the
// construct only reads, and returns g: the construct reads s only by
// index, range or copy, which Go bounds by len.
func GuardRLen[T any](g *Guard, s []T) *Guard { return g.add(spanLen(s)) }

// GuardWRange adds the elements s[lo:hi] as memory the construct writes
// (or reads), and returns g: every element the construct reaches through
// s lies in [lo, hi). When 0 ≤ lo ≤ hi ≤ cap(s) does not hold the bounds
// cannot be what the analysis computed (an overflow it did not rule out,
// say), and the whole array up to cap(s) is added, as GuardW does: the
// span is never narrower than what is written.
func GuardWRange[T any](g *Guard, s []T, lo, hi int) *Guard {
	if lo < 0 || lo > hi || hi > cap(s) {
		return g.add(spanOf(s, true))
	}
	return g.add(spanRange(s, lo, hi))
}

// spanLen is the read span of s's first len(s) elements.
func spanLen[T any](s []T) span {
	var zero T
	if len(s) == 0 || unsafe.Sizeof(zero) == 0 {
		return span{}
	}
	return span{p: unsafe.Pointer(unsafe.SliceData(s)), n: uintptr(len(s)) * unsafe.Sizeof(zero)}
}

// spanRange is the written span of s's elements [lo, hi), given
// 0 ≤ lo ≤ hi ≤ cap(s). p points into s's array (&s[lo]); when lo ==
// hi the span is empty and dropped, so p never points one past the end.
func spanRange[T any](s []T, lo, hi int) span {
	var zero T
	sz := unsafe.Sizeof(zero)
	if lo == hi || sz == 0 {
		return span{}
	}
	return span{p: unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), uintptr(lo)*sz), n: uintptr(hi-lo) * sz, w: true}
}
