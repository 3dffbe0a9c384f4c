package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
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

// findContained marks the sub-slices of the goroutine body whose every use
// stays within their bounds (len of the sub-slice): X[lo:hi] ranged over,
// copied or cleared, or s := X[lo:hi] with s, a local nothing assigns
// again, only indexed (never taking an element's address), ranged over,
// measured, copied or cleared, and not used in a function literal. Either
// may also be passed to a callee walked in place that uses its parameter
// only so (containedParam); the parameter then stands for the sub-slice.
func (h *heapPass) findContained() {
	st := h.aff
	uses := map[*types.Var]bool{} // false once a use escapes
	var defs []struct {
		v  *types.Var
		sl *ast.SliceExpr
	}
	var links [][2]*types.Var // a callee's parameter bound to a local sub-slice
	var stack []ast.Node
	ast.Inspect(h.fk.Body.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		switch x := n.(type) {
		case *ast.SliceExpr:
			if _, slice := underlying(h.info.TypeOf(x.X)).(*types.Slice); !slice {
				return true
			}
			switch p := parent.(type) {
			case *ast.RangeStmt:
				if p.X == x {
					st.contained[x] = true
				}
			case *ast.CallExpr:
				if isBuiltin(p, "copy", h.info) || isBuiltin(p, "clear", h.info) {
					st.contained[x] = true
				} else if pv := h.containedParam(p, x); pv != nil {
					st.contained[x] = true
					st.subOf[pv] = x
				}
			case *ast.AssignStmt:
				if p.Tok == token.DEFINE && len(p.Lhs) == len(p.Rhs) {
					for k, r := range p.Rhs {
						if r != x {
							continue
						}
						if id, ok := p.Lhs[k].(*ast.Ident); ok {
							if v, ok := h.info.Defs[id].(*types.Var); ok && h.immutable(v) {
								defs = append(defs, struct {
									v  *types.Var
									sl *ast.SliceExpr
								}{v, x})
							}
						}
					}
				}
			}
		case *ast.Ident:
			v, _ := h.info.Uses[x].(*types.Var)
			if v == nil {
				return true
			}
			ok := uses[v] || !seenUse(uses, v)
			if innermostFuncLit(stack[:len(stack)-1]) != nil {
				ok = false // a function literal of the body: it may run anywhere
			}
			switch p := parent.(type) {
			case *ast.IndexExpr:
				if p.X != x || len(stack) >= 3 && isAddr(stack[len(stack)-3]) {
					ok = false
				}
			case *ast.RangeStmt:
				ok = ok && p.X == x
			case *ast.CallExpr:
				if pv := h.containedParam(p, x); pv != nil {
					links = append(links, [2]*types.Var{pv, v})
				} else {
					ok = ok && (isBuiltin(p, "len", h.info) || isBuiltin(p, "cap", h.info) || isBuiltin(p, "copy", h.info) || isBuiltin(p, "clear", h.info))
				}
			default:
				ok = false
			}
			uses[v] = ok
		}
		return true
	})
	for _, d := range defs {
		if ok, used := uses[d.v]; !used || ok {
			st.contained[d.sl] = true
			st.subOf[d.v] = d.sl
		}
	}
	for _, l := range links {
		if sl := st.subOf[l[1]]; sl != nil {
			st.subOf[l[0]] = sl
		}
	}
}

