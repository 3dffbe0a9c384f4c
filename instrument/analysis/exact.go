package analysis

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"
)

// This file is the exact pairwise test, for a written flat root whose
// accesses the band tests cannot place (the mirror writes of a triangle,
// cov[i*m+j] and cov[j*m+i] for j ≥ i). Each access X[e] is read as a
// point: e itself when e is linear in the loop variables and invariants,
// or, when e = R·s + C for one invariant s (the row length) with R and C
// linear, the pair (R, C) — delinearized, which is exact only when
// 0 ≤ C < s for every value the loop variables take, itself proved the
// same way. For every pair of accesses, one a write, and two iterations
// i1 < i2 (and i2 < i1), the system "the loop variables of each copy in
// their ranges, the two points equal" must have no integer solution
// (fm.go). The invariants are unknowns shared by the copies; the loop
// variables and the chunk bounds are each copy's own. The run-time
// conditions are those of the index's range, the loops' steps and the
// magnitudes of the subscripts: the proof reads them as mathematical
// integers.

// rawAccess is an access X[e] of a flat root, e read as a polynomial, or
// an access through a contained sub-slice s := X[lo:hi], s[k] at lo+k (or
// every element, lo+t): nonneg are the conditions (≥ 0) that keep k or t
// within [0, hi-lo), Go's bounds check.
type rawAccess struct {
	p      poly
	pt     point // a rows root's access: its coordinates (rows.go), p unused
	write  bool
	srcs   []ast.Expr
	nonneg []poly
	t      string // the fresh symbol of an access of every element, "" for s[k]
	tHi    poly   // its greatest value, hi - lo - 1
}

// subRaw is the raw access of an access through a contained sub-slice.
func (h *heapPass) subRaw(a access) (*heapRoot, rawAccess, bool) {
	inner, k := h.subAccess(a)
	if inner == nil || !a.elems && k == nil {
		return nil, rawAccess{}, false
	}
	st := h.affine()
	st.monoSyms = true
	defer func() { st.monoSyms = false }()
	off, srcs, sub, ok := h.subOffset(inner)
	if !ok {
		return nil, rawAccess{}, false
	}
	rt := h.rootOf(sub.X)
	if rt == nil || rt.rows {
		return nil, rawAccess{}, false
	}
	lo := inner.Low
	if lo == nil {
		lo = zeroLit
	}
	l, ok1 := h.polyOf(lo, 0)
	u, ok2 := h.polyOf(inner.High, 0)
	if !ok1 || !ok2 {
		return nil, rawAccess{}, false
	}
	var t poly
	tSym := ""
	if a.elems {
		tSym = fmt.Sprintf("@t%d", a.e.Pos())
		t = polySym(tSym)
	} else if t, ok = h.polyOf(k, 0); !ok {
		return nil, rawAccess{}, false
	} else {
		srcs = append(srcs, k)
	}
	// 0 ≤ t ≤ (hi - lo) - 1
	tHi := u.add(l, -1).add(polyConst(1), -1)
	return rt, rawAccess{p: l.add(off, 1).add(t, 1), write: a.mode&write != 0, srcs: append(srcs, lo, inner.High),
		nonneg: []poly{t, tHi.add(t, -1)}, t: tSym, tHi: tHi}, true
}

// point is an access's coordinates: (p) or (R, C) for the stride s.
type point []poly

// proveExact reports whether the written root rt is proven by the exact
// pairwise test, recording its conditions as a hull's. A stride is tried
// in turn: none (every subscript linear), the common invariant of the
// nonlinear monomials, or a constant coefficient of a loop variable
// (i*24 + j: 24).
func (h *heapPass) proveExact(rt *heapRoot) bool {
	if h.aff == nil || !rt.written {
		return false
	}
	raws := h.aff.raws[rt]
	if len(raws) == 0 || len(raws) != len(rt.exprs) || !h.universalAtStart("int", "uint") {
		return false
	}
	ss := strides(raws)
	if rt.rows {
		ss = []stride{{}} // points already: the rows' and the element's coordinates
	}
	for _, s := range ss {
		if conds, ok := h.exactWith(raws, s); ok {
			h.aff.hulls[rt] = conds
			rt.by = rt
			return true
		}
	}
	return false
}

