package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// A callback's writes of its output, item by item. imaging's filters
// write their output dst (cbfresh.go: made for the callback alone) row by
// row or column by column, one row or column an item:
//
//	c := make(chan int, count)                       // parallel (utils.go)
//	for i := start; i < stop; i++ { c <- i }
//	close(c)
//	… go func() { defer wg.Done(); fn(c) }() …
//
//	parallel(0, src.h, func(ys <-chan int) {         // blurHorizontal
//		for y := range ys {
//			for x := 0; x < src.w; x++ {
//				j := y*dst.Stride + x*4
//				d := dst.Pix[j : j+4 : j+4]
//				d[0] = …
//
// Each item value is sent once (the counter of the feed's loop, sent as
// the loop's one statement, on a channel made there and used by nothing
// else but its close and the workers' call), so two items are two values
// of [start, stop), whichever workers take them. The footprint of item y
// in dst.Pix is read by the heap pass's polynomials (affine.go) with the
// item in the place of the loop index: [y·Stride, y·Stride + 4·w) here,
// apart from every other item's when 4·w ≤ Stride (depend.go's band
// test). A column walk (blurVertical: item x, j := y*dst.Stride + x*4,
// 0 ≤ y < h) is no band: item x touches {y·Stride + 4x + k}. It is split
// by the row variable y whose coefficient is an invariant S: each item's
// offsets within a row, [x·4, x·4 + 4), are bands, and all items' offsets
// lie within [0, S) (first·P + a ≥ 0, last·P + bmax ≤ S), so a point
// y·S + C names one row and one offset, and the offset one item.
//
// The conditions are evaluated once, at the callback's start (as a
// specialization's guard, specialize.go): the bounds of the feed are the
// helper call's arguments (src.h, a field of a caller's local), the
// invariants the caller's locals and the fields the callback reads that no
// write of the helper's tree, nor of the helper's statements before its
// construct, may touch (cbreads.go: they keep one value while the pool
// runs). When they fail, the checked copy runs.

// itemSpace is what a heap pass reading a callback's item footprints
// knows of the items.
type itemSpace struct {
	y          *types.Var // the range's item variable: "@i"
	first, end ast.Expr   // items lie in [first, end): the call's arguments
	// stable reports whether the field selection x keeps its value while
	// the pool runs.
	stable func(x *ast.SelectorExpr) bool
}

// index is the variable the polynomials read as "@i": the callback's item,
// or the construct's loop index.
func (h *heapPass) index() *types.Var {
	if h.items != nil {
		return h.items.y
	}
	return h.c.Index
}

