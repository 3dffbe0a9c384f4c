package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// This file is the dependence test on footprints (affine.go's
// polynomials). The footprint of an access in iteration i is an interval
// of its slice's elements, [L, H): for X[e], L and H+1 are e's least and
// greatest values over the ranges of the body's loop variables (Banerjee's
// bounds: each variable, innermost first, replaced by the end of its range
// its constant coefficient's sign selects); for an access through a
// contained sub-slice s := X[lo:hi] (s indexed, ranged over, copied or
// cleared, nothing else), [lo, hi), Go's bounds checks keeping every
// access inside. A min(…) upper bound gives one candidate H per argument.
//
// The test ("band"): write L = i·P + a, with a free of i, and H = i·P + b,
// b = c·i + b0 with c a constant. Over the loop, a is fixed and b at most
// bmax (b at the last index for c > 0, at the first for c < 0). When
//
//	bmax - a ≤ P
//
// iteration i stays within [i·P + a, i·P + a + P), and these bands are
// disjoint for i1 ≠ i2 (if P ≥ 0; if P < 0 the condition makes every
// footprint empty). This one test proves flat rows i*N+j with 0 ≤ j < N,
// triangular rows (j < i, i < N), row slices C[i*N:(i+1)*N] and blocked
// ranges [b*BS, min((b+1)*BS, N)). Accesses of the same band share one form
// "band:P|a"; heap.go's owned() then asks every access of a written slice
// to be in the same band. Where the forms disagree, the hull of all the
// slice's footprints (same P, least a, greatest bmax) may pass the test
// instead: a[2*i] and a[2*i+1] written by iteration i.
//
// Conditions: when bmax - a ≤ P holds only for some values of the
// invariants (N ≥ M for j < M), it is tested at run time, as a - b ≥ k
// over two invariants. And the polynomials are mathematical integers: the
// proof holds only if no step of the program's arithmetic wraps, which is
// tested at run time too (magnitude): each expression's magnitude is
// bounded by replacing - with +, constants by their absolute value, the
// loop index by its loop's bound, a loop variable by the sum of its
// bounds' magnitudes, and the invariants (required ≥ 0) by themselves; a
// condition per + and * says that bound does not exceed maxInt, in an
// order where each is computed only once the ones before hold. The
// conditions join the construct's guard (GuardSpan.Cond), evaluated once
// before forking; when one fails, the checked copy runs.

// foot is an access's footprint in band terms: it lies within
// [i·P + a, i·P + bmax) in every iteration i, when conds hold.
type foot struct {
	P, a, bmax poly
	conds      []ast.Expr
	fam        string // a chunk band's family (chunk.go), or "" for the loop index's band
	// width is the band's width: P, or P·s for a loop index stepping by s
	// (indices s apart, so bands of P·s elements do not meet).
	width poly
}

// footOf reads the footprint [lo, H) of an access, H at most each of his,
// srcs the source expressions whose values the polynomials stand for,
// signs the conditions extreme needed (evaluated after the others): of
// the candidates, the one the band test passes without a condition, else
// with one, else the first with a constant coefficient of i.
func (h *heapPass) footOf(lo poly, his []poly, srcs []ast.Expr, signs []ast.Expr) (foot, bool) {
	if len(lo.symbols("@j")) > 0 || !h.universalAtStart("int", "uint") {
		return foot{}, false
	}
	first, last, conds, ok := h.indexRange()
	if !ok {
		return foot{}, false
	}
	if fam := chunkFamOf(lo); fam != "" {
		return h.chunkFoot(fam, lo, his, srcs, append(conds, signs...))
	}
	P, a, ok := lo.split("@i")
	if !ok || len(P.terms) == 0 && P.k == 0 || len(P.symbols("@j")) > 0 {
		return foot{}, false
	}
	iP, ok := P.mul(polySym("@i"))
	if !ok {
		return foot{}, false
	}
	for _, e := range srcs {
		if _, ok := h.magnitude(e, &conds, 0); !ok {
			return foot{}, false
		}
	}
	conds = append(conds, signs...)
	// A loop stepping by s (i += bs): the indices are at least s apart,
	// and when P ≥ 0 so are their bands, by P·s; when P < 0 the test
	// makes every footprint empty, as with a step of 1.
	width := P
	if h.step != nil {
		if sp, ok := h.polyOf(h.step, 0); ok && invariantPoly(sp) {
			if w, ok := P.mul(sp); ok {
				width = w
			}
		}
	}
	var cands []foot
	for _, hi := range his {
		if len(hi.symbols("@j")) > 0 {
			continue
		}
		c, b0, ok := hi.add(iP, -1).split("@i")
		k, isConst := c.constant()
		if !ok || !isConst {
			continue
		}
		bmax := b0
		switch {
		case k > 0:
			bmax = b0.add(last.scale(k), 1)
		case k < 0:
			bmax = b0.add(first.scale(k), 1)
		}
		f := foot{P: P, a: a, bmax: bmax, conds: conds, width: width}
		cands = append(cands, f)
	}
	return h.bestFoot(cands)
}