// exactWith runs the exact test with stride s.
func (h *heapPass) exactWith(raws []rawAccess, s stride) ([]ast.Expr, bool) {
	h.aff.monoSyms = true
	defer func() { h.aff.monoSyms = false }()
	first, last, conds, ok := h.indexRange()
	if !ok {
		return nil, false
	}
	points := make([]point, len(raws))
	for k, a := range raws {
		pt, ok := a.pt, true
		if pt == nil {
			pt, ok = delinearize(a.p, s)
		}
		if !ok {
			return nil, false
		}
		points[k] = pt
		for _, e := range a.srcs {
			if _, ok := h.magnitude(e, &conds, 0); !ok {
				return nil, false
			}
		}
	}
	// The ranges of each access's loop variables, in copies 1 and 2.
	ranges := make([][2][]ineq, len(raws))
	for k, pt := range points {
		for c := 1; c <= 2; c++ {
			rows, need, ok := h.rangeRows(append(append(point{}, pt...), raws[k].nonneg...), first, last, c)
			if !ok {
				return nil, false
			}
			for _, q := range raws[k].nonneg {
				r, ok := linearRow(q, c)
				if !ok {
					return nil, false
				}
				rows = append(rows, r)
			}
			ranges[k][c-1] = rows
			conds = append(conds, need...)
		}
		if len(pt) == 2 && raws[k].pt == nil {
			// 0 ≤ C < s in every iteration: C ≤ -1 and C ≥ s are infeasible.
			C, _ := linearRow(pt[1], 1)
			S := ineq{coef: map[string]int64{}, k: s.k}
			if s.sym != "" {
				S.coef[s.sym] = 1
			}
			if feasible(append(clone(ranges[k][0]), negate(C, -1))) || feasible(append(clone(ranges[k][0]), sub(C, S))) {
				// Not by the loops' ranges alone: the column of a chunk's
				// block (B[i*n + lo + j], j < hi - lo) is within the row
				// when the chunk bounds are, at both ends of the index.
				rc, ok := h.columnAtRunTime(pt[1], raws[k], s)
				if !ok {
					return nil, false
				}
				conds = append(conds, rc...)
			}
		}
	}
	for a := range raws {
		for b := a; b < len(raws); b++ {
			if !raws[a].write && !raws[b].write {
				continue
			}
			orders := [][2]int{{1, 2}}
			if a != b {
				orders = append(orders, [2]int{2, 1})
			}
			for _, o := range orders {
				rows := append(clone(ranges[a][0]), ranges[b][1]...)
				// i_o[0] ≤ i_o[1] - 1
				rows = append(rows, ineq{coef: map[string]int64{copyName("@i", o[1]): 1, copyName("@i", o[0]): -1}, k: -1})
				for d := range points[a] {
					x, ok1 := linearRow(points[a][d], 1)
					y, ok2 := linearRow(points[b][d], 2)
					if !ok1 || !ok2 {
						return nil, false
					}
					rows = append(rows, sub(x, y), sub(y, x))
				}
				for _, split := range h.chunkCases(rows, o) {
					if feasible(append(clone(rows), split...)) {
						return nil, false
					}
				}
			}
		}
	}
	return append([]ast.Expr{}, conds...), true
}

// stride is what a subscript is delinearized by: an invariant sym, a
// constant k > 1, or neither (the subscript is one coordinate).
type stride struct {
	sym string
	k   int64
}

