package analysis

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// This file reads the accesses of the rows of a [][]T (or [][][]T) as
// points of a grid, so that the dependence tests of the flat layout apply
// to them one coordinate at a time.
//
// Under the run-time condition the guard tests before forking — every row
// of the matrix is apart from every other row, up to its capacity, and
// from the other slices the proofs name (rt.GuardRowsW, GuardPlanesW) —
// the element M[r][c] is the one element at row r, column c: two accesses
// touch the same element exactly when their coordinates are equal (Go's
// bounds checks keep c within the row's capacity, which its span covers).
// So an access of a rows root has a tuple of coordinates, the rows' and
// the element's, each a subscript or, for elements used whole, an interval
// (a range over M[lo:hi], a contained sub-slice row[lo:hi]). Each
// coordinate is a dimension of the root, filed like a flat root of its
// own (heapRoot.dims): its ownership forms (owned.go, indirect.go) and its
// footprints (depend.go's bands, chunk bands, cyclic bands). No two
// iterations touch the same element when one dimension separates them
// (gemm's rows i, trmm's column blocks [lo, hi) of every row); when none
// does, the exact test (exact.go) runs on the tuples (covariance's mirror
// writes cov[i][j], cov[j][i]). A flat root is the case of one dimension.

// coord is one coordinate of an access of a rows root: the subscript idx,
// or, with idx nil, every element of the dimension (a range over it, a
// row used whole). Through a contained sub-slice, sub is the innermost
// one (idx then indexes it, or it is used whole) and off the lows of the
// outer ones, added up, with their expressions offSrcs.
type coord struct {
	idx     ast.Expr
	sub     *ast.SliceExpr
	off     poly
	offSrcs []ast.Expr
}

// rowAccess reads an access of the goroutine body as an access of a rows
// root: the root and the coordinates, rows first, the element last. It
// fails when the access is not of the elements of a row of a stable
// [][]T (or [][][]T) whose row headers nothing in the construct writes.
func (h *heapPass) rowAccess(a access) (*heapRoot, []coord, bool) {
	x := ast.Unparen(a.e)
	var col coord
	if !a.elems {
		for done := false; !done; {
			switch e := x.(type) {
			case *ast.SelectorExpr:
				s := h.info.Selections[e]
				if s == nil || s.Kind() != types.FieldVal {
					return nil, nil, false
				}
				if !isPtr(h.info.TypeOf(e.X)) {
					x = ast.Unparen(e.X)
					continue
				}
				p, ok := h.pointee(e.X)
				if !ok {
					return nil, nil, false
				}
				x = p
			case *ast.StarExpr:
				p, ok := h.pointee(e.X)
				if !ok {
					return nil, nil, false
				}
				x = p
			case *ast.IndexExpr:
				switch underlying(h.info.TypeOf(e.X)).(type) {
				case *types.Array:
					x = ast.Unparen(e.X)
				case *types.Slice:
					x, col, done = e.X, coord{idx: e.Index}, true
				default:
					return nil, nil, false
				}
			default:
				return nil, nil, false
			}
		}
	}
	col, x, ok := h.throughSubs(col, x)
	if !ok {
		return nil, nil, false
	}
	m, rows, ok := h.rowRef(x, 0)
	if !ok {
		return nil, nil, false
	}
	rt := h.rowsRoot(m, len(rows))
	if rt == nil {
		return nil, nil, false
	}
	return rt, append(rows, col), true
}

// pointee is x of p := &x, p a local of the body assigned once.
func (h *heapPass) pointee(p ast.Expr) (ast.Expr, bool) {
	u, ok := h.resolveLocal(p).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil, false
	}
	return ast.Unparen(u.X), true
}

// throughSubs reads the slice x, indexed or used whole by c, through the
// contained sub-slices it is (s := X[lo:hi], row[lo:hi] ranged over): c
// with sub and off set, and the slice the outermost one is taken of.
func (h *heapPass) throughSubs(c coord, x ast.Expr) (coord, ast.Expr, bool) {
	inner := h.subSlice(x)
	if inner == nil {
		return c, x, true
	}
	off, srcs, sub, ok := h.subOffset(inner)
	if !ok {
		return coord{}, nil, false
	}
	c.sub, c.off, c.offSrcs = inner, off, srcs
	return c, sub.X, true
}