// containedParam is the parameter that the argument arg of call binds,
// when call's callee is walked in place (indirect.go: called once, its
// parameters bound to the arguments) and uses the parameter only as a
// contained sub-slice: indexed (no element's address), ranged over,
// measured, copied or cleared, never assigned. Else nil.
func (h *heapPass) containedParam(call *ast.CallExpr, arg ast.Expr) *types.Var {
	bc := h.calls[call]
	if bc == nil {
		return nil
	}
	d := h.r.Decls[bc.fn]
	if d == nil || d.Body == nil || d.Recv != nil && len(d.Recv.List) > 0 {
		return nil
	}
	var pv *types.Var
	for k, v := range params(d.Type.Params, h.info) {
		if k < len(call.Args) && call.Args[k] == arg {
			pv = v
		}
	}
	if pv == nil || !h.immutable(pv) {
		return nil
	}
	ok := true
	var stack []ast.Node
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		stack = append(stack, n)
		id, isID := n.(*ast.Ident)
		if !isID || h.info.Uses[id] != pv {
			return ok
		}
		switch p := stack[len(stack)-2].(type) {
		case *ast.IndexExpr:
			ok = ok && p.X == id && !(len(stack) >= 3 && isAddr(stack[len(stack)-3]))
		case *ast.RangeStmt:
			ok = ok && p.X == id
		case *ast.CallExpr:
			ok = ok && (isBuiltin(p, "len", h.info) || isBuiltin(p, "cap", h.info) || isBuiltin(p, "copy", h.info) || isBuiltin(p, "clear", h.info))
		default:
			ok = false
		}
		return ok
	})
	if !ok {
		return nil
	}
	return pv
}

func seenUse(uses map[*types.Var]bool, v *types.Var) bool {
	_, ok := uses[v]
	return ok
}

func isAddr(n ast.Node) bool {
	u, ok := n.(*ast.UnaryExpr)
	return ok && u.Op == token.AND
}

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

// foot is an access's footprint in band terms: it lies within
// [i·P + a, i·P + bmax) in every iteration i, when conds hold.
type foot struct {
	P, a, bmax poly
	conds      []ast.Expr
}

// footOf reads the footprint [lo, H) of an access, H at most each of his,
// srcs the source expressions whose values the polynomials stand for: of
// the candidates, the one the band test passes without a condition, else
// with one, else the first with a constant coefficient of i.
func (h *heapPass) footOf(lo poly, his []poly, srcs []ast.Expr) (foot, bool) {
	if len(lo.symbols("@j")) > 0 || !h.universalAtStart("int", "uint") {
		return foot{}, false
	}
	first, last, conds, ok := h.indexRange()
	if !ok {
		return foot{}, false
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
	var best *foot
	rank := 3
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
		f := foot{P: P, a: a, bmax: bmax, conds: conds}
		r := 2
		if dc, ok := h.nonNegative(f.slack()); ok {
			r = min(len(dc), 1)
		}
		if r < rank {
			best, rank = &f, r
		}
	}
	if best == nil {
		return foot{}, false
	}
	return *best, true
}

// slack is P - (bmax - a): the band test holds when it is ≥ 0.
func (f foot) slack() poly { return f.P.add(f.bmax.add(f.a, -1), -1) }

