package rt

import (
	"math"
	"slices"
	"unsafe"
)

// The proofs of a[idx[i]] (the paper's S(index(i), j)) and of
// y[elemNode[e][k]] (a finite-element assembly over one colour) hold when
// an index slice, or the cells of some rows of one, hold no value twice:
// a property of the data, tested once at the construct's start like the
// aliasing spans.

// integer is the element type of an index slice.
type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// GuardInjective records that the proofs assume idx holds no value twice
// (a[idx[i]] written by iteration i names an element no other iteration
// names), and returns g; Disjoint fails if a value repeats.
func GuardInjective[T integer](g *Guard, idx []T) *Guard {
	if g.repeat || len(idx) < 2 {
		return g
	}
	if markValues(g, idx) {
		return g
	}
	r := emptyRange()
	for _, v := range idx {
		r.add(int64(v))
	}
	g.start(r, len(idx))
	for _, v := range idx {
		if g.seen(int64(v)) {
			break
		}
	}
	g.finish()
	return g
}

// GuardInjectiveCells records that the proofs assume the cells of rows,
// arrays of T, hold no value twice (y[rows[i][k]] written by iteration i
// for every k), and returns g. zero only carries T: rows' element type R
// must be an array of T, as the rewriter guarantees.
func GuardInjectiveCells[R any, T integer](g *Guard, rows []R, zero T) *Guard {
	if len(rows) == 0 {
		return g
	}
	// The cells of all rows are one array of T.
	return GuardInjective(g, unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(rows))), len(rows)*cellsPerRow[R, T]()))
}

// GuardInjectiveCellsOf is GuardInjectiveCells over the rows sel lists,
// rows[sel[j]] for every j (y[rows[sel[j]][k]], as a finite-element
// assembly adds into the nodes of the elements of one colour). A value of
// sel listed twice repeats its row's cells, so sel must hold no value
// twice too. A value of sel out of the range of rows fails the guard: the
// checked version then panics where the program does.
func GuardInjectiveCellsOf[R any, T, I integer](g *Guard, rows []R, sel []I, zero T) *Guard {
	if g.repeat {
		return g
	}
	for _, k := range sel {
		if int64(k) < 0 || uint64(k) >= uint64(len(rows)) {
			g.repeat = true
			return g
		}
	}
	if markSelected(g, rows, sel, zero) {
		return g
	}
	r := emptyRange()
	for _, k := range sel {
		for _, v := range row[R, T](rows, int(k)) {
			r.add(int64(v))
		}
	}
	g.start(r, len(sel)*cellsPerRow[R, T]())
	for _, k := range sel {
		for _, v := range row[R, T](rows, int(k)) {
			if g.seen(int64(v)) {
				break
			}
		}
	}
	g.finish()
	return g
}

// cellsPerRow is how many T make an R.
func cellsPerRow[R any, T integer]() int {
	var r R
	var t T
	return int(unsafe.Sizeof(r) / unsafe.Sizeof(t))
}

// row is the cells of rows[k].
func row[R any, T integer](rows []R, k int) []T {
	return unsafe.Slice((*T)(unsafe.Pointer(&rows[k])), cellsPerRow[R, T]())
}

// The common index holds small non-negative values (positions in the
// slice it indexes), so each guard first tries one pass with a bitset over
// [0, max] grown as values come: markValues and markSelected. A negative value,
// or one past 64 bits per value of the whole test, gives up (false), and
// the guard starts again with the two passes below: the values' range,
// then a bitset over it or a sort.

// startMarks empties the one-pass bitset.
func (g *Guard) startMarks() { g.bits = g.bits[:0] }

// markValues is the one-pass test of vs. It reports whether it decided
// (g.repeat is then set if a value repeats), false when a value is outside
// what the bitset takes.
func markValues[T integer](g *Guard, vs []T) bool {
	g.startMarks()
	limit := uint64(len(vs)) + 1024 // words: 64 bits per value, and some slack for short slices
	for _, v := range vs {
		if int64(v) < 0 || uint64(v)/64 >= limit {
			return false
		}
		w, b := uint64(v)/64, uint64(1)<<(uint64(v)%64)
		if w >= uint64(len(g.bits)) {
			g.growMarks(int(w) + 1)
		}
		if g.bits[w]&b != 0 {
			g.repeat = true
			return true
		}
		g.bits[w] |= b
	}
	return true
}