// bestFoot is the candidate the band test passes without a condition,
// else with one, else the first (its test then fails in bandForm).
func (h *heapPass) bestFoot(cands []foot) (foot, bool) {
	best, rank := -1, 3
	for k, f := range cands {
		r := 2
		if dc, ok := h.nonNegative(f.slack()); ok {
			r = min(len(dc), 1)
		}
		if r < rank {
			best, rank = k, r
		}
	}
	if best < 0 {
		return foot{}, false
	}
	return cands[best], true
}

// slack is P - (bmax - a): the band test holds when it is ≥ 0.
func (f foot) slack() poly { return f.width.add(f.bmax.add(f.a, -1), -1) }

// bandForm runs the band test on one footprint of root rt and returns its
// form "band:P|a", recording the run-time conditions on rt, or "".
func (h *heapPass) bandForm(rt *heapRoot, f foot) string {
	dc, ok := h.nonNegative(f.slack())
	if !ok {
		return ""
	}
	h.addConds(rt, append(dc, f.conds...))
	if f.fam != "" {
		return "band[" + f.fam + "]:" + f.P.key() + "|" + f.a.key()
	}
	return "band:" + f.P.key() + "|" + f.a.key()
}

// hull runs the band test on the union of rt's footprints, when every
// access of rt has one and they share P: the least a and the greatest bmax
// must differ from the others' by constants. It reports whether the test
// passes, and the conditions it needs.
func (h *heapPass) hull(rt *heapRoot) ([]ast.Expr, bool) {
	st := h.affine()
	fs := st.feet[rt]
	if len(fs) == 0 || st.noFoot[rt] {
		return nil, false
	}
	u := fs[0]
	var conds []ast.Expr
	for _, f := range fs {
		if f.P.key() != u.P.key() || f.fam != u.fam {
			return nil, false
		}
		da, ok1 := f.a.add(u.a, -1).constant()
		db, ok2 := f.bmax.add(u.bmax, -1).constant()
		if !ok1 || !ok2 {
			return nil, false
		}
		if da < 0 {
			u.a = f.a
		}
		if db > 0 {
			u.bmax = f.bmax
		}
		conds = append(conds, f.conds...)
	}
	dc, ok := h.nonNegative(u.slack())
	if !ok {
		return nil, false
	}
	return append(dc, conds...), true
}

// addConds records run-time conditions of rt's band forms, once each.
func (h *heapPass) addConds(rt *heapRoot, conds []ast.Expr) {
	st := h.affine()
	seen := map[string]bool{}
	for _, c := range st.conds[rt] {
		seen[types.ExprString(c)] = true
	}
	for _, c := range conds {
		if s := types.ExprString(c); !seen[s] {
			seen[s] = true
			st.conds[rt] = append(st.conds[rt], c)
		}
	}
}

// nonNegative returns the conditions under which d ≥ 0: none when d is a
// constant ≥ 0; x - y ≥ -k when d is x - y + k over two invariants (or one
// of them), computed without wrapping as both are required ≥ 0; it fails
// otherwise.
func (h *heapPass) nonNegative(d poly) ([]ast.Expr, bool) {
	if k, ok := d.constant(); ok {
		return nil, k >= 0
	}
	if conds, ok := h.positiveSum(d); ok {
		return conds, true
	}
	st := h.affine()
	var pos, neg ast.Expr
	scale := int64(1) // neg's factor
	for m, c := range d.terms {
		x := st.atoms[m]
		if x == nil || strings.Contains(m, symSep) {
			return nil, false
		}
		var divs []ast.Expr
		e, ok := h.atStart(x, nil, &divs, 0)
		if !ok || len(divs) > 0 {
			return nil, false
		}
		switch {
		case c == 1 && pos == nil:
			pos = e
		case c < 0 && c >= -maxInt32 && neg == nil:
			neg, scale = e, -c
		default:
			return nil, false
		}
	}
	if d.k > maxInt32 || d.k < -maxInt32 {
		return nil, false
	}
	if scale > 1 {
		return scaledNonNegative(pos, neg, scale, d.k)
	}
	var conds []ast.Expr
	lhs := pos
	switch {
	case pos == nil:
		lhs = &ast.UnaryExpr{Op: token.SUB, X: neg}
		conds = append(conds, &ast.BinaryExpr{X: neg, Op: token.GEQ, Y: intLit(0)})
	case neg != nil:
		lhs = &ast.BinaryExpr{X: pos, Op: token.SUB, Y: neg}
		conds = append(conds, &ast.BinaryExpr{X: pos, Op: token.GEQ, Y: intLit(0)}, &ast.BinaryExpr{X: neg, Op: token.GEQ, Y: intLit(0)})
	default:
		conds = append(conds, &ast.BinaryExpr{X: pos, Op: token.GEQ, Y: intLit(0)})
	}
	return append(conds, &ast.BinaryExpr{X: lhs, Op: token.GEQ, Y: intLit(-d.k)}), true
}

