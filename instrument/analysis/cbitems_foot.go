package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// The footprints of a callback's accesses of its outputs, item by item
// (cbitems.go).

// itemAccess is one access of an output in the callback: its footprint
// as polynomials [lo, hi) (hi exclusive) before the inner loops are
// replaced by their ranges, the expressions they come from, and the
// expression the rewriter checks it by (nil for a window's slicing, which
// checks nothing itself).
type itemAccess struct {
	lo, hi poly
	srcs   []ast.Expr
	key    ast.Expr
}

// itemAccessOf reads the occurrence id of v (a name of fresh; ancestors
// stack) as an access of an output: out[e] (out.Pix[e]), a window's w[k]
// (its footprint the window's), or a window's slicing (the window's
// footprint is read at its uses). It returns the output, or nil when the
// occurrence touches no element (len, cap, a field read, the window's
// declaration), or why it has no footprint.
func (h *heapPass) itemAccessOf(id *ast.Ident, v *types.Var, stack []ast.Node, fresh map[*types.Var]bool, loop *ast.RangeStmt) (itemAccess, *types.Var, string) {
	info := h.info
	parent := func(k int) ast.Node {
		if k < len(stack) {
			return stack[len(stack)-1-k]
		}
		return nil
	}
	if info.Defs[id] != nil || isAssigned(parent(0), id) {
		return itemAccess{}, nil, "" // a window's declaration: its value is read at its uses
	}
	var x ast.Expr = id
	k := 0
	if sel, ok := parent(0).(*ast.SelectorExpr); ok && sel.X == id {
		if sel.Sel.Name != "Pix" {
			return itemAccess{}, nil, "" // another field, only read (cbfresh.go)
		}
		x, k = sel, 1
	}
	if call, ok := parent(k).(*ast.CallExpr); ok && (builtinName(call, info) == "len" || builtinName(call, info) == "cap") {
		return itemAccess{}, nil, ""
	}
	if !within(id.Pos(), loop.Body) {
		return itemAccess{}, nil, "an output is used outside the callback's item range"
	}
	var ix *ast.IndexExpr
	var rs *ast.RangeStmt
	switch pn := parent(k).(type) {
	case *ast.IndexExpr:
		if pn.X == x {
			ix = pn
		}
	case *ast.SliceExpr:
		if pn.X != x {
			break
		}
		// A window's declaration: its uses carry the footprint. A slice
		// used otherwise (copied into, ranged over) is an access of its
		// own, which has none here.
		if as, isAs := parent(k + 1).(*ast.AssignStmt); isAs && len(as.Lhs) == len(as.Rhs) {
			for n, r := range as.Rhs {
				if r == pn {
					if wid, isID := as.Lhs[n].(*ast.Ident); isID && fresh[identVar(wid, info)] {
						return itemAccess{}, nil, ""
					}
				}
			}
		}
		return itemAccess{}, nil, "a slice of an output is used whole (copied or ranged over)"
	case *ast.RangeStmt:
		if pn.X == x {
			rs = pn
		}
	}
	if ix == nil && rs == nil {
		return itemAccess{}, nil, "an output is used whole (copied)"
	}
	if !within(v.Pos(), h.spec.lit) { // an output (the caller's); the callback's names are windows
		if ix == nil {
			return itemAccess{}, nil, "an output is ranged over whole"
		}
		pk, srcs, ok := h.itemPoly(ix.Index)
		if !ok {
			return itemAccess{}, nil, "a subscript is no polynomial: " + types.ExprString(ix.Index)
		}
		return itemAccess{lo: pk, hi: pk.add(polyConst(1), 1), srcs: srcs, key: ast.Unparen(ix)}, v, ""
	}
	// Through a window w := out.Pix[lo:hi(:max)], declared once and
	// never resliced: w[k] is out's element lo+k, and any use of w stays
	// within [lo, hi) (Go's bounds checks on len(w) = hi - lo).
	sl := h.windowSlice(v)
	if sl == nil {
		return itemAccess{}, nil, "a window of an output is not one slice of it, declared once"
	}
	out, isOut := h.windowOf(sl, fresh)
	if !isOut {
		return itemAccess{}, nil, "a window of a window"
	}
	lo := sl.Low
	if lo == nil {
		lo = zeroLit
	}
	pl, ok := h.polyOf(lo, 0)
	if !ok {
		return itemAccess{}, nil, "a window's bound is no polynomial: " + types.ExprString(lo)
	}
	if ix != nil {
		if pk, ok := h.polyOf(ix.Index, 0); ok {
			e := pl.add(pk, 1)
			return itemAccess{lo: e, hi: e.add(polyConst(1), 1), srcs: []ast.Expr{lo, ix.Index}, key: ast.Unparen(ix)}, out, ""
		}
	}
	if rs != nil && rs.Value == nil {
		return itemAccess{}, nil, "" // range w: its indices only
	}
	if sl.High == nil {
		return itemAccess{}, nil, "a window has no high bound"
	}
	ph, ok := h.polyOf(sl.High, 0)
	if !ok {
		return itemAccess{}, nil, "a window's bound is no polynomial: " + types.ExprString(sl.High)
	}
	a := itemAccess{lo: pl, hi: ph, srcs: []ast.Expr{lo, sl.High}}
	if ix != nil {
		a.key = ast.Unparen(ix)
	} else {
		a.key = ast.Unparen(rs.Value) // the rewriter names a range's reads by its value
	}
	return a, out, ""
}

