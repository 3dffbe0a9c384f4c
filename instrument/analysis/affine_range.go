package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// This file reads the footprint of an access (depend.go): through a
// contained sub-slice, its bounds; of X[e], e's least and greatest values
// over the ranges of the body's loop variables.

// subFoot is the footprint of an access of the goroutine body through a
// contained sub-slice (an element s[k], or the elements of s or of
// X[lo:hi] used whole), with its root; nil when a is no such access or its
// footprint cannot be read.
func (h *heapPass) subFoot(a access) (*heapRoot, foot, bool) {
	inner, _ := h.subAccess(a)
	if inner == nil {
		return nil, foot{}, false
	}
	st := h.affine()
	st.through[a.e] = h.subRoot(inner)
	off, srcs, sub, ok := h.subOffset(inner)
	if !ok {
		return nil, foot{}, false
	}
	rt := h.rootOf(sub.X)
	if rt == nil || rt.rows {
		return nil, foot{}, false
	}
	f, ok := h.sliceFoot(inner, off, srcs)
	return rt, f, ok
}

// sliceFoot is the footprint of an access through the contained sub-slice
// inner, off the lows of the sub-slices it is taken of (srcs their
// expressions): [off+lo, off+hi), whatever the index, Go's bounds checks
// keeping every access within the sub-slice's length.
func (h *heapPass) sliceFoot(inner *ast.SliceExpr, off poly, srcs []ast.Expr) (foot, bool) {
	if inner.High == nil {
		return foot{}, false
	}
	lo := inner.Low
	if lo == nil {
		lo = zeroLit
	}
	l, ok := h.polyOf(lo, 0)
	var chunkHis []poly
	if !ok {
		// dst := q[lo:hi] with [lo, hi) a chunk [f(i), f(i+step)) whose f
		// polyOf cannot read (w*n/k): its bound symbols.
		fam, isChunk := h.chunk(lo, inner.High)
		if !isChunk {
			return foot{}, false
		}
		l, chunkHis = chunkLo(fam), []poly{chunkHi(fam).add(off, 1)}
	}
	l = l.add(off, 1)
	// The bounds may use the body's loop variables (c := C[i*n:(i+1)*n]
	// inside for i := lo; i < hi): every iteration's sub-slice lies within
	// [least lo, greatest hi).
	var raw []poly
	if chunkHis == nil {
		hiArgs := []ast.Expr{inner.High}
		if call, ok := h.resolve(inner.High).(*ast.CallExpr); ok && isBuiltin(call, "min", h.info) {
			hiArgs = call.Args
		}
		for _, e := range hiArgs {
			if p, ok := h.polyOf(e, 0); ok {
				raw = append(raw, p.add(off, 1))
			}
		}
	}
	keep := h.cyclicSym(append([]poly{l}, raw...)...)
	var signs []ast.Expr
	if l, ok = h.extremeKeeping(l, keep, false, &signs, 0); !ok {
		return foot{}, false
	}
	his := chunkHis
	for _, p := range raw {
		if p, ok := h.extremeKeeping(p, keep, true, &signs, 0); ok {
			his = append(his, p)
		}
	}
	srcs = append(append([]ast.Expr{}, srcs...), lo, inner.High)
	if keep != "" {
		return h.cyclicFoot(keep, l, his, srcs, signs)
	}
	return h.footOf(l, his, srcs, signs)
}

// subAccess is the contained sub-slice an access of the goroutine body
// goes through (an element s[k], then k too, or the elements of s or of
// X[lo:hi] used whole), with a high bound; nil when none.
func (h *heapPass) subAccess(a access) (*ast.SliceExpr, ast.Expr) {
	var sub *ast.SliceExpr
	var k ast.Expr
	if a.elems {
		sub = h.subSlice(a.e)
	} else {
		e := ast.Unparen(a.e)
		for {
			if sel, ok := e.(*ast.SelectorExpr); ok {
				if s := h.info.Selections[sel]; s != nil && s.Kind() == types.FieldVal && !isPtr(h.info.TypeOf(sel.X)) {
					e = ast.Unparen(sel.X)
					continue
				}
			}
			if ix, ok := e.(*ast.IndexExpr); ok {
				if _, arr := underlying(h.info.TypeOf(ix.X)).(*types.Array); arr {
					e = ast.Unparen(ix.X)
					continue
				}
			}
			break
		}
		if ix, ok := e.(*ast.IndexExpr); ok {
			if _, slice := underlying(h.info.TypeOf(ix.X)).(*types.Slice); slice {
				sub, k = h.subSlice(ix.X), ix.Index
			}
		}
	}
	if sub == nil || sub.High == nil {
		return nil, nil
	}
	return sub, k
}

