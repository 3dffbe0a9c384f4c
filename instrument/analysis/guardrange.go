package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// This file narrows the aliasing guard's spans for a construct that reads
// one part of an array while its iterations write another. PolyBench's lu,
// for each pivot k:
//
//	urow := A[k*n+k+1 : (k+1)*n]
//	for w := range nw { wg.Go(func() { … rows i in [lo, hi) of A written, urow read … }) }
//
// urow is read-only in the construct, A's rows are independent (a chunk
// band), and the proofs hold when urow is apart from what A's iterations
// write. The whole-array spans (GuardR, GuardW: up to cap) are never apart,
// urow being a slice of A, so the guard failed on every pivot and the
// checked version ran. The narrower guard asks what the proofs need:
//
//   - a read-only flat root R whose every access in the construct is R[e]
//     (through fields and arrays of the element), or R's elements used
//     whole (range, copy: bounded by len(R)), with R itself and no
//     reslicing of it, reads only R[0:len(R)]: Go's bounds checks keep
//     every index below len. Its span is that (rt.GuardRLen). Any other
//     access (a reslice, which may reach up to cap, a pointer, a callee
//     not bound in place) keeps the span up to cap.
//   - a written flat root W whose every access has a footprint (depend.go)
//     with one P and one family reaches only the hull of the footprints
//     over all iterations, [L, H), L and H evaluated at the construct's
//     start (writeRange): for the index's band, iteration i is within
//     [i·P + a, i·P + bmax) with i in [first, last], so for P ≥ 0 the
//     union is within [first·P + min a, last·P + max bmax); for a chunk
//     band [F0·P + a, F1·P + bmax - P), F0 = f(i), F1 = f(i+step) with f
//     monotone: a non-decreasing f puts every chunk within [f(first),
//     f(last+step)), a non-increasing one makes every chunk empty (and so
//     every access of the chunk's loop absent). Its span is W[L:H]
//     (rt.GuardWRange), which falls back to the whole array when 0 ≤ L ≤
//     H ≤ cap(W) does not hold.
//
// Soundness: the pruned version elides the checks of R's accesses because
// nothing in the construct writes what they read. Every write of R's
// element type in the construct is through a root (a write of the type
// elsewhere leaves R unproven, heap.go's prove), each root in the guard
// with a span covering every element it reaches: W's hull covers all of
// W's accesses (each has a footprint, else no range is given), the other
// roots keep their whole arrays. So when the guard passes, no element R
// reads is written by any iteration or by the parent, and W's own
// proof (its band) is unchanged. The hull's values are mathematical
// integers: the guard first tests the conditions under which the
// footprints hold (the index range, the chunk's and the subscripts'
// no-wrap conditions) and that computing L and H does not wrap (every
// leaf ≥ 0, every partial magnitude ≤ maxInt, divisors ≠ 0), as an extra
// condition span, evaluated before any span.
//
// The narrowing is applied to a pair only: a read-only root whose value is
// a slice of a written root (urow := A[…]), the case the whole-array guard
// always fails. Elsewhere the spans are as before, and so are the guards
// and vet's lines of the constructs they already pass.

// narrowed is the guard spans narrowGuard replaces, by root key, and the
// conditions their bounds need.
type narrowed struct {
	spans map[string]GuardSpan
	conds []ast.Expr
	roots []string // the written roots narrowed, for the conditions' description
	keys  []string // and their keys
}