// itemFeed returns the bounds [first, end) of the values the helper of s
// sends on the channel its workers hand to the callback, each once, as
// the helper's expressions; ok is false when the feed is not of that
// shape: the channel a local made by make(chan int, …) in the helper's
// body, used only by one send of a for loop's counter (the loop's one
// statement, counting up by one from first while below end, the counter
// assigned by nothing else), its close, and the workers' call of the
// callback (Drains).
func (r *Result) itemFeed(s *specSite) (first, end ast.Expr, ok bool) {
	info := r.finder.info
	fk := onlyFork(s.c)
	if fk == nil {
		return nil, nil, false
	}
	ch := r.Drains(fk)
	if ch == nil {
		return nil, nil, false
	}
	cv, _ := info.Uses[ch].(*types.Var)
	if cv == nil || !within(cv.Pos(), s.helper.Body) {
		return nil, nil, false
	}
	ct, _ := underlying(cv.Type()).(*types.Chan)
	if ct == nil || !types.Identical(ct.Elem(), types.Typ[types.Int]) {
		return nil, nil, false
	}
	// The call fn(c) of the helper's parameter, in the worker.
	called := false
	ast.Inspect(fk.Body, func(n ast.Node) bool {
		if call, isCall := n.(*ast.CallExpr); isCall && len(call.Args) == 1 {
			f, _ := ast.Unparen(call.Fun).(*ast.Ident)
			a, _ := ast.Unparen(call.Args[0]).(*ast.Ident)
			called = called || f != nil && a != nil && info.Uses[f] == s.param && info.Uses[a] == cv
		}
		return true
	})
	if !called {
		return nil, nil, false
	}
	var loop *ast.ForStmt
	var send *ast.SendStmt
	uses := 0
	ok = true
	ast.Inspect(s.helper.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			if info.Uses[x] == cv {
				uses++
			}
		case *ast.ForStmt:
			if len(x.Body.List) == 1 {
				if st, isSend := x.Body.List[0].(*ast.SendStmt); isSend {
					if id, isID := ast.Unparen(st.Chan).(*ast.Ident); isID && info.Uses[id] == cv {
						if send != nil {
							ok = false
						}
						loop, send = x, st
					}
				}
			}
		case *ast.SendStmt:
			if id, isID := ast.Unparen(x.Chan).(*ast.Ident); isID && info.Uses[id] == cv && x != send {
				ok = false // a send of anything else (found before its loop is fine: checked below)
			}
		}
		return ok
	})
	// uses: the send, the close, the worker's call; the declaration is a Def.
	if !ok || loop == nil || uses != 3 || !r.finder.closedBefore(s.c.List[:s.c.First], ch) {
		return nil, nil, false
	}
	if d, isDef := r.defOf(cv, s.helper).(*ast.CallExpr); !isDef || builtinName(d, info) != "make" {
		return nil, nil, false
	}
	as, _ := loop.Init.(*ast.AssignStmt)
	if as == nil || len(as.Lhs) != 1 {
		return nil, nil, false
	}
	iv, _ := info.Defs[as.Lhs[0].(*ast.Ident)].(*types.Var)
	init, cond, isFor := forParts(loop, iv, info)
	val, _ := ast.Unparen(send.Value).(*ast.Ident)
	if !isFor || cond.Op != token.LSS || val == nil || info.Uses[val] != iv {
		return nil, nil, false
	}
	// The feed runs once per call of the helper: a statement of its body
	// itself, before the construct (so in no loop), with no goto that
	// could run it again.
	top := false
	for _, st := range s.c.List[:s.c.First] {
		top = top || st == ast.Stmt(loop)
	}
	if !top || len(s.c.List) != len(s.helper.Body.List) || &s.c.List[0] != &s.helper.Body.List[0] || hasGoto(s.helper.Body) {
		return nil, nil, false
	}
	if w := r.writes[iv]; w == nil || w.elsewhere {
		return nil, nil, false
	} else {
		for _, p := range w.at {
			if p < loop.Post.Pos() || p >= loop.Post.End() {
				return nil, nil, false // the counter is assigned in the body: a value may be sent twice
			}
		}
	}
	return init, cond.Y, true
}

// defOf is the value v is declared with by a := statement of fn, or nil.
func (r *Result) defOf(v *types.Var, fn ast.Node) ast.Expr {
	var out ast.Expr
	ast.Inspect(fn, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != len(as.Rhs) {
			return out == nil
		}
		for k, l := range as.Lhs {
			if id, isID := l.(*ast.Ident); isID && r.finder.info.Defs[id] == v {
				out = as.Rhs[k]
			}
		}
		return out == nil
	})
	return out
}

