package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// This file is the band test for cyclic distributions: a goroutine body
// that takes every S-th value of a loop variable from its own index,
//
//	for v := i + c0; v < E; v += S   (i the construct's index)
//
// (syrk's rows dealt to workers, row i to worker i mod workers). The values
// of v in iteration i are ≡ i + c0 (mod S), so when the construct's
// indices span fewer than S values (last - first < S) no two iterations
// share a value of v. The band test then runs in v instead of i: an
// access whose footprint lies within [v·P + a, v·P + bmax) with
// bmax - a ≤ P for every v of the loop touches elements no other value of
// v, and so no other iteration, touches. The loop's range holds only when
// S ≥ 1 and v += S does not wrap (stepConds), run-time conditions as the
// rest.

// stepParts matches for v := init; v < hi (or <=); v += s with s a
// constant ≥ 1 or an invariant int value.
func (h *heapPass) stepParts(l *ast.ForStmt, v *types.Var) (ast.Expr, *ast.BinaryExpr, ast.Expr, bool) {
	p, ok := l.Post.(*ast.AssignStmt)
	if !ok || p.Tok != token.ADD_ASSIGN || len(p.Lhs) != 1 || len(p.Rhs) != 1 {
		return nil, nil, nil, false
	}
	if id, ok := ast.Unparen(p.Lhs[0]).(*ast.Ident); !ok || h.info.Uses[id] != v {
		return nil, nil, nil, false
	}
	s := p.Rhs[0]
	if !h.isInt(s) {
		return nil, nil, nil, false
	}
	if k, isConst := h.r.finder.intConst(s); isConst && k < 1 || !isConst && !h.invariant(s, 0) {
		return nil, nil, nil, false
	}
	one := *l
	one.Post = &ast.IncDecStmt{X: p.Lhs[0], Tok: token.INC}
	init, cond, ok := forParts(&one, v, h.info)
	return init, cond, s, ok
}

// stepConds are the conditions under which the loop variable v, of a loop
// v += s, stays in its range [init, hi): s ≥ 1, and hi + s does not wrap.
// None for a loop of v++ (or not a loop variable).
func (h *heapPass) stepConds(v *types.Var) ([]ast.Expr, bool) {
	_, b, ok := h.innerRange(v)
	if !ok || b.step == nil {
		return nil, true
	}
	var conds []ast.Expr
	var s ast.Expr
	if k, isConst := h.r.finder.intConst(b.step); isConst {
		if k < 1 || k > maxInt32 {
			return nil, false
		}
		s = intLit(k)
	} else {
		var divs []ast.Expr
		e, ok := h.atStart(b.step, nil, &divs, 0)
		if !ok || len(divs) > 0 {
			return nil, false
		}
		s = e
		conds = append(conds, &ast.BinaryExpr{X: e, Op: token.GEQ, Y: intLit(1)})
	}
	mHi, ok := h.magnitude(b.e, &conds, 0)
	if !ok {
		return nil, false
	}
	return append(conds, &ast.BinaryExpr{X: mHi, Op: token.LEQ, Y: &ast.BinaryExpr{X: maxInt(), Op: token.SUB, Y: s}}), true
}

// cyclicSym is the symbol of the first loop variable of ps that is a
// cyclic distribution's, or "".
func (h *heapPass) cyclicSym(ps ...poly) string {
	st := h.affine()
	for _, p := range ps {
		for _, s := range p.symbols("@j") {
			if _, _, ok := h.cyclic(st.inner[s]); ok {
				return s
			}
		}
	}
	return ""
}

// cyclic reads the loop of v as for v := i + c0; v < E; v += S: c0 and S,
// invariant polynomials.
func (h *heapPass) cyclic(v *types.Var) (c0, S poly, ok bool) {
	init, b, ok := h.innerRange(v)
	if !ok || b.step == nil || b.minus != nil {
		return poly{}, poly{}, false
	}
	ip, ok := h.polyOf(init, 0)
	if !ok {
		return poly{}, poly{}, false
	}
	coef, c0, ok := ip.split("@i")
	if k, isConst := coef.constant(); !ok || !isConst || k != 1 || !invariantPoly(c0) {
		return poly{}, poly{}, false
	}
	S, ok = h.polyOf(b.step, 0)
	if !ok || !invariantPoly(S) {
		return poly{}, poly{}, false
	}
	return c0, S, true
}

// cyclicFoot is footOf in the cyclic loop variable sym: lo and his are
// polynomials in it and invariants only.
func (h *heapPass) cyclicFoot(sym string, lo poly, his []poly, srcs, signs []ast.Expr) (foot, bool) {
	if !h.universalAtStart("int", "uint") {
		return foot{}, false
	}
	v := h.affine().inner[sym]
	c0, S, ok := h.cyclic(v)
	if !ok {
		return foot{}, false
	}
	_, b, _ := h.innerRange(v)
	E, ok := h.boundPoly(b.e, "min")
	if !ok || !invariantPoly(E) {
		return foot{}, false
	}
	last := E
	if !b.incl {
		last = E.add(polyConst(1), -1)
	}
	first, lastI, conds, ok := h.indexRange()
	if !ok {
		return foot{}, false
	}
	// The indices span fewer than S values: S - (last - first) - 1 ≥ 0.
	dc, ok := h.nonNegative(S.add(lastI.add(first, -1), -1).add(polyConst(1), -1))
	if !ok {
		return foot{}, false
	}
	conds = append(conds, dc...)
	need, ok := h.stepConds(v)
	if !ok {
		return foot{}, false
	}
	conds = append(conds, need...)
	P, a, ok := lo.split(sym)
	if !ok || !invariantPoly(P) || !invariantPoly(a) || len(P.terms) == 0 && P.k == 0 {
		return foot{}, false
	}
	vP, ok := P.mul(polySym(sym))
	if !ok {
		return foot{}, false
	}
	for _, e := range srcs {
		if _, ok := h.magnitude(e, &conds, 0); !ok {
			return foot{}, false
		}
	}
	conds = append(conds, signs...)
	var cands []foot
	for _, hi := range his {
		c, b0, ok := hi.add(vP, -1).split(sym)
		k, isConst := c.constant()
		if !ok || !isConst || k < 0 || !invariantPoly(b0) {
			continue
		}
		bmax := b0
		if k > 0 {
			bmax = b0.add(last.scale(k), 1)
		}
		f := foot{P: P, a: a, bmax: bmax, conds: conds, fam: "cyc:" + S.key() + "|" + c0.key(), width: P}
		cands = append(cands, f)
	}
	return h.bestFoot(cands)
}
