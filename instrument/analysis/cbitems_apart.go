package analysis

import (
	"go/ast"
	"strings"
)

// The test that the items' footprints of an output are apart
// (cbitems.go): bands, and columns of rows.

// itemsApart returns the conditions under which the footprints as of one
// output's accesses in one item are apart from every other item's, or why
// they cannot be shown to be: the band test on their hull (every access's
// footprint [i·P + a, i·P + bmax) over the inner loops' ranges), else the
// same test on their offsets within the rows of a common row variable.
func (h *heapPass) itemsApart(as []itemAccess) ([]ast.Expr, string) {
	if conds, ok := h.itemHull(as, ""); ok {
		return conds, ""
	}
	// A column walk: every footprint is row·S + C with the same inner
	// loop variable row and invariant S, C free of row.
	var row, S string
	for m, c := range as[0].lo.terms {
		syms := strings.Split(m, symSep)
		if c != 1 || len(syms) != 2 {
			continue
		}
		for k, sym := range syms {
			other := syms[1-k]
			if strings.HasPrefix(sym, "@j") && !strings.HasPrefix(other, "@") {
				row, S = sym, other
			}
		}
	}
	if row == "" {
		return nil, "the items' footprints are neither bands nor columns of rows"
	}
	if conds, ok := h.itemHull(as, row+symSep+S); ok {
		return conds, ""
	}
	if conds, ok := h.itemHull(as, S+symSep+row); ok {
		return conds, ""
	}
	return nil, "the items' footprints are not shown apart"
}

// itemHull runs the band test on the hull of as's footprints, with the
// monomial rowTerm (row·S), when not "", taken out of each: then each
// footprint must hold rowTerm exactly once, the row variable's least
// value must be ≥ 0, and every item's offsets must lie within [0, S).
func (h *heapPass) itemHull(as []itemAccess, rowTerm string) ([]ast.Expr, bool) {
	var hull *foot
	var conds []ast.Expr
	var S, row string
	if rowTerm != "" {
		parts := strings.Split(rowTerm, symSep)
		row, S = parts[0], parts[1]
		if strings.HasPrefix(S, "@j") {
			row, S = S, row
		}
	}
	for _, a := range as {
		lo, hi := a.lo, a.hi
		if rowTerm != "" {
			if lo.terms[rowTerm] != 1 || hi.terms[rowTerm] != 1 {
				return nil, false
			}
			lo, hi = lo.add(polySym(rowTerm), -1), hi.add(polySym(rowTerm), -1)
			if lo.has(row) || hi.has(row) {
				return nil, false
			}
		}
		var signs []ast.Expr
		l, ok1 := h.extreme(lo, false, &signs, 0)
		u, ok2 := h.extreme(hi.add(polyConst(1), -1), true, &signs, 0)
		if !ok1 || !ok2 {
			return nil, false
		}
		f, ok := h.footOf(l, []poly{u.add(polyConst(1), 1)}, a.srcs, signs)
		if !ok {
			return nil, false
		}
		conds = append(conds, f.conds...)
		if hull == nil {
			hull = &f
			continue
		}
		if f.P.key() != hull.P.key() || f.fam != "" || hull.fam != "" {
			return nil, false
		}
		da, ok1 := f.a.add(hull.a, -1).constant()
		db, ok2 := f.bmax.add(hull.bmax, -1).constant()
		if !ok1 || !ok2 {
			return nil, false
		}
		if da < 0 {
			hull.a = f.a
		}
		if db > 0 {
			hull.bmax = f.bmax
		}
	}
	dc, ok := h.nonNegative(hull.slack())
	if !ok {
		return nil, false
	}
	conds = append(conds, dc...)
	if rowTerm == "" {
		return conds, true
	}
	// The row: its least value ≥ 0 (its coefficient S is required ≥ 0 by
	// the magnitudes), and every item's offsets within [0, S).
	st := h.affine()
	rv := st.inner[row]
	rlo, _, ok := h.innerPolys(rv)
	if !ok {
		return nil, false
	}
	first, last, _, ok := h.indexRange()
	if !ok {
		return nil, false
	}
	lastP, ok1 := last.mul(hull.P)
	firstP, ok2 := first.mul(hull.P)
	if !ok1 || !ok2 {
		return nil, false
	}
	for _, d := range []poly{polySym(S), rlo, firstP.add(hull.a, 1), polySym(S).add(lastP.add(hull.bmax, 1), -1), hull.P} {
		dc, ok := h.nonNegative(d)
		if !ok {
			return nil, false
		}
		conds = append(conds, dc...)
	}
	return conds, true
}