// itemWrites proves, into p, the accesses of s's outputs (fresh: the
// outputs and their windows, cbfresh.go) in the callback's item range
// disjoint across items, under a guard evaluated at the callback's start.
// ws are the writes of the helper's tree and of its statements before the
// construct: a field the guard reads must meet none.
func (r *Result) itemWrites(s *specSite, fresh map[*types.Var]bool, p *HeapProof, ws []treeWrite) string {
	if len(fresh) == 0 {
		return "" // nothing to prove
	}
	info := r.finder.info
	loop, _ := r.callbackRange(s.lit)
	if loop == nil {
		return "" // no items
	}
	if loop.Tok != token.DEFINE || loop.Value != nil {
		return "the callback's range does not declare its item alone"
	}
	yid, _ := loop.Key.(*ast.Ident)
	y, _ := info.Defs[yid].(*types.Var)
	if y == nil {
		return "the callback's range has no item variable"
	}
	if w := r.writes[y]; w == nil || w.elsewhere || len(w.at) > 0 {
		return "the item variable is assigned"
	}
	first, end, ok := r.itemFeed(s)
	if !ok {
		return "the helper's items are not the values of a counter, each sent once"
	}
	h, why := r.newHeapPassOf(s.c, true)
	if h == nil {
		return why
	}
	h.spec = s
	h.collectDefs(s.caller)
	h.inCallee = append(h.inCallee, s.lit)
	hps := params(s.helper.Type.Params, info)
	if len(hps) != len(s.call.Args) {
		return "the call does not match the helper's parameters"
	}
	for k, v := range hps {
		if v != nil && v != s.param && h.immutable(v) && pure(s.call.Args[k], info) {
			h.bind[v] = ast.Unparen(s.call.Args[k])
		}
	}
	h.recordLoops(s.lit.Body)
	h.items = &itemSpace{y: y, first: first, end: end, stable: func(x *ast.SelectorExpr) bool {
		l := readOf(access{e: x, typ: info.TypeOf(x), mode: read}, info)
		for _, w := range ws {
			if w.meets(l) {
				return false
			}
		}
		return true
	}}
	// Every access of an output's memory in the callback: its footprint.
	outs := map[*types.Var][]itemAccess{}
	why = ""
	var stack []ast.Node
	ast.Inspect(s.lit.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		defer func() { stack = append(stack, n) }()
		id, isID := n.(*ast.Ident)
		if !isID || why != "" {
			return why == ""
		}
		v := identVar(id, info)
		if !fresh[v] {
			return true
		}
		a, out, w := h.itemAccessOf(id, v, stack, fresh, loop)
		if w != "" {
			why = w
			return false
		}
		if out != nil {
			outs[out] = append(outs[out], a)
		}
		return true
	})
	if why != "" {
		return why
	}
	var conds []ast.Expr
	var proven []ast.Expr
	for _, as := range outs {
		c, w := h.itemsApart(as)
		if w != "" {
			return w
		}
		conds = append(conds, c...)
		for _, a := range as {
			if a.key != nil {
				proven = append(proven, a.key)
			}
		}
	}
	if len(proven) == 0 {
		return "no access of an output in the callback's items"
	}
	for _, c := range conds {
		if !h.itemEvaluable(c) {
			return "the condition " + types.ExprString(c) + " cannot be evaluated at the callback's start"
		}
	}
	v := HeapVerdict{Independent: true, Why: "each item touches its own elements of the output made for the callback"}
	if len(conds) > 0 {
		g := GuardSpan{Path: ast.NewIdent("items"), Injective: true, Band: true, Cond: conjunction(dedupe(conds))}
		p.Guard = append(p.Guard, g)
		v.Guarded = true
		v.Why += " (when " + strings.Join(exprStrings(dedupe(conds)), " && ") + ")"
	}
	for _, e := range proven {
		p.verdicts[e] = v
	}
	return ""
}

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

// itemEvaluable reports whether every name in the condition e denotes,
// at the callback's start, what the proof means: evaluableAtLit's names,
// and fields through a caller's locals that keep their value while the
// pool runs (items.stable).
func (h *heapPass) itemEvaluable(e ast.Expr) bool {
	ok := true
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if s := h.info.Selections[x]; s != nil && s.Kind() == types.FieldVal {
				if !h.items.stable(x) {
					ok = false
				} else {
					ast.Inspect(x.X, visit) // the field's name is not looked up
				}
				return false
			}
			ok = ok && h.evaluableAtLit(x)
			return false
		case *ast.StarExpr:
			ok = false
		case *ast.Ident:
			ok = ok && h.nameAtLit(x)
		}
		return ok
	}
	ast.Inspect(e, visit)
	return ok
}

// exprStrings prints each of es.
func exprStrings(es []ast.Expr) []string {
	out := make([]string, len(es))
	for k, e := range es {
		out[k] = types.ExprString(e)
	}
	return out
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
