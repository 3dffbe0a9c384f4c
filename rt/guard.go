package rt

import (
	"cmp"
	"slices"
	"sync"
	"unsafe"
)

// A construct's static proofs may hold only if some slices do not share
// memory (a stencil writing next while reading cur, rows of a matrix written
// by different iterations). The rewriter then emits the construct twice, a
// pruned version without the checks the proofs removed and the fully checked
// one, and picks between them once at entry with a guard:
//
//	if _ga_rt.GuardR(_ga_rt.GuardW(_ga_rt.NewGuard(), next), cur).Disjoint() { pruned } else { checked }
//
// A guard is one goroutine's, for the one expression that builds and tests
// it; it must not be used after Disjoint.

// Guard collects the memory spans a construct's static proofs assume apart,
// and whether the index slices they assume injective are.
type Guard struct {
	spans  []span
	runs   []int    // where spans start a new ascending run (spans[k].p < spans[k-1].p), after 0
	repeat bool     // an index slice given to GuardInjective… holds a value twice
	bits   []uint64 // GuardInjective's scratch: a bitset over a dense range of values
	keys   []int64  // or the values, sorted, when their range is sparse
	lo     int64    // the least value, bits[0]'s
	dense  bool     // bits, not keys
}

// span is the backing array of one guarded slice: n bytes from p, written
// by the construct or only read. p is a pointer, not a uintptr, on purpose:
// storing it makes escape analysis move a stack array to the heap, so a
// stack copy between two Guard calls cannot move an array after its address
// was taken and make two views of it look apart.
type span struct {
	p unsafe.Pointer
	n uintptr
	w bool
}

// maxKeptSpans bounds the buffer a pooled guard keeps, so one huge matrix
// does not pin a large buffer for the rest of the program.
const maxKeptSpans = 1 << 16

var guardPool = sync.Pool{New: func() any { return new(Guard) }}

// NewGuard returns an empty guard. Guards are pooled: once warm, building
// and testing one does not allocate.
func NewGuard() *Guard { return guardPool.Get().(*Guard) }

// GuardW adds the backing array of s, up to cap(s), as memory the construct
// writes, and returns g. Cap and not len: the construct may reslice s up to
// its capacity.
func GuardW[T any](g *Guard, s []T) *Guard { return g.add(spanOf(s, true)) }

// GuardR adds the backing array of s, up to cap(s), as memory the construct
// only reads, and returns g.
func GuardR[T any](g *Guard, s []T) *Guard { return g.add(spanOf(s, false)) }

// GuardRowsW adds each row of m as written memory (GuardW of every m[k]),
// and returns g. Rows must then be pairwise apart: a matrix whose rows share
// an array fails the guard. M and R are type parameters, not [][]T, so that
// a matrix of a named row type ([]Row, type Row []float64) infers them: a
// [][]T parameter does not unify with it.
func GuardRowsW[M ~[]R, R ~[]T, T any](g *Guard, m M) *Guard {
	for _, row := range m {
		g.add(spanOf([]T(row), true))
	}
	return g
}

// GuardRowsR adds each row of m as read memory (GuardR of every m[k]), and
// returns g.
func GuardRowsR[M ~[]R, R ~[]T, T any](g *Guard, m M) *Guard {
	for _, row := range m {
		g.add(spanOf([]T(row), false))
	}
	return g
}

// spanOf is the span of s's backing array up to cap(s); n is 0 when s has
// no capacity or T has size zero, and such a span overlaps nothing.
func spanOf[T any](s []T, w bool) span {
	var zero T
	c := cap(s)
	if c == 0 || unsafe.Sizeof(zero) == 0 {
		return span{}
	}
	return span{p: unsafe.Pointer(unsafe.SliceData(s)), n: uintptr(c) * unsafe.Sizeof(zero), w: w}
}

// add appends sp unless it is empty, and returns g. A span below the
// previous one starts a new run.
func (g *Guard) add(sp span) *Guard {
	if sp.n > 0 {
		if n := len(g.spans); n > 0 && uintptr(sp.p) < uintptr(g.spans[n-1].p) {
			g.runs = append(g.runs, n)
		}
		g.spans = append(g.spans, sp)
	}
	return g
}

// Disjoint reports whether no written span overlaps any other span, written
// or read; read spans may overlap each other. It returns g to the pool.
//
// Spans are sorted by start and swept once, keeping the largest end of the
// written spans and of all spans seen so far: a span overlaps an earlier one
// exactly when it starts before that earlier one ends, so it conflicts when
// it starts before the largest written end, or is written and starts before
// the largest end of all. O(n log n) for n spans.
//
// The rows of a matrix are mostly added in address order (rows cut from one
// array, or allocated one after another), so the spans are a few ascending
// runs, one per matrix: those are merged instead of sorted, O(n·runs), which
// is what a guard over heat-3d's 20,000 rows per sweep costs.
func (g *Guard) Disjoint() bool {
	ok := !g.repeat && disjoint(g.spans, g.runs)
	g.repeat = false
	clear(g.spans) // drop the pointers, which would keep user arrays alive
	g.spans, g.runs = g.spans[:0], g.runs[:0]
	if cap(g.spans) > maxKeptSpans {
		g.spans, g.runs = nil, nil
	}
	guardPool.Put(g)
	return ok
}

// maxMergedRuns is the most ascending runs disjoint merges; more are
// sorted.
const maxMergedRuns = 4

// disjoint is Disjoint's test over spans, ascending runs that start at 0
// and at each of starts; it sorts spans in place when there are more than
// maxMergedRuns.
func disjoint(spans []span, starts []int) bool {
	if len(spans) < 2 {
		return true
	}
	var sw sweep
	if len(starts) >= maxMergedRuns {
		slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(uintptr(a.p), uintptr(b.p)) })
		for _, sp := range spans {
			if !sw.next(sp) {
				return false
			}
		}
		return true
	}
	var heads, ends [maxMergedRuns]int
	k := len(starts) + 1
	for r := range k {
		if r > 0 {
			heads[r] = starts[r-1]
		}
		ends[r] = len(spans)
		if r < len(starts) {
			ends[r] = starts[r]
		}
	}
	for {
		best := -1
		for r := range k {
			if heads[r] < ends[r] && (best < 0 || uintptr(spans[heads[r]].p) < uintptr(spans[heads[best]].p)) {
				best = r
			}
		}
		if best < 0 {
			return true
		}
		if !sw.next(spans[heads[best]]) {
			return false
		}
		heads[best]++
	}
}

// sweep visits spans in order of their start, keeping the largest end of
// the written spans and of all spans seen so far: a span overlaps an
// earlier one exactly when it starts before that earlier one ends.
type sweep struct{ maxW, maxAll uintptr }

// next visits sp and reports whether it is apart from the spans before as
// the guard requires: it starts at or past every written span's end, and,
// written, past every span's end.
func (s *sweep) next(sp span) bool {
	lo := uintptr(sp.p)
	if lo < s.maxW || sp.w && lo < s.maxAll {
		return false
	}
	hi := lo + sp.n
	s.maxAll = max(s.maxAll, hi)
	if sp.w {
		s.maxW = max(s.maxW, hi)
	}
	return true
}