// strides lists the strides to try: none when every subscript is
// linear, then the constant coefficients of loop variables; else the
// invariant common to the nonlinear monomials of every nonlinear
// subscript.
func strides(raws []rawAccess) []stride {
	count := map[string]int{}
	nonlinear := 0
	consts := map[int64]bool{}
	for _, a := range raws {
		seen := map[string]bool{}
		isNL := false
		for m, c := range a.p.terms {
			syms := strings.Split(m, symSep)
			if len(syms) < 2 {
				if c > 1 || c < -1 {
					consts[max(c, -c)] = true
				}
				continue
			}
			isNL = true
			for _, s := range syms {
				if !strings.HasPrefix(s, "@") && !seen[s] {
					seen[s] = true
					count[s]++
				}
			}
		}
		if isNL {
			nonlinear++
		}
	}
	if nonlinear == 0 {
		out := []stride{{}}
		ks := make([]int64, 0, len(consts))
		for k := range consts {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		for _, k := range ks {
			out = append(out, stride{k: k})
		}
		return out
	}
	var syms []string
	for s, n := range count {
		if n == nonlinear {
			syms = append(syms, s)
		}
	}
	slices.Sort(syms)
	var out []stride
	for _, s := range syms {
		out = append(out, stride{sym: s})
	}
	return out
}

// delinearize reads p as a point: (p) for no stride; for an invariant
// stride s, (R, C) with p = R·s + C, R the monomials containing s once (s
// removed), C the rest; for a constant stride k, R the terms whose
// coefficient k divides (divided by k) and ⌊p.k/k⌋, C the rest. R and C
// must be linear.
func delinearize(p poly, s stride) (point, bool) {
	if s.sym == "" && s.k == 0 {
		return point{p}, isLinear(p)
	}
	R, C := poly{terms: map[string]int64{}}, poly{terms: map[string]int64{}}
	if s.sym == "" {
		for m, c := range p.terms {
			if c%s.k == 0 {
				R.terms[m] = c / s.k
			} else {
				C.terms[m] = c
			}
		}
		R.k = floorDiv(p.k, s.k)
		C.k = p.k - R.k*s.k
		return point{R, C}, isLinear(R) && isLinear(C)
	}
	C.k = p.k
	for m, c := range p.terms {
		syms := strings.Split(m, symSep)
		n := 0
		var others []string
		for _, x := range syms {
			if x == s.sym {
				n++
			} else {
				others = append(others, x)
			}
		}
		switch {
		case n == 0:
			C.terms[m] = c
		case n == 1 && len(others) == 0:
			R.k += c
		case n == 1:
			R.terms[strings.Join(others, symSep)] += c
		default:
			return nil, false
		}
	}
	return point{R, C}, isLinear(R) && isLinear(C)
}

// isLinear reports whether every monomial of p is one symbol.
func isLinear(p poly) bool {
	for m := range p.terms {
		if strings.Contains(m, symSep) {
			return false
		}
	}
	return true
}

// copyName names a symbol in copy c of the system: the loop index, the
// body's loop variables and the chunk bounds are each iteration's own;
// invariants are shared.
func copyName(s string, c int) string {
	if strings.HasPrefix(s, "@") {
		return s + "#" + string(rune('0'+c))
	}
	return s
}

// linearRow is the linear polynomial p, in copy c's names, as a row's
// left side (Σ coef·var + k).
func linearRow(p poly, c int) (ineq, bool) {
	r := ineq{coef: map[string]int64{}, k: p.k}
	for m, k := range p.terms {
		if strings.Contains(m, symSep) {
			return ineq{}, false
		}
		r.coef[copyName(m, c)] += k
	}
	return r, true
}

// rangeRows are the rows bounding the loop index (first ≤ i ≤ last) and
// every loop variable the point uses, and the ones their bounds use in
// turn, in copy c, with the conditions the ranges hold under.
func (h *heapPass) rangeRows(pt point, first, last poly, c int) ([]ineq, []ast.Expr, bool) {
	st := h.affine()
	lo, ok1 := linearRow(first, c)
	hi, ok2 := linearRow(last, c)
	if !ok1 || !ok2 {
		return nil, nil, false
	}
	i := ineq{coef: map[string]int64{copyName("@i", c): 1}}
	rows := []ineq{sub(i, lo), sub(hi, i)}
	var conds []ast.Expr
	done := map[string]bool{}
	var todo []string
	for _, p := range pt {
		todo = append(todo, p.symbols("@j")...)
	}
	for len(todo) > 0 && len(done) < 16 {
		s := todo[0]
		todo = todo[1:]
		if done[s] {
			continue
		}
		done[s] = true
		v := st.inner[s]
		l, u, ok := h.innerPolys(v)
		if !ok {
			return nil, nil, false
		}
		need, ok := h.stepConds(v)
		if !ok {
			return nil, nil, false
		}
		conds = append(conds, need...)
		lr, ok1 := linearRow(l, c)
		ur, ok2 := linearRow(u, c)
		if !ok1 || !ok2 {
			return nil, nil, false
		}
		j := ineq{coef: map[string]int64{copyName(s, c): 1}}
		rows = append(rows, sub(j, lr), sub(ur, j))
		todo = append(todo, l.symbols("@j")...)
		todo = append(todo, u.symbols("@j")...)
	}
	if len(todo) > 0 {
		return nil, nil, false
	}
	return rows, conds, true
}

// sub is the row x - y (x ≥ y).
func sub(x, y ineq) ineq {
	out := ineq{coef: map[string]int64{}, k: x.k - y.k}
	for v, c := range x.coef {
		out.coef[v] += c
	}
	for v, c := range y.coef {
		out.coef[v] -= c
	}
	for v, c := range out.coef {
		if c == 0 {
			delete(out.coef, v)
		}
	}
	return out
}

// negate is the row -x + k (x ≤ k).
func negate(x ineq, k int64) ineq {
	return sub(ineq{coef: map[string]int64{}, k: k}, x)
}

func clone(rows []ineq) []ineq { return append([]ineq(nil), rows...) }

// chunkCases are the cases of what two iterations i_o[0] < i_o[1] know of
// the chunks [F0, F1) of their monotone bound functions (the symbols "@m"
// polyOf makes, F1 = f(i+step) or a min with it, F0 = f(i)): f never
// decreasing, the earlier chunk ends where the later starts at the latest
// (F1 of i_o[0] ≤ F0 of i_o[1]); f never increasing, both chunks are
// empty. The test must fail to find a solution in every case; with no
// chunk in rows, one case that adds nothing. At most two chunks are split
// on (four cases); others only leave their symbols free.
func (h *heapPass) chunkCases(rows []ineq, o [2]int) [][]ineq {
	var syms []string
	seen := map[string]bool{}
	for _, r := range rows {
		for v := range r.coef {
			if base, ok := strings.CutSuffix(v, "#1"); ok && strings.HasPrefix(base, "@m:") && !seen[base] {
				seen[base] = true
				syms = append(syms, base)
			}
			if base, ok := strings.CutSuffix(v, "#2"); ok && strings.HasPrefix(base, "@m:") && !seen[base] {
				seen[base] = true
				syms = append(syms, base)
			}
		}
	}
	slices.Sort(syms)
	cases := [][]ineq{nil}
	pairs := 0
	for _, x := range syms {
		for _, y := range syms {
			if x == y || pairs >= 2 || !h.chunkPair(h.aff.mono[x], h.aff.mono[y]) {
				continue
			}
			pairs++
			up := []ineq{{coef: map[string]int64{copyName(x, o[1]): 1, copyName(y, o[0]): -1}}} // F0(later) - F1(earlier) ≥ 0
			down := []ineq{{coef: map[string]int64{copyName(x, 1): 1, copyName(y, 1): -1}}, {coef: map[string]int64{copyName(x, 2): 1, copyName(y, 2): -1}}}
			var next [][]ineq
			for _, c := range cases {
				next = append(next, append(clone(c), up...), append(clone(c), down...))
			}
			cases = next
		}
	}
	return cases
}

// chunkPair reports whether hi is lo's chunk end: lo with the index
// shifted by the step, or a min with it.
func (h *heapPass) chunkPair(lo, hi ast.Expr) bool {
	if lo == nil || hi == nil {
		return false
	}
	if h.shifted(lo, hi) {
		return true
	}
	if call, ok := h.resolve(hi).(*ast.CallExpr); ok && isBuiltin(call, "min", h.info) {
		for _, a := range call.Args {
			if h.shifted(lo, a) {
				return true
			}
		}
	}
	return false
}

// columnAtRunTime returns the run-time conditions under which the column C
// of an access (delinearized by s) stays within [0, s) in every
// iteration: C's least and greatest values over the loop variables (and a
// whole access's elements) must each be a constant plus at most one
// monotone symbol of the index (a chunk bound), whose values lie between
// its values at the index's first and last value; both ends are tested.
func (h *heapPass) columnAtRunTime(C poly, a rawAccess, s stride) ([]ast.Expr, bool) {
	var conds, divs []ast.Expr
	ends := func(max bool) (poly, bool) {
		p := C
		if a.t != "" {
			coef, rest, ok := p.split(a.t)
			k, isConst := coef.constant()
			if !ok || !isConst || k < 0 {
				return poly{}, false
			}
			if max {
				p = rest.add(a.tHi.scale(k), 1)
			} else {
				p = rest
			}
		}
		return h.extreme(p, max, &conds, 0)
	}
	lo, ok1 := ends(false)
	hi, ok2 := ends(true)
	if !ok1 || !ok2 {
		return nil, false
	}
	first, end, inclusive, ok := h.indexSpan(&divs)
	if !ok {
		return nil, false
	}
	last := end
	if !inclusive {
		last = &ast.BinaryExpr{X: end, Op: token.SUB, Y: intLit(1)}
	}
	// at evaluates the one monotone symbol of p at index idx; k is p's
	// constant.
	at := func(p poly, idx ast.Expr) (ast.Expr, int64, bool) {
		if len(p.terms) != 1 || p.k > maxInt32 || p.k < -maxInt32 {
			return nil, 0, false
		}
		for m, c := range p.terms {
			e := h.aff.mono[m]
			if c != 1 || e == nil {
				return nil, 0, false
			}
			v, ok := h.atStart(e, idx, &divs, 0)
			return v, p.k, ok
		}
		return nil, 0, false
	}
	var rows []ast.Expr
	for _, idx := range []ast.Expr{first, last} {
		x, k, ok := at(lo, idx) // x + k ≥ 0
		if !ok {
			return nil, false
		}
		rows = append(rows, &ast.BinaryExpr{X: x, Op: token.GEQ, Y: intLit(-k)})
		y, k2, ok := at(hi, idx) // y + k2 ≤ s - 1: y ≤ s - (1 + k2), 1 + k2 ≥ 0
		if !ok || 1+k2 < 0 {
			return nil, false
		}
		var bound ast.Expr
		if s.sym != "" {
			sv, ok := h.atStart(h.aff.atoms[s.sym], nil, &divs, 0)
			if !ok || h.aff.atoms[s.sym] == nil {
				return nil, false
			}
			rows = append(rows, &ast.BinaryExpr{X: sv, Op: token.GEQ, Y: intLit(0)})
			bound = &ast.BinaryExpr{X: sv, Op: token.SUB, Y: intLit(1 + k2)}
		} else {
			bound = intLit(s.k - 1 - k2)
		}
		rows = append(rows, &ast.BinaryExpr{X: y, Op: token.LEQ, Y: bound})
	}
	for _, d := range divs {
		conds = append(conds, &ast.BinaryExpr{X: d, Op: token.NEQ, Y: intLit(0)})
	}
	return append(conds, rows...), true
}