// defOfAny is the slice expression v is declared with anywhere in the
// package's files, or nil.
func (r *Result) defOfAny(v *types.Var) *ast.SliceExpr {
	for _, f := range r.finder.files {
		if f.Pos() <= v.Pos() && v.Pos() < f.End() {
			sl, _ := ast.Unparen(r.defOf(v, f)).(*ast.SliceExpr)
			return sl
		}
	}
	return nil
}

// windowSlice is the slicing a window v (a local of the callback) is
// declared with by :=, when v is assigned nothing else; nil otherwise
// (var w []T, then w = out.Pix[…] per item: each item's window may start
// elsewhere, so w's subscripts say nothing of the output's elements).
func (h *heapPass) windowSlice(v *types.Var) *ast.SliceExpr {
	if !h.immutable(v) {
		return nil
	}
	return h.r.defOfAny(v)
}

// windowOf is the output the slicing sl is taken of (out[…] or
// out.Pix[…]), or false when it is taken of a window.
func (h *heapPass) windowOf(sl *ast.SliceExpr, fresh map[*types.Var]bool) (*types.Var, bool) {
	x := ast.Unparen(sl.X)
	if sel, ok := x.(*ast.SelectorExpr); ok && sel.Sel.Name == "Pix" {
		x = ast.Unparen(sel.X)
	}
	id, _ := x.(*ast.Ident)
	v := identVar(id, h.info)
	if v == nil || !fresh[v] || within(v.Pos(), h.spec.lit) {
		return nil, false
	}
	return v, true
}

// itemPoly reads the subscript e of an access in a callback's items as a
// polynomial, with the source expressions whose magnitudes bound its
// arithmetic: polyOf's, or, for a counter stepped once per iteration of
// a loop (imaging's sharpen: j := y*dst.Stride, then dst.Pix[j] … j++
// as the last statement of for i := 0; i < src.w*4; i++), its value
// there, j0 + i - lo.
func (h *heapPass) itemPoly(e ast.Expr) (poly, []ast.Expr, bool) {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if v, _ := h.info.Uses[id].(*types.Var); v != nil {
			if j0, i, lo, ok := h.stepCounter(v, id); ok {
				p0, ok1 := h.polyOf(j0, 0)
				pi, ok2 := h.polyOf(i, 0)
				pl, ok3 := h.polyOf(lo, 0)
				if ok1 && ok2 && ok3 {
					// The counter's value as one expression, so that its
					// magnitude bounds the sum the steps compute.
					sum := &ast.BinaryExpr{X: &ast.BinaryExpr{X: j0, Op: token.ADD, Y: i}, Op: token.SUB, Y: lo}
					h.info.Types[sum.X] = types.TypeAndValue{Type: types.Typ[types.Int]}
					h.info.Types[sum] = types.TypeAndValue{Type: types.Typ[types.Int]}
					return p0.add(pi, 1).add(pl, -1), []ast.Expr{sum}, true
				}
				return poly{}, nil, false
			}
		}
	}
	p, ok := h.polyOf(e, 0)
	return p, []ast.Expr{e}, ok
}