// narrowGuard narrows the spans of the pairs above among the roots in the
// guard.
func (h *heapPass) narrowGuard(inGuard map[string]bool) narrowed {
	out := narrowed{spans: map[string]GuardSpan{}}
	for _, kr := range h.order {
		r := h.roots[kr]
		if !inGuard[kr] || r.rows || r.written || r.wide {
			continue
		}
		for _, kw := range h.order {
			w := h.roots[kw]
			if !inGuard[kw] || w.rows && w.depth != 1 || !w.written || !h.sliceOf(r, w) {
				continue
			}
			if _, done := out.spans[kw]; !done {
				// A rows root's span is its rows: the hull of its row
				// coordinates, each row whole.
				lo, hi, conds, ok := h.writeRange(w.dimensions()[0])
				if !ok {
					continue
				}
				out.spans[kw] = GuardSpan{Path: w.path, Rows: w.rows, Depth: w.depth, Write: true, Lo: lo, Hi: hi}
				out.conds = append(out.conds, conds...)
				out.roots = append(out.roots, types.ExprString(w.path))
				out.keys = append(out.keys, kw)
			}
			out.spans[kr] = GuardSpan{Path: r.path, Len: true}
		}
	}
	return out
}

// apart says what the guard assumes of root k and its partners, for the
// verdicts: "it is apart from A, B", or with spans narrowed, which parts.
func (n narrowed) apart(h *heapPass, k string, partners []string) string {
	name := func(q string) string {
		if g, ok := n.spans[q]; ok {
			return g.What()
		}
		return types.ExprString(h.roots[q].path)
	}
	var names []string
	for _, q := range partners {
		names = append(names, name(q))
	}
	sort.Strings(names)
	if _, ok := n.spans[k]; ok {
		return name(k) + " is apart from " + strings.Join(names, ", ")
	}
	return "it is apart from " + strings.Join(names, ", ")
}

// sliceOf reports whether the flat root r is a local declared as a slice
// of w's path (urow := A[lo:hi]), or, for a rows root w, of one of its
// rows (urow := A[k][k+1:]): the two share an array.
func (h *heapPass) sliceOf(r, w *heapRoot) bool {
	id, ok := ast.Unparen(r.path).(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := h.info.Uses[id].(*types.Var)
	sl, ok := ast.Unparen(h.defs[v]).(*ast.SliceExpr)
	if !ok || v == nil {
		return false
	}
	x := sl.X
	if w.rows {
		ix, ok := ast.Unparen(x).(*ast.IndexExpr)
		if !ok {
			return false
		}
		x = ix.X
	}
	return h.canon(x) == h.canon(w.path)
}

// directAccess reports whether the access a of the flat root rt reaches
// only rt[0:len(rt)]: rt[e] (or a field or array element of it), or rt's
// elements used whole, with rt itself as the slice.
func (h *heapPass) directAccess(a access, rt *heapRoot) bool {
	if rt.rows || a.addr || a.slice != nil {
		return false
	}
	same := func(x ast.Expr) bool {
		x = h.resolveLocal(x)
		_, isSlice := ast.Unparen(x).(*ast.SliceExpr)
		return !isSlice && h.stable(x) && h.canon(x) == h.canon(rt.path)
	}
	if a.elems {
		return same(a.e)
	}
	for e := a.e; ; {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if s := h.info.Selections[x]; s == nil || s.Kind() != types.FieldVal || isPtr(h.info.TypeOf(x.X)) {
				return false
			}
			e = x.X
		case *ast.IndexExpr:
			switch underlying(h.info.TypeOf(x.X)).(type) {
			case *types.Array:
				e = x.X
			case *types.Slice:
				return same(x.X)
			default:
				return false
			}
		default:
			return false
		}
	}
}

