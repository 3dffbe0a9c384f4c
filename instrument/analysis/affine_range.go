package analysis

import (
	"go/ast"
	"go/types"
	"sort"
)

// This file reads the footprint of an access (depend.go): through a
// contained sub-slice, its bounds; of X[e], e's least and greatest values
// over the ranges of the body's loop variables.

// subFoot is the footprint of an access of the goroutine body through a
// contained sub-slice (an element s[k], or the elements of s or of
// X[lo:hi] used whole), with its root; nil when a is no such access or its
// footprint cannot be read.
func (h *heapPass) subFoot(a access) (*heapRoot, foot, bool) {
	var sub *ast.SliceExpr
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
				sub = h.subSlice(ix.X)
			}
		}
	}
	if sub == nil || sub.High == nil {
		return nil, foot{}, false
	}
	rt := h.rootOf(sub.X)
	if rt == nil || rt.rows {
		return nil, foot{}, false
	}
	lo := sub.Low
	if lo == nil {
		lo = zeroLit
	}
	l, ok := h.polyOf(lo, 0)
	if !ok {
		return nil, foot{}, false
	}
	var his []poly
	hiArgs := []ast.Expr{sub.High}
	if call, ok := h.resolve(sub.High).(*ast.CallExpr); ok && isBuiltin(call, "min", h.info) {
		hiArgs = call.Args
	}
	for _, e := range hiArgs {
		if p, ok := h.polyOf(e, 0); ok {
			his = append(his, p)
		}
	}
	f, ok := h.footOf(l, his, []ast.Expr{lo, sub.High})
	return rt, f, ok
}

// indexFoot is the footprint of X[e], e the subscript.
func (h *heapPass) indexFoot(e ast.Expr) (foot, bool) {
	p, ok := h.polyOf(e, 0)
	if !ok {
		return foot{}, false
	}
	lo, ok1 := h.extreme(p, false, 0)
	hi, ok2 := h.extreme(p, true, 0)
	if !ok1 || !ok2 {
		return foot{}, false
	}
	return h.footOf(lo, []poly{hi.add(polyConst(1), 1)}, []ast.Expr{e})
}

// fileFoot files the footprint of an access of the goroutine body: through
// a contained sub-slice (then its root is returned, the access having no
// other), or X[idx] of the flat root rt. A flat root with an access whose
// footprint cannot be read gets no hull.
func (h *heapPass) fileFoot(a access, rt *heapRoot, idx ast.Expr) (*heapRoot, foot, bool) {
	st := h.affine()
	if srt, f, ok := h.subFoot(a); ok {
		st.feet[srt] = append(st.feet[srt], f)
		return srt, f, true
	}
	if rt == nil || rt.rows {
		return nil, foot{}, false
	}
	if idx != nil && !a.elems {
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
// end of its range that its constant coefficient's sign selects.
func (h *heapPass) extreme(p poly, max bool, depth int) (poly, bool) {
	js := p.symbols("@j")
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
	c, isConst := coef.constant()
	if !ok || !isConst {
		return poly{}, false
	}
	lo, hi, ok := h.innerPolys(st.inner[s])
	if !ok {
		return poly{}, false
	}
	end := lo
	if c > 0 == max {
		end = hi
	}
	return h.extreme(rest.add(end.scale(c), 1), max, depth+1)
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
		return poly{}, poly{}, false
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