// stepCounter reports whether v, used at id, is a counter declared v :=
// j0 in a block of the callback and written only by v++, the last
// statement of a loop for i := lo; i < hi; i++ that is a later statement
// of the same block, with every use of v in that loop's body before the
// v++ and no continue or goto in it (which could skip the step): then at
// id, v is j0 + i - lo. j0 must keep its value while v is in scope
// (sameValue). It returns j0, the loop variable (as id's expression) and
// lo.
func (h *heapPass) stepCounter(v *types.Var, id *ast.Ident) (j0, i, lo ast.Expr, ok bool) {
	w := h.r.writes[v]
	if w == nil || w.elsewhere || len(w.at) != 1 || h.spec == nil || !within(v.Pos(), h.spec.lit) {
		return nil, nil, nil, false
	}
	var block *ast.BlockStmt
	var decl int
	ast.Inspect(h.spec.lit.Body, func(n ast.Node) bool {
		b, isBlock := n.(*ast.BlockStmt)
		if !isBlock || block != nil {
			return block == nil
		}
		for k, st := range b.List {
			if as, isAs := st.(*ast.AssignStmt); isAs && as.Tok == token.DEFINE && len(as.Lhs) == 1 && len(as.Rhs) == 1 {
				if lid, isID := as.Lhs[0].(*ast.Ident); isID && h.info.Defs[lid] == v {
					block, decl, j0 = b, k, as.Rhs[0]
				}
			}
		}
		return block == nil
	})
	if block == nil || !h.sameValue(v, j0) {
		return nil, nil, nil, false
	}
	for _, st := range block.List[decl+1:] {
		l, isFor := st.(*ast.ForStmt)
		if !isFor || len(l.Body.List) == 0 {
			continue
		}
		inc, isInc := l.Body.List[len(l.Body.List)-1].(*ast.IncDecStmt)
		if !isInc || inc.Tok != token.INC || !isVarIdent(h.info, inc.X, v) || w.at[0] < inc.Pos() || w.at[0] >= inc.End() {
			continue
		}
		as, _ := l.Init.(*ast.AssignStmt)
		if as == nil || len(as.Lhs) != 1 {
			return nil, nil, nil, false
		}
		lv, _ := h.info.Defs[as.Lhs[0].(*ast.Ident)].(*types.Var)
		init, cond, isCount := forParts(l, lv, h.info)
		if !isCount || cond.Op != token.LSS || h.loopOf[lv] == nil || !h.loopOwnedVar(lv) {
			return nil, nil, nil, false
		}
		// Every use of v before the step, in this loop; no jump past it.
		ok = true
		ast.Inspect(h.spec.lit.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.Ident:
				if h.info.Uses[x] == v && x != inc.X && (!within(x.Pos(), l.Body) || x.Pos() >= inc.Pos()) {
					ok = false
				}
			case *ast.BranchStmt:
				if within(x.Pos(), l.Body) && (x.Tok == token.CONTINUE || x.Tok == token.GOTO) {
					ok = false
				}
			}
			return ok
		})
		if !ok || !within(id.Pos(), l.Body) {
			return nil, nil, nil, false
		}
		use := &ast.Ident{Name: lv.Name(), NamePos: id.Pos()} // the loop variable, read where v is
		h.info.Uses[use] = lv
		h.info.Types[use] = types.TypeAndValue{Type: lv.Type()}
		return j0, use, init, true
	}
	return nil, nil, nil, false
}