// markSelected is markValues over the cells of the rows sel lists, all in
// range, written out: fem's guard runs it over every element of a colour
// before each parallel loop, so it is the guard's cost.
func markSelected[R any, T, I integer](g *Guard, rows []R, sel []I, _ T) bool {
	var r R
	var t T
	n := int(unsafe.Sizeof(r) / unsafe.Sizeof(t))
	limit := uint64(len(sel)*n) + 1024
	g.startMarks()
	bits := g.bits
	base := unsafe.Pointer(unsafe.SliceData(rows))
	for _, k := range sel {
		p := unsafe.Add(base, uintptr(k)*unsafe.Sizeof(r))
		for c := range n {
			v := *(*T)(unsafe.Add(p, uintptr(c)*unsafe.Sizeof(t)))
			if int64(v) < 0 || uint64(v)/64 >= limit {
				g.bits = bits
				return false
			}
			w, b := uint64(v)/64, uint64(1)<<(uint64(v)%64)
			if w >= uint64(len(bits)) {
				g.bits = bits
				g.growMarks(int(w) + 1)
				bits = g.bits
			}
			if bits[w]&b != 0 {
				g.bits, g.repeat = bits, true
				return true
			}
			bits[w] |= b
		}
	}
	g.bits = bits
	return true
}

// growMarks lengthens the one-pass bitset to n words, cleared.
func (g *Guard) growMarks(n int) {
	if n > cap(g.bits) {
		nb := make([]uint64, n, max(n, 2*cap(g.bits)))
		copy(nb, g.bits)
		g.bits = nb
		return
	}
	old := len(g.bits)
	g.bits = g.bits[:n]
	clear(g.bits[old:])
}

// valueRange is the least and greatest of the values added. uint64 values
// above MaxInt64 wrap to negative keys: still one key per value.
// Empty, lo > hi.
type valueRange struct{ lo, hi int64 }

func emptyRange() valueRange { return valueRange{lo: math.MaxInt64, hi: math.MinInt64} }

func (r *valueRange) add(v int64) { r.lo, r.hi = min(r.lo, v), max(r.hi, v) }

// start prepares the test of n values in r: a bitset over the range when
// it is dense (at most 64 bits per value), else a copy to sort. No
// allocation once the pooled guard's scratch has grown.
func (g *Guard) start(r valueRange, n int) {
	g.lo, g.dense = r.lo, false
	g.keys = g.keys[:0]
	if span := uint64(r.hi - r.lo); r.lo <= r.hi && span/64 < uint64(n) {
		words := int(span/64) + 1
		if cap(g.bits) < words {
			g.bits = make([]uint64, words)
		}
		g.bits = g.bits[:words]
		clear(g.bits)
		g.dense = true
	}
}

// seen adds v and reports whether a repeat is already certain.
func (g *Guard) seen(v int64) bool {
	if !g.dense {
		g.keys = append(g.keys, v)
		return false
	}
	k := uint64(v - g.lo)
	if g.bits[k/64]&(1<<(k%64)) != 0 {
		g.repeat = true
		return true
	}
	g.bits[k/64] |= 1 << (k % 64)
	return false
}

// finish completes the test: it sorts the copy of sparse values.
func (g *Guard) finish() {
	if !g.dense && !g.repeat {
		slices.Sort(g.keys)
		for k := 1; k < len(g.keys); k++ {
			if g.keys[k] == g.keys[k-1] {
				g.repeat = true
				break
			}
		}
	}
	g.dropScratch()
}

// dropScratch lets a pooled guard keep its scratch only up to a bound, so
// one huge index slice does not pin a large buffer for the rest of the
// program.
func (g *Guard) dropScratch() {
	if cap(g.bits) > maxKeptSpans {
		g.bits = nil
	}
	if cap(g.keys) > maxKeptSpans {
		g.keys = nil
	}
}
