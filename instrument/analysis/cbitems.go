package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
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
		var names []string
		for out := range outs {
			names = append(names, out.Name())
		}
		sort.Strings(names)
		conds = dedupe(conds)
		g := GuardSpan{Path: ast.NewIdent(strings.Join(names, ", ")), Injective: true, Band: true, Cond: conjunction(conds)}
		p.Guard = append(p.Guard, g)
		v.Guarded = true
		v.Why += " (when " + types.ExprString(g.Cond) + ")"
	}
	for _, e := range proven {
		p.verdicts[e] = v
	}
	return ""
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
