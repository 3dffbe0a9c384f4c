package rewrite

import (
	"go/ast"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// Work items received inside a callback (analysis/callitems.go). A pool
// worker that hands its channel to a function value says so first,
//
//	go func(k *Task) { k.Drains(c); defer wg.Done(); fn(c) }
//
// and the checked copy of a callback whose range over its channel may be
// the item loop asks at each receive whether its task drains that channel:
//
//	func(_ga_d *Task) {
//		defer _ga_d.EndItemsOf(ys)     // also when an item returns
//		…
//		for y := range ys { _ga_d.ItemOf(ys); … }
//		_ga_d.EndItemsOf(ys)
//		…
//	}

// drains marks the task k of worker fk as draining the channel it hands
// to a function value, if it does.
func (w *walker) drains(body *dst.BlockStmt, k string, fk *analysis.Fork) {
	ch := w.res.Drains(fk)
	if ch == nil {
		return
	}
	mark := &dst.ExprStmt{X: &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(k), Sel: dst.NewIdent(rtnames.Drains)}, Args: []dst.Expr{dst.NewIdent(ch.Name)}}}
	body.List = append([]dst.Stmt{mark}, body.List...)
	w.change()
}

// callbackItems puts ItemOf and EndItemsOf around the range of body, the
// checked copy of the callback a, when its receives may be work items.
func (w *walker) callbackItems(body *dst.BlockStmt, k string, a *ast.FuncLit) {
	if loop := w.res.CallbackItems(a); loop != nil {
		w.itemsOf(body, k, loop, a.Type.Params.List[0].Names[0].Name)
	}
}

// callbackItemsDecl does the same in the checked clone of fd.
func (w *walker) callbackItemsDecl(body *dst.BlockStmt, k string, fd *ast.FuncDecl) {
	if loop := w.res.CallbackItemsDecl(fd); loop != nil {
		w.itemsOf(body, k, loop, fd.Type.Params.List[0].Names[0].Name)
	}
}

// itemsOf puts ItemOf(ch) first in loop, a statement of body, EndItemsOf(ch)
// after it, and a deferred EndItemsOf(ch) first in body.
func (w *walker) itemsOf(body *dst.BlockStmt, k string, loop *ast.RangeStmt, ch string) {
	call := func(fn string) *dst.CallExpr {
		return &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(k), Sel: dst.NewIdent(fn)}, Args: []dst.Expr{dst.NewIdent(ch)}}
	}
	for i, s := range body.List {
		r, ok := s.(*dst.RangeStmt)
		if !ok || w.astOf(s) != loop {
			continue
		}
		r.Body.List = append([]dst.Stmt{&dst.ExprStmt{X: call(rtnames.ItemOf)}}, r.Body.List...)
		end := &dst.ExprStmt{X: call(rtnames.EndItemsOf)}
		body.List = append(body.List[:i+1], append([]dst.Stmt{end}, body.List[i+1:]...)...)
		body.List = append([]dst.Stmt{&dst.DeferStmt{Call: call(rtnames.EndItemsOf)}}, body.List...)
		w.change()
		return
	}
	panic("internal error: the callback's range is not in its checked copy")
}