// subOffset reads a sub-slice of contained sub-slices (row :=
// slab[lo:hi]) as X[off+lo : off+hi], off the sum of the outer
// sub-slices' lows: exact, whatever the capacities (a reslicing may reach
// past len). It returns off, the lows' expressions and the outermost
// sub-slice.
func (h *heapPass) subOffset(inner *ast.SliceExpr) (poly, []ast.Expr, *ast.SliceExpr, bool) {
	off := polyConst(0)
	srcs := []ast.Expr{}
	sub := inner
	for outer := h.subSlice(sub.X); outer != nil; outer = h.subSlice(outer.X) {
		if len(srcs) > 8 {
			return poly{}, nil, nil, false
		}
		if outer.Low != nil {
			p, ok := h.polyOf(outer.Low, 0)
			if !ok {
				return poly{}, nil, nil, false
			}
			off = off.add(p, 1)
			srcs = append(srcs, outer.Low)
		}
		sub = outer
	}
	return off, srcs, sub, true
}

// subRoot is the flat root a contained sub-slice (perhaps of contained
// sub-slices) is taken of, or nil: its elements are that root's, even past
// its length (a reslicing reaches up to the capacity, which the guard's
// spans cover).
func (h *heapPass) subRoot(sub *ast.SliceExpr) *heapRoot {
	for k := 0; k < 8; k++ {
		outer := h.subSlice(sub.X)
		if outer == nil {
			rt := h.rootOf(sub.X)
			if rt == nil || rt.rows {
				return nil
			}
			return rt
		}
		sub = outer
	}
	return nil
}

// indexFoot is the footprint of X[e], e the subscript.
func (h *heapPass) indexFoot(e ast.Expr) (foot, bool) {
	p, ok := h.polyOf(e, 0)
	if !ok {
		return foot{}, false
	}
	var signs []ast.Expr
	keep := h.cyclicSym(p)
	lo, ok1 := h.extremeKeeping(p, keep, false, &signs, 0)
	hi, ok2 := h.extremeKeeping(p, keep, true, &signs, 0)
	if !ok1 || !ok2 {
		return foot{}, false
	}
	if keep != "" {
		return h.cyclicFoot(keep, lo, []poly{hi.add(polyConst(1), 1)}, []ast.Expr{e}, signs)
	}
	return h.footOf(lo, []poly{hi.add(polyConst(1), 1)}, []ast.Expr{e}, signs)
}

// fileFoot files the footprint of an access of the goroutine body: through
// a contained sub-slice (then its root is returned, the access having no
// other), or X[idx] of the flat root rt. A flat root with an access whose
// footprint cannot be read gets no hull.
func (h *heapPass) fileFoot(a access, rt *heapRoot, idx ast.Expr) (*heapRoot, foot, bool) {
	st := h.affine()
	if srt, raw, ok := h.subRaw(a); ok {
		st.raws[srt] = append(st.raws[srt], raw)
	}
	if srt, f, ok := h.subFoot(a); ok {
		st.feet[srt] = append(st.feet[srt], f)
		return srt, f, true
	}
	if rt == nil || rt.rows {
		return nil, foot{}, false
	}
	if idx != nil && !a.elems {
		st.monoSyms = true
		p, ok := h.polyOf(idx, 0)
		st.monoSyms = false
		if ok {
			st.raws[rt] = append(st.raws[rt], rawAccess{p: p, write: a.mode&write != 0, srcs: []ast.Expr{idx}})
		}
		if f, ok := h.indexFoot(idx); ok {
			st.feet[rt] = append(st.feet[rt], f)
			return rt, f, true
		}
	}
	st.noFoot[rt] = true
	return nil, foot{}, false
}

// extreme is the least (or, with max, the greatest) value of p over the
// ranges of the body's loop variables, as a polynomial in the loop index
// and the invariants: each variable, innermost first, is replaced by the
// end of its range that its coefficient's sign selects. A coefficient is a
// constant, or a polynomial of invariants and the loop index with
// positive constant factors (i*n with n an invariant): it is ≥ 0 when its
// invariants are, which signs receives as run-time conditions (the index
// is ≥ 0 by indexRange's).
func (h *heapPass) extreme(p poly, max bool, signs *[]ast.Expr, depth int) (poly, bool) {
	return h.extremeKeeping(p, "", max, signs, depth)
}

