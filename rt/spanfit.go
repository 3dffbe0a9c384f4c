package rt

import (
	"math"
	"unsafe"
)

// The tests below guard the coalescing of a loop whose element accesses
// have a loop-invariant symbolic offset, x[i*N+j] or x[lo+j-1] (the
// rewriter's coalesce.go): the checks of the whole loop run before it as
// ReadSpan/WriteSpan only when they hold. Neither allocates.

// SpanIn reports whether off+j lies in [0, n) for every j in [lo, hi)
// (true when lo >= hi), computed without overflow: then x[off+j], for x
// of length n, cannot panic for any j of the loop, and the wrapping sum
// the program computes for the subscript is off+j itself. n is a length
// (n >= 0).
func SpanIn(off, lo, hi, n int) bool {
	if lo >= hi {
		return true
	}
	if off >= 0 {
		return lo >= -off && hi <= n-off
	}
	if off == math.MinInt {
		return false // lo would have to be 2⁶³
	}
	return lo >= -off && hi+off <= n // hi > lo >= -off > 0: hi+off does not overflow
}

// SpansApart reports whether the elements a[alo:ahi] and b[blo:bhi] have
// no byte in common (true when either is empty). The bounds must lie in
// [0, len] of their slice (the rewriter tests SpanIn first). Two accesses
// of a loop whose offsets differ symbolically, x[i*N+j] and y[k*N+j],
// move their checks before the loop only when their spans are apart: the
// loop then meets no element from both, and the order of their checks
// does not matter.
func SpansApart[A ~[]E, B ~[]F, E, F any](a A, alo, ahi int, b B, blo, bhi int) bool {
	if alo >= ahi || blo >= bhi {
		return true
	}
	var e E
	var f F
	pa := uintptr(unsafe.Pointer(unsafe.SliceData(a))) + uintptr(alo)*unsafe.Sizeof(e)
	pb := uintptr(unsafe.Pointer(unsafe.SliceData(b))) + uintptr(blo)*unsafe.Sizeof(f)
	return pa+uintptr(ahi-alo)*unsafe.Sizeof(e) <= pb || pb+uintptr(bhi-blo)*unsafe.Sizeof(f) <= pa
}

// StrideIn reports whether coef*j+off lies in [0, n) for every j in
// [lo, hi) (true when lo >= hi), computed without overflow: then x[coef*j+off]
// (a column of a flat matrix, x[k*N+j] in a loop over k), for x of length
// n, cannot panic for any j of the loop, and the wrapping arithmetic the
// program computes the subscript with gives that exact value. The
// subscript is monotone in j, so the two ends of the loop bound it. It
// also reports false, conservatively, when coef*j itself overflows at an
// end of the loop, even if adding off would bring it back.
func StrideIn(off, coef, lo, hi, n int) bool {
	if lo >= hi {
		return true
	}
	return strideAt(off, coef, lo, n) && strideAt(off, coef, hi-1, n)
}

// strideAt reports whether coef*j+off lies in [0, n), with no overflow.
func strideAt(off, coef, j, n int) bool {
	p := coef * j
	if coef != 0 && (p/coef != j || coef == -1 && j == math.MinInt) {
		return false
	}
	if off > 0 && p > math.MaxInt-off || off < 0 && p < math.MinInt-off {
		return false
	}
	s := p + off
	return s >= 0 && s < n
}