// writeRange is the hull [lo, hi) of the footprints of every access of the
// flat root rt over all iterations, as expressions evaluated at the
// construct's start, with the conditions (in order) under which it holds
// and its arithmetic does not wrap.
func (h *heapPass) writeRange(rt *heapRoot) (lo, hi ast.Expr, conds []ast.Expr, ok bool) {
	st := h.aff
	if st == nil || rt.footless || st.noFoot[rt] || len(st.feet[rt]) == 0 || !h.universalAtStart("int", "uint") {
		return nil, nil, nil, false
	}
	fs := st.feet[rt]
	u := fs[0]
	for _, f := range fs {
		if f.P.key() != u.P.key() || f.fam != u.fam || !invariantPoly(f.a) || !invariantPoly(f.bmax) {
			return nil, nil, nil, false
		}
		da, ok1 := f.a.add(u.a, -1).constant()
		db, ok2 := f.bmax.add(u.bmax, -1).constant()
		if !ok1 || !ok2 {
			return nil, nil, nil, false
		}
		if da < 0 {
			u.a = f.a
		}
		if db > 0 {
			u.bmax = f.bmax
		}
		conds = append(conds, f.conds...)
	}
	if !invariantPoly(u.P) {
		return nil, nil, nil, false
	}
	if k, isConst := u.P.constant(); isConst && k < 0 || !isConst && !h.nonNegativeCoef(u.P, &conds) {
		return nil, nil, nil, false
	}
	var b rangeBuilder
	b.h = h
	var L, H []rangeTerm
	switch {
	case u.fam == "":
		first, last, _, ok := h.indexRange()
		if !ok {
			return nil, nil, nil, false
		}
		lp, ok1 := first.mul(u.P)
		hp, ok2 := last.mul(u.P)
		if !ok1 || !ok2 {
			return nil, nil, nil, false
		}
		L, ok1 = b.terms(lp.add(u.a, 1), nil)
		H, ok2 = b.terms(hp.add(u.bmax, 1), nil)
		if !ok1 || !ok2 {
			return nil, nil, nil, false
		}
	case strings.HasPrefix(u.fam, "iv:"):
		f := h.chunkLos[u.fam]
		if f == nil || !h.isInt(f) {
			return nil, nil, nil, false
		}
		first, end, inclusive, ok := h.indexSpan(&b.divs)
		if !ok || inclusive {
			return nil, nil, nil, false
		}
		// f at the first index and one step past the last are values the
		// first and last iterations compute; that computing f does not
		// wrap in any iteration is its magnitude's condition (the chunk
		// family's, repeated here so the hull does not depend on it being
		// in the guard).
		if _, ok := h.magnitude(f, &conds, 0); !ok {
			return nil, nil, nil, false
		}
		f0, ok1 := h.atStart(f, first, &b.divs, 0)
		f1, ok2 := h.atStart(f, h.stepPast(end), &b.divs, 0)
		if !ok1 || !ok2 {
			return nil, nil, nil, false
		}
		lp, ok1 := b.terms(u.P, f0)
		la, ok2 := b.terms(u.a, nil)
		hp, ok3 := b.terms(u.P, f1)
		hb, ok4 := b.terms(u.bmax.add(u.P, -1), nil)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return nil, nil, nil, false
		}
		L, H = append(lp, la...), append(hp, hb...)
	default:
		return nil, nil, nil, false // a cyclic band (cyclic.go): no hull here
	}
	lo, ok1 := b.expr(L)
	hi, ok2 := b.expr(H)
	if !ok1 || !ok2 {
		return nil, nil, nil, false
	}
	var pre []ast.Expr
	for _, d := range b.divs {
		pre = append(pre, &ast.BinaryExpr{X: d, Op: token.NEQ, Y: intLit(0)})
	}
	return lo, hi, dedupe(append(append(pre, conds...), b.conds...)), true
}

// rangeTerm is c · Π leaves, each leaf an int expression evaluated at the
// construct's start.
type rangeTerm struct {
	c      int64
	leaves []ast.Expr
}

// rangeBuilder writes writeRange's bounds, collecting the divisors the
// leaves divide by and the conditions that the bounds do not wrap.
type rangeBuilder struct {
	h     *heapPass
	divs  []ast.Expr
	conds []ast.Expr
}