// scaledNonNegative returns the conditions under which pos - k·neg + c ≥ 0
// (k ≥ 2, pos and neg invariants required ≥ 0; pos may be absent): k·neg
// ≤ pos + c, tested as neg ≤ (pos + c)/k once pos + c is known to be ≥ 0
// and not to wrap (the quotient rounds down, which for a non-negative
// dividend is exact enough: k·neg ≤ n ⟺ neg ≤ ⌊n/k⌋). Rows of 4·w bytes
// within a stride (imaging's Stride - 4·w ≥ 0, cbitems.go).
func scaledNonNegative(pos, neg ast.Expr, k, c int64) ([]ast.Expr, bool) {
	conds := []ast.Expr{&ast.BinaryExpr{X: neg, Op: token.GEQ, Y: intLit(0)}}
	var n ast.Expr = intLit(c)
	if pos != nil {
		conds = append(conds, &ast.BinaryExpr{X: pos, Op: token.GEQ, Y: intLit(0)})
		switch {
		case c > 0:
			conds = append(conds, &ast.BinaryExpr{X: pos, Op: token.LEQ, Y: &ast.BinaryExpr{X: maxInt(), Op: token.SUB, Y: intLit(c)}})
			n = &ast.BinaryExpr{X: pos, Op: token.ADD, Y: intLit(c)}
		case c < 0:
			conds = append(conds, &ast.BinaryExpr{X: pos, Op: token.GEQ, Y: intLit(-c)})
			n = &ast.BinaryExpr{X: pos, Op: token.SUB, Y: intLit(-c)}
		default:
			n = pos
		}
	} else if c < 0 {
		return nil, false
	}
	return append(conds, &ast.BinaryExpr{X: neg, Op: token.LEQ, Y: &ast.BinaryExpr{X: &ast.ParenExpr{X: n}, Op: token.QUO, Y: intLit(k)}}), true
}

// conjunction is c1 && c2 && …, in order.
func conjunction(conds []ast.Expr) ast.Expr {
	out := conds[0]
	for _, c := range conds[1:] {
		out = &ast.BinaryExpr{X: out, Op: token.LAND, Y: c}
	}
	return out
}

// maxInt32 bounds the constants of the run-time conditions: within it they
// proveHull reports whether the written root rt is proven by the band
// test on the union of its accesses' footprints (writes a[2*i] and
// a[2*i+1] in one iteration), remembering the conditions.
func (h *heapPass) proveHull(rt *heapRoot) bool {
	if h.aff == nil {
		return false
	}
	conds, ok := h.hull(rt)
	if ok {
		h.aff.hulls[rt] = conds
		if len(conds) == 0 {
			h.aff.hulls[rt] = []ast.Expr{} // proven, unconditionally
		}
	}
	return ok
}

// bandConds are the run-time conditions rt's proof needs: its hull's when
// the hull proved it, else its band forms'.
func (h *heapPass) bandConds(rt *heapRoot) []ast.Expr {
	if c, ok := h.aff.hulls[rt]; ok {
		var out []ast.Expr
		seen := map[string]bool{}
		for _, e := range c {
			if s := types.ExprString(e); !seen[s] {
				seen[s] = true
				out = append(out, e)
			}
		}
		return out
	}
	return h.aff.conds[rt]
}

// positiveSum returns the conditions under which d ≥ 0 when every monomial
// of d has a positive coefficient and the constant is ≥ 0 (the slack 2n+2
// of a three-level stencil's band): each monomial's invariants are
// required ≥ 0, and then so is every product and the sum. It fails when a
// coefficient or the constant is negative, or a symbol is not an
// invariant the construct's start can evaluate.
func (h *heapPass) positiveSum(d poly) ([]ast.Expr, bool) {
	if d.k < 0 || len(d.terms) == 0 {
		return nil, false
	}
	st := h.affine()
	var conds []ast.Expr
	seen := map[string]bool{}
	for m, c := range d.terms {
		if c <= 0 {
			return nil, false
		}
		for _, s := range strings.Split(m, symSep) {
			x := st.atoms[s]
			if x == nil {
				return nil, false
			}
			if seen[s] {
				continue
			}
			seen[s] = true
			var divs []ast.Expr
			e, ok := h.atStart(x, nil, &divs, 0)
			if !ok || len(divs) > 0 {
				return nil, false
			}
			conds = append(conds, &ast.BinaryExpr{X: e, Op: token.GEQ, Y: intLit(0)})
		}
	}
	sort.Slice(conds, func(a, b int) bool { return types.ExprString(conds[a]) < types.ExprString(conds[b]) })
	return conds, true
}