// rowRef reads x, a slice, as a row of a rows root: the stable path M it
// is a row of, and the row coordinates, outermost first. x is M[r]
// (through locals of the body assigned once: row := M[r]), a row of such
// a row (M[r][q] of a [][][]T), or the value variable of a range loop
// over M, over a contained sub-slice of M (M[lo:hi]: the rows lo to
// hi-1) or over a row of M. The range evaluates its operand once, and the
// headers it reads nothing in the construct writes (rowsRoot), so its
// value is the row at the range's key.
func (h *heapPass) rowRef(x ast.Expr, depth int) (ast.Expr, []coord, bool) {
	if depth > 3 {
		return nil, nil, false
	}
	var c coord
	var base ast.Expr
	switch e := h.resolveLocal(x).(type) {
	case *ast.IndexExpr:
		if _, slice := underlying(h.info.TypeOf(e.X)).(*types.Slice); !slice {
			return nil, nil, false
		}
		c, base = coord{idx: e.Index}, e.X
	case *ast.Ident:
		v, _ := h.info.Uses[e].(*types.Var)
		rs := h.valueOf[v]
		if rs == nil || !h.immutable(v) {
			return nil, nil, false
		}
		if _, slice := underlying(h.info.TypeOf(rs.X)).(*types.Slice); !slice {
			return nil, nil, false
		}
		var ok bool
		if c, base, ok = h.throughSubs(coord{}, rs.X); !ok {
			return nil, nil, false
		}
	default:
		return nil, nil, false
	}
	base = h.resolveLocal(base)
	if h.stable(base) {
		return base, []coord{c}, true
	}
	m, rows, ok := h.rowRef(base, depth+1)
	if !ok {
		return nil, nil, false
	}
	return m, append(rows, c), true
}

// rowsRoot is the rows root of m, a stable slice of depth levels of rows
// ([][]T for 1, [][][]T for 2) whose row headers, at every level, nothing
// in the construct writes; nil if m is none.
//
// Headers are memory of their type ([]T): a construct that writes that
// type elsewhere (atax's partial[b] = py) leaves m's rows a root when the
// writes are the body's (not the parent's or a callee's, which are by
// type) and prove finds the roots holding m's headers read-only
// (headersWritten): they are then in the guard, apart from the roots
// written.
func (h *heapPass) rowsRoot(m ast.Expr, depth int) *heapRoot {
	if depth < 1 || !h.stable(m) {
		return nil
	}
	key := "rows:"
	if depth > 1 {
		key = fmt.Sprintf("rows%d:", depth)
	}
	key += h.canon(m)
	t := h.info.TypeOf(m)
	assumed := false
	for range depth {
		if _, slice := underlying(t).(*types.Slice); !slice {
			return nil
		}
		t = elemType(t)
		if _, slice := underlying(t).(*types.Slice); !slice {
			return nil
		}
		if h.written(t) {
			if h.retracted != nil && h.retracted.rows[key] || h.overlaps(h.opaqueW, t) {
				return nil
			}
			assumed = true
		}
	}
	el := elemType(t)
	if el == nil {
		return nil
	}
	if assumed {
		h.headersW[key] = true
	}
	rt := h.root(key, m, true, el)
	if rt.dims == nil {
		rt.depth = depth
		for range depth + 1 {
			rt.dims = append(rt.dims, &heapRoot{path: m, rows: true, elem: el, wforms: map[string]bool{}, rforms: map[string]bool{}})
		}
	}
	return rt
}

// classifyRows files an access of a rows root: each coordinate's form and
// footprint under its dimension, the tuple for the exact test.
func (h *heapPass) classifyRows(a access, rt *heapRoot, cs []coord) {
	st := h.affine()
	w := a.mode&write != 0
	raw := rawAccess{write: w}
	rawOK := true
	for k, c := range cs {
		d := rt.dims[k]
		form := h.coordForm(c)
		if f, ok := h.coordFoot(c); ok {
			st.feet[d] = append(st.feet[d], f)
			if form == "" {
				form = h.bandForm(d, f)
			}
		} else {
			st.noFoot[d], d.footless = true, true
		}
		switch {
		case form == "":
			d.unowned = true
		case w:
			d.wforms[form] = true
		default:
			d.rforms[form] = true
		}
		d.written = d.written || w
		if rawOK {
			rawOK = h.coordRaw(c, a, k, &raw)
		}
	}
	if rawOK {
		st.raws[rt] = append(st.raws[rt], raw)
	}
	rt.written = rt.written || w
	rt.wide, rt.footless = true, true // no flat span or hull: the rows have their own (rowsRange)
	key := a.e
	if a.key != nil {
		key = a.key
	}
	rt.exprs = append(rt.exprs, ast.Unparen(key))
}

// coordForm is the ownership form of a coordinate: its subscript's
// position (position: owned, constant, through an index slice), or, for a
// coordinate within a contained sub-slice [lo, hi) that is a chunk of the
// index, a position of the chunk. "" when none.
func (h *heapPass) coordForm(c coord) string {
	if c.sub == nil {
		if c.idx == nil {
			return ""
		}
		return h.position(c.idx)
	}
	if len(c.off.terms) > 0 || c.off.k != 0 || c.sub.Low == nil || c.sub.High == nil {
		return ""
	}
	if fam, ok := h.chunk(c.sub.Low, c.sub.High); ok {
		return fmt.Sprintf("own:%s·1+0", fam) // every position the sub-slice reaches is in the chunk
	}
	return ""
}