// bandForm runs the band test on one footprint of root rt and returns its
// form "band:P|a", recording the run-time conditions on rt, or "".
func (h *heapPass) bandForm(rt *heapRoot, f foot) string {
	dc, ok := h.nonNegative(f.slack())
	if !ok {
		return ""
	}
	h.addConds(rt, append(dc, f.conds...))
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
		if f.P.key() != u.P.key() {
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
	st := h.affine()
	var pos, neg ast.Expr
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
		case c == -1 && neg == nil:
			neg = e
		default:
			return nil, false
		}
	}
	if d.k > maxInt32 || d.k < -maxInt32 {
		return nil, false
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

// indexRange is the loop index's first value and the greatest value it
// can take (its bound less one, or the bound of i <= n), as polynomials,
// with the conditions that make them exact: the first value is ≥ 0 (so
// the index's magnitude is at most the bound's), the bounds' arithmetic
// does not wrap, and neither does the index stepping past its bound.
func (h *heapPass) indexRange() (first, last poly, conds []ast.Expr, ok bool) {
	if h.c.Index == nil {
		return poly{}, poly{}, nil, false
	}
	var init, end ast.Expr
	incl := false
	switch l := loopStmt(h.c.List[h.c.First]).(type) {
	case *ast.RangeStmt:
		b, isInt := underlying(h.info.TypeOf(l.X)).(*types.Basic)
		if !isInt || b.Info()&types.IsInteger == 0 {
			return poly{}, poly{}, nil, false
		}
		init, end = zeroLit, l.X
	case *ast.ForStmt:
		i, cond, ok := forParts(l, h.c.Index, h.info)
		if !ok && h.step != nil {
			i, cond, ok = forStepParts(l, h.c.Index, h.info)
		}
		if !ok {
			return poly{}, poly{}, nil, false
		}
		if h.step != nil {
			if s, isConst := h.r.finder.intConst(h.step); !isConst || s <= 0 {
				return poly{}, poly{}, nil, false
			}
		}
		init, end, incl = i, cond.Y, cond.Op == token.LEQ
	default:
		return poly{}, poly{}, nil, false
	}
	first, ok1 := h.polyOf(init, 0)
	last, ok2 := h.polyOf(end, 0)
	if !ok1 || !ok2 || first.has("@i") || last.has("@i") || len(first.symbols("@j")) > 0 || len(last.symbols("@j")) > 0 {
		return poly{}, poly{}, nil, false
	}
	if !incl {
		last = last.add(polyConst(1), -1)
	}
	if _, ok := h.magnitude(init, &conds, 0); !ok {
		return poly{}, poly{}, nil, false
	}
	mEnd, ok := h.magnitude(end, &conds, 0)
	if !ok {
		return poly{}, poly{}, nil, false
	}
	// The index steps past its bound without wrapping: bound + s-1 ≤ maxInt
	// for i < n, bound + s for i <= n (i += s, s = 1 for i++).
	step := int64(1)
	if h.step != nil {
		step, _ = h.r.finder.intConst(h.step)
	}
	if !incl {
		step--
	}
	if step > maxInt32 {
		return poly{}, poly{}, nil, false
	}
	if step > 0 {
		conds = append(conds, &ast.BinaryExpr{X: mEnd, Op: token.LEQ, Y: &ast.BinaryExpr{X: maxInt(), Op: token.SUB, Y: intLit(step)}})
	}
	if k, isConst := first.constant(); !isConst || k < 0 {
		var divs []ast.Expr
		s, ok := h.atStart(init, nil, &divs, 0)
		if !ok || len(divs) > 0 {
			return poly{}, poly{}, nil, false
		}
		conds = append(conds, &ast.BinaryExpr{X: s, Op: token.GEQ, Y: intLit(0)})
	}
	return first, last, conds, true
}

// magnitude returns an expression, evaluated at the construct's start, at
// least the absolute value of e and of every step of its computation in
// any iteration, adding to conds the conditions (evaluated in order) that
// it and its parts do not exceed maxInt; it fails when e is not of the
// forms polyOf reads or min/max of them.
func (h *heapPass) magnitude(e ast.Expr, conds *[]ast.Expr, depth int) (ast.Expr, bool) {
	e = ast.Unparen(e)
	k, ok := litValue(e) // zeroLit, made here
	if !ok {
		k, ok = h.r.finder.intConst(e)
	}
	if ok {
		if k < 0 {
			k = -k
		}
		return intLit(k), k >= 0 && k <= maxInt32
	}
	if depth > 12 || !h.isInt(e) {
		return nil, false
	}
	// Constants are folded here: Go folds them too, and a constant that
	// overflows int is a compile error, not a failed condition. Every
	// constant stays within 32 bits, so the guard compiles everywhere.
	sum := func(a, b ast.Expr) ast.Expr {
		if x, ok := litValue(a); ok {
			if y, ok := litValue(b); ok && x+y <= maxInt32 {
				return intLit(x + y)
			}
		}
		*conds = append(*conds, &ast.BinaryExpr{X: a, Op: token.LEQ, Y: &ast.BinaryExpr{X: maxInt(), Op: token.SUB, Y: b}})
		return &ast.BinaryExpr{X: &ast.ParenExpr{X: a}, Op: token.ADD, Y: &ast.ParenExpr{X: b}}
	}
	switch x := e.(type) {
	case *ast.Ident:
		v, _ := h.info.Uses[x].(*types.Var)
		if v == nil {
			return nil, false
		}
		if b := h.bind[v]; b != nil {
			return h.magnitude(b, conds, depth+1)
		}
		if v == h.c.Index {
			return h.indexMagnitude(conds, depth)
		}
		if lo, b, ok := h.innerRange(v); ok && b.e != nil {
			ml, ok1 := h.magnitude(lo, conds, depth+1)
			mh, ok2 := h.magnitude(b.e, conds, depth+1)
			if !ok1 || !ok2 {
				return nil, false
			}
			m := sum(ml, mh)
			if b.incl {
				m = sum(m, intLit(1)) // j <= hi: j++ wraps when hi is the largest int
			}
			if b.minus != nil {
				mm, ok := h.magnitude(b.minus, conds, depth+1)
				if !ok {
					return nil, false
				}
				m = sum(m, mm)
			}
			return m, true
		}
		if d := h.def(v); d != nil {
			var dc []ast.Expr
			if m, ok := h.magnitude(d, &dc, depth+1); ok {
				*conds = append(*conds, dc...)
				return m, true
			}
		}
		if h.invariant(x, 0) { // as polyOf reads it: an atom
			var divs []ast.Expr
			s, ok := h.atStart(x, nil, &divs, 0)
			if !ok || len(divs) > 0 {
				return nil, false
			}
			*conds = append(*conds, &ast.BinaryExpr{X: s, Op: token.GEQ, Y: intLit(0)})
			return s, true
		}
	case *ast.CallExpr:
		if isBuiltin(x, "len", h.info) && h.invariant(x, 0) {
			var divs []ast.Expr
			s, ok := h.atStart(x, nil, &divs, 0)
			return s, ok && len(divs) == 0
		}
		if isBuiltin(x, "min", h.info) || isBuiltin(x, "max", h.info) {
			var m ast.Expr
			for _, a := range x.Args {
				ma, ok := h.magnitude(a, conds, depth+1)
				if !ok {
					return nil, false
				}
				if m == nil {
					m = ma
				} else {
					m = sum(m, ma)
				}
			}
			return m, m != nil
		}
	case *ast.BinaryExpr:
		if x.Op != token.ADD && x.Op != token.SUB && x.Op != token.MUL {
			return nil, false
		}
		a, okA := h.magnitude(x.X, conds, depth+1)
		b, okB := h.magnitude(x.Y, conds, depth+1)
		if !okA || !okB {
			return nil, false
		}
		if x.Op != token.MUL {
			return sum(a, b), true
		}
		if x, ok := litValue(a); ok {
			if y, ok := litValue(b); ok {
				if x != 0 && y > maxInt32/x {
					return nil, false
				}
				return intLit(x * y), true
			}
		}
		*conds = append(*conds, &ast.BinaryExpr{
			X:  &ast.BinaryExpr{X: b, Op: token.EQL, Y: intLit(0)},
			Op: token.LOR,
			Y:  &ast.BinaryExpr{X: a, Op: token.LEQ, Y: &ast.BinaryExpr{X: maxInt(), Op: token.QUO, Y: b}},
		})
		return &ast.BinaryExpr{X: &ast.ParenExpr{X: a}, Op: token.MUL, Y: &ast.ParenExpr{X: b}}, true
	}
	return nil, false
}

// indexMagnitude bounds the loop index's magnitude by its loop's bound:
// the index counts up from a first value indexRange requires ≥ 0.
func (h *heapPass) indexMagnitude(conds *[]ast.Expr, depth int) (ast.Expr, bool) {
	switch l := loopStmt(h.c.List[h.c.First]).(type) {
	case *ast.RangeStmt:
		return h.magnitude(l.X, conds, depth+1)
	case *ast.ForStmt:
		_, cond, ok := forParts(l, h.c.Index, h.info)
		if !ok && h.step != nil {
			_, cond, ok = forStepParts(l, h.c.Index, h.info)
		}
		if ok {
			return h.magnitude(cond.Y, conds, depth+1)
		}
	}
	return nil, false
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
// are ints on every platform.
const maxInt32 = 1<<31 - 1

// litValue is the value of an integer literal intLit made.
func litValue(e ast.Expr) (int64, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		return 0, false
	}
	v, err := strconv.ParseInt(lit.Value, 10, 64)
	return v, err == nil
}

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
