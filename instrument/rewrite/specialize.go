package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/plan"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// A callback proven as the body of its helper's construct
// (analysis.Specialization) runs a pruned copy when its goroutine has a
// task, the checked copy only when the proof's guard fails:
//
//	func(lo, hi int) {
//		if _ga_rt.Attached() {
//			if _ga_d := _ga_rt.Current(); _ga_d != nil {
//				if _ga_m := _ga_rt.GuardMemo(_ga_d); _ga_m > 0 || _ga_m < 0 && _ga_rt.GuardStore(_ga_d, guard) {
//					func(_ga_d *_ga_rt.Task) { … pruned … }(_ga_d)
//					return
//				}
//				func(_ga_d *_ga_rt.Task) { … checked … }(_ga_d)
//				return
//			}
//		}
//		… as written …
//	}
//
// Only the literal made in a function's plain body is specialized: that
// body calls the plain helper, whose construct begins a root tree, and the
// literal runs nowhere else. The guard names only the caller's locals
// that nothing writes while the helper runs, so each block would compute
// the verdict the construct's start would: the first block of the
// instance computes it and stores it in the construct (rt.GuardStore), the
// others read it (rt.GuardMemo), so a guard that scans rows or an index
// slice runs once per instance, not once per block.

// specialization returns the proof of the literal a when this copy of it
// is the one made in a plain body, pruning.
func (w *walker) specialization(a *ast.FuncLit) *analysis.Specialization {
	if w.task != "" || w.inClone || w.cur != nil || w.checksAll() || w.silent || w.res.CallbackItems(a) != nil {
		return nil // (a callback draining its channel has a block per item, callitems.go; specLit has none)
	}
	return w.res.Specialized(a)
}

// callbackReads returns the proof of the reads of the literal a that
// nothing in its helper's tree writes (analysis/cbreads.go) when this
// copy of it is the one made in a plain body, whose helper's construct
// begins a root tree, as for specialization.
func (w *walker) callbackReads(a *ast.FuncLit) *analysis.HeapProof {
	if w.task != "" || w.inClone || w.cur != nil || w.checksAll() || w.silent {
		return nil
	}
	return w.res.CallbackReads(a)
}

// specLit is dynLit for a specialized literal: copyBody is its body to
// check, prunedBody another copy, both unrewritten.
func (w *walker) specLit(x *dst.FuncLit, a *ast.FuncLit, sp *analysis.Specialization, copyBody, prunedBody *dst.BlockStmt) {
	pos := func(n ast.Node) plan.Pos { return plan.PosOf(w.pkg.Fset, n.Pos()) }
	c := sp.Helper
	entry := &plan.Construct{Pos: pos(a), Kind: fmt.Sprintf("callback of the %s at %s:%d", c.Kind, filepath.Base(pos(c.List[c.First]).File), pos(c.List[c.First]).Line), Join: pos(c.List[c.Join])}
	guard := sp.Proof.Guard
	for _, g := range guard {
		if g.Injective {
			entry.Injective = append(entry.Injective, g.What())
		} else {
			entry.Guard = append(entry.Guard, g.What())
		}
	}
	p := w.with("_ga_d")
	p.inClone, p.cur, p.outer, p.coal = true, nil, nil, nil
	p.spec, p.callback, p.guarded, p.silent = sp.Proof, entry, len(guard) > 0, false
	p.block(prunedBody)
	prunedBody.List = append(p.freshFields(a.Type.Params, a.Type.Results), prunedBody.List...)

	v := w.with("_ga_d")
	v.inClone, v.cur, v.outer, v.coal = true, nil, nil, nil
	v.silent = true // counted in the pruned copy
	v.block(copyBody)
	copyBody.List = append(v.freshFields(a.Type.Params, a.Type.Results), copyBody.List...)

	results := a.Type.Results != nil && len(a.Type.Results.List) > 0
	run := func(body *dst.BlockStmt) []dst.Stmt {
		ft := &dst.FuncType{Func: true, Params: &dst.FieldList{List: []*dst.Field{taskParam("_ga_d")}}}
		if x.Type.Results != nil {
			ft.Results = dst.Clone(x.Type.Results).(*dst.FieldList)
		}
		call := &dst.CallExpr{Fun: &dst.FuncLit{Type: ft, Body: body}, Args: []dst.Expr{dst.NewIdent("_ga_d")}}
		if results {
			return []dst.Stmt{&dst.ReturnStmt{Results: []dst.Expr{call}}}
		}
		return []dst.Stmt{&dst.ExprStmt{X: call}, &dst.ReturnStmt{}}
	}
	inner := run(prunedBody)
	if len(guard) > 0 {
		// the first block of the instance evaluates the guard, the others
		// read its verdict (memoGuard)
		inner = append([]dst.Stmt{w.memoGuard(guard, inner)}, run(copyBody)...)
	}
	s := &dst.IfStmt{
		Init: &dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent("_ga_d")}, Tok: token.DEFINE, Rhs: []dst.Expr{w.rtCall(rtnames.Current)}},
		Cond: &dst.BinaryExpr{X: dst.NewIdent("_ga_d"), Op: token.NEQ, Y: dst.NewIdent("nil")},
		Body: &dst.BlockStmt{List: inner},
	}
	x.Body.List = append([]dst.Stmt{w.gated(s, a.Type.Func)}, x.Body.List...)
	w.plan.Callbacks = append(w.plan.Callbacks, *entry)
	w.change()
}

// memoGuard is
//
//	if _ga_m := GuardMemo(_ga_d); _ga_m > 0 || _ga_m < 0 && GuardStore(_ga_d, guard) { body }
//
// in a callback's prologue: the first block of a pool instance evaluates
// the guard, the others read its verdict.
func (w *walker) memoGuard(guard []analysis.GuardSpan, body []dst.Stmt) dst.Stmt {
	m := dst.NewIdent("_ga_m")
	return &dst.IfStmt{
		Init: &dst.AssignStmt{Lhs: []dst.Expr{m}, Tok: token.DEFINE, Rhs: []dst.Expr{w.rtCall(rtnames.GuardMemo, dst.NewIdent("_ga_d"))}},
		Cond: &dst.BinaryExpr{
			X:  &dst.BinaryExpr{X: dst.NewIdent("_ga_m"), Op: token.GTR, Y: &dst.BasicLit{Kind: token.INT, Value: "0"}},
			Op: token.LOR,
			Y: &dst.BinaryExpr{
				X:  &dst.BinaryExpr{X: dst.NewIdent("_ga_m"), Op: token.LSS, Y: &dst.BasicLit{Kind: token.INT, Value: "0"}},
				Op: token.LAND,
				Y:  w.rtCall(rtnames.GuardStore, dst.NewIdent("_ga_d"), w.guardExpr(guard)),
			},
		},
		Body: &dst.BlockStmt{List: body},
	}
}