// coordFoot is a coordinate's footprint: its contained sub-slice's bounds,
// or its subscript's extremes; none for a dimension used whole.
func (h *heapPass) coordFoot(c coord) (foot, bool) {
	switch {
	case c.sub != nil:
		return h.sliceFoot(c.sub, c.off, c.offSrcs)
	case c.idx != nil:
		return h.indexFoot(c.idx)
	}
	return foot{}, false
}

// coordRaw appends coordinate k of the access a to its tuple for the exact
// test: the subscript read as a polynomial (through a contained sub-slice,
// its low and offset added), or for a dimension used whole a fresh symbol
// t, each with the conditions (≥ 0) Go's bounds checks give it: an index
// is ≥ 0 and, through a sub-slice, below its length. It reports false when
// a polynomial cannot be read.
func (h *heapPass) coordRaw(c coord, a access, k int, raw *rawAccess) bool {
	st := h.affine()
	st.monoSyms = true
	defer func() { st.monoSyms = false }()
	var t poly
	if c.idx != nil {
		p, ok := h.polyOf(c.idx, 0)
		if !ok {
			return false
		}
		t = p
		raw.srcs = append(raw.srcs, c.idx)
	} else {
		st.wholes++ // a symbol of its own: two accesses at one position are two points
		t = polySym(fmt.Sprintf("@t%d.%d.%d", a.e.Pos(), k, st.wholes))
	}
	raw.nonneg = append(raw.nonneg, t)
	if c.sub == nil {
		raw.pt = append(raw.pt, t)
		return true
	}
	lo := c.sub.Low
	if lo == nil {
		lo = zeroLit
	}
	l, ok := h.polyOf(lo, 0)
	if !ok {
		return false
	}
	raw.srcs = append(append(raw.srcs, lo), c.offSrcs...)
	if c.sub.High != nil {
		u, ok := h.polyOf(c.sub.High, 0)
		if !ok {
			return false
		}
		raw.srcs = append(raw.srcs, c.sub.High)
		raw.nonneg = append(raw.nonneg, u.add(l, -1).add(polyConst(1), -1).add(t, -1)) // t ≤ hi - lo - 1
	}
	raw.pt = append(raw.pt, l.add(c.off, 1).add(t, 1))
	return true
}

// dimensions lists the dimensions of rt whose forms and footprints may
// prove it: a flat root's one (itself), a rows root's rows and element.
func (rt *heapRoot) dimensions() []*heapRoot {
	if rt.dims == nil {
		return []*heapRoot{rt}
	}
	return rt.dims
}

// proof is what proved the written root rt: the dimension whose forms or
// footprints separate the iterations, or rt itself (the exact test, a
// flat root).
func (rt *heapRoot) proof() *heapRoot {
	if rt.by != nil {
		return rt.by
	}
	return rt
}

// separated reports whether one dimension of the written root rt keeps
// the iterations apart: every access uses one owned form in it (owned),
// or the hull of its footprints passes the band test (proveHull).
func (h *heapPass) separated(rt *heapRoot) bool {
	for _, d := range rt.dimensions() {
		if !d.unowned && h.owned(d) {
			rt.by = d
			return true
		}
	}
	for _, d := range rt.dimensions() {
		if d.written && h.proveHull(d) {
			rt.by = d
			return true
		}
	}
	return false
}

// overlaps reports whether memory of a type in ts may overlap memory of
// type t.
func (h *heapPass) overlaps(ts []types.Type, t types.Type) bool {
	for _, u := range ts {
		if h.overlap(u, t) {
			return true
		}
	}
	return false
}

// headersWritten lists the rows roots taken with their header type
// written in the construct (rowsRoot) whose headers may be written after
// all: a write no root places (plainW) may be of a header's type, or a
// root holding headers written through is not proven read-only — m's own
// headers are the flat root m's elements, a [][][]T's rows' headers the
// elements of its rows root of depth 1. The roots written that the
// headers' type may overlap are then in the guard, apart from those.
func (h *heapPass) headersWritten(proven map[string]bool) []string {
	var out []string
	for key := range h.headersW {
		rt := h.roots[key]
		t := h.info.TypeOf(rt.path)
		holders := []string{"flat:" + h.canon(rt.path), "rows:" + h.canon(rt.path)}
		ok := true
		for level := range rt.depth {
			t = elemType(t)
			if !h.written(t) {
				continue
			}
			hold := h.roots[holders[level]]
			ok = ok && !h.overlaps(h.plainW, t) && hold != nil && proven[holders[level]] && !hold.written
		}
		if !ok {
			out = append(out, key)
		}
	}
	return out
}