// extremeKeeping is extreme with the loop variable keep left in place (a
// cyclic distribution's variable, cyclic.go).
func (h *heapPass) extremeKeeping(p poly, keep string, max bool, signs *[]ast.Expr, depth int) (poly, bool) {
	var js []string
	for _, s := range p.symbols("@j") {
		if s != keep {
			js = append(js, s)
		}
	}
	if len(js) == 0 {
		return p, true
	}
	if depth > 8 {
		return poly{}, false
	}
	st := h.affine()
	sort.Slice(js, func(a, b int) bool { return st.inner[js[a]].Pos() > st.inner[js[b]].Pos() })
	s := js[0]
	coef, rest, ok := p.split(s)
	if !ok {
		return poly{}, false
	}
	lo, hi, ok := h.innerPolys(st.inner[s])
	if !ok {
		return poly{}, false
	}
	need, ok := h.stepConds(st.inner[s])
	if !ok {
		return poly{}, false
	}
	*signs = append(*signs, need...)
	if c, isConst := coef.constant(); isConst {
		end := lo
		if c > 0 == max {
			end = hi
		}
		return h.extremeKeeping(rest.add(end.scale(c), 1), keep, max, signs, depth+1)
	}
	if !h.nonNegativeCoef(coef, signs) {
		return poly{}, false
	}
	end := lo
	if max {
		end = hi
	}
	prod, ok := coef.mul(end)
	if !ok {
		return poly{}, false
	}
	return h.extremeKeeping(rest.add(prod, 1), keep, max, signs, depth+1)
}

// nonNegativeCoef reports whether the symbolic coefficient c is ≥ 0 when
// the invariants it uses are, adding those conditions to signs: every
// monomial's factor is positive and its symbols are invariants or the
// loop index, and the constant is ≥ 0.
func (h *heapPass) nonNegativeCoef(c poly, signs *[]ast.Expr) bool {
	if c.k < 0 {
		return false
	}
	st := h.affine()
	for m, k := range c.terms {
		if k <= 0 {
			return false
		}
		for _, x := range strings.Split(m, symSep) {
			if x == "@i" {
				continue
			}
			a := st.atoms[x]
			if a == nil {
				return false // a loop variable of the body: its sign is another matter
			}
			if call, ok := a.(*ast.CallExpr); ok && isBuiltin(call, "len", h.info) {
				continue
			}
			var divs []ast.Expr
			e, ok := h.atStart(a, nil, &divs, 0)
			if !ok || len(divs) > 0 {
				return false
			}
			*signs = append(*signs, &ast.BinaryExpr{X: e, Op: token.GEQ, Y: intLit(0)})
		}
	}
	return true
}

// boundPoly reads a bound as a polynomial: e itself, or when e is
// min(…) (an upper bound) or max(…) (a lower one), its first argument
// polyOf reads — a bound of the same side.
func (h *heapPass) boundPoly(e ast.Expr, fn string) (poly, bool) {
	if p, ok := h.polyOf(e, 0); ok {
		return p, true
	}
	if call, ok := h.resolve(e).(*ast.CallExpr); ok && isBuiltin(call, fn, h.info) {
		for _, a := range call.Args {
			if p, ok := h.polyOf(a, 0); ok {
				return p, true
			}
		}
	}
	return poly{}, false
}

// innerPolys is the range [lo, hi] (both included) of a loop variable of
// the body (hi an upper bound of it, lo a lower one).
func (h *heapPass) innerPolys(v *types.Var) (lo, hi poly, ok bool) {
	l, b, ok := h.innerRange(v)
	if !ok || b.e == nil {
		return poly{}, poly{}, false
	}
	lo, ok1 := h.boundPoly(l, "max")
	hi, ok2 := h.boundPoly(b.e, "min")
	if !ok1 || !ok2 {
		// A chunk [f(i), f(i+step)) with f beyond polynomials (w*n/k):
		// v ranges over [F0, F1-1], F0 and F1 the chunk's bound symbols.
		fam, isChunk := h.family(v)
		if !isChunk || fam == "idx" {
			return poly{}, poly{}, false
		}
		return chunkLo(fam), chunkHi(fam).add(polyConst(1), -1), true
	}
	if b.minus != nil {
		m, ok := h.polyOf(b.minus, 0)
		if !ok {
			return poly{}, poly{}, false
		}
		hi = hi.add(m, -1)
	}
	if !b.incl {
		hi = hi.add(polyConst(1), -1)
	}
	return lo, hi, true
}