// terms lists p's monomials (times the leaf by, when not nil) with their
// invariants' expressions at the construct's start.
func (b *rangeBuilder) terms(p poly, by ast.Expr) ([]rangeTerm, bool) {
	ms := make([]string, 0, len(p.terms))
	for m := range p.terms {
		ms = append(ms, m)
	}
	sort.Strings(ms)
	var out []rangeTerm
	for _, m := range ms {
		t := rangeTerm{c: p.terms[m]}
		for _, s := range strings.Split(m, symSep) {
			x := b.h.aff.atoms[s]
			if x == nil {
				return nil, false
			}
			e, ok := b.h.atStart(x, nil, &b.divs, 0)
			if !ok {
				return nil, false
			}
			t.leaves = append(t.leaves, e)
		}
		if by != nil {
			t.leaves = append(t.leaves, by)
		}
		out = append(out, t)
	}
	if p.k != 0 {
		t := rangeTerm{c: p.k}
		if by != nil {
			t.leaves = []ast.Expr{by}
		}
		out = append(out, t)
	}
	return out, true
}

// expr is Σ c·Π leaves, adding the conditions that its evaluation, left
// to right, does not wrap: every leaf is ≥ 0 and the sum of the terms'
// magnitudes, each step of it, is at most maxInt (magnitude.go's form), so
// every partial product and partial sum is within it too.
func (b *rangeBuilder) expr(ts []rangeTerm) (ast.Expr, bool) {
	if len(ts) == 0 {
		return intLit(0), true
	}
	var val, mag ast.Expr
	for _, t := range ts {
		c := t.c
		if c < 0 {
			c = -c
		}
		if c > maxInt32 {
			return nil, false
		}
		var prod ast.Expr
		for _, l := range t.leaves {
			if lit, ok := l.(*ast.BasicLit); !ok || strings.HasPrefix(lit.Value, "-") {
				b.conds = append(b.conds, &ast.BinaryExpr{X: l, Op: token.GEQ, Y: intLit(0)})
			}
			if prod == nil {
				prod = l
				continue
			}
			b.conds = append(b.conds, &ast.BinaryExpr{
				X:  &ast.BinaryExpr{X: l, Op: token.EQL, Y: intLit(0)},
				Op: token.LOR,
				Y:  &ast.BinaryExpr{X: prod, Op: token.LEQ, Y: &ast.BinaryExpr{X: maxInt(), Op: token.QUO, Y: l}},
			})
			prod = &ast.BinaryExpr{X: paren(prod), Op: token.MUL, Y: paren(l)}
		}
		tm, tv := intLit(c), intLit(t.c)
		if prod != nil {
			if c != 1 {
				b.conds = append(b.conds, &ast.BinaryExpr{X: prod, Op: token.LEQ, Y: &ast.BinaryExpr{X: maxInt(), Op: token.QUO, Y: intLit(c)}})
				tm = &ast.BinaryExpr{X: intLit(c), Op: token.MUL, Y: paren(prod)}
				tv = &ast.BinaryExpr{X: intLit(t.c), Op: token.MUL, Y: paren(prod)}
			} else {
				tm = prod
				tv = prod
				if t.c < 0 {
					tv = &ast.UnaryExpr{Op: token.SUB, X: paren(prod)}
				}
			}
		}
		if mag == nil {
			mag, val = tm, tv
			continue
		}
		b.conds = append(b.conds, &ast.BinaryExpr{X: mag, Op: token.LEQ, Y: &ast.BinaryExpr{X: maxInt(), Op: token.SUB, Y: tm}})
		mag = &ast.BinaryExpr{X: paren(mag), Op: token.ADD, Y: paren(tm)}
		val = &ast.BinaryExpr{X: val, Op: token.ADD, Y: paren(tv)}
	}
	return val, true
}

// dedupe drops the repeated conditions, keeping the first of each.
func dedupe(conds []ast.Expr) []ast.Expr {
	var out []ast.Expr
	seen := map[string]bool{}
	for _, c := range conds {
		if s := types.ExprString(c); !seen[s] {
			seen[s] = true
			out = append(out, c)
		}
	}
	return out
}

// paren parenthesizes a binary expression, for printing.
func paren(e ast.Expr) ast.Expr {
	if _, ok := e.(*ast.BinaryExpr); ok {
		return &ast.ParenExpr{X: e}
	}
	return e
}
