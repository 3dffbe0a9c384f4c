package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/plan"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// This file runs a construct in two versions when some of its heap proofs
// hold only if certain slices do not overlap (analysis.HeapProof.Guard):
//
//	if _ga_rt.GuardR(_ga_rt.GuardW(_ga_rt.NewGuard(), next), cur).Disjoint() {
//		for … { go func(…) { next[k] = cur[k-1] + cur[k+1] } }   // proven accesses unchecked
//	} else {
//		for … { go func(…) { *_ga_rt.W(…, &next[k], …) = … } }    // everything checked
//	}
//
// The guard costs one pass over the slice headers (a sort for the rows of
// a [][]T) at the construct's start.

// heapProof returns the heap proofs that apply to the code being rewritten:
// those of the root construct of this function, never in a clone (whose
// caller's construct the proofs know nothing of) or a nested construct.
func (w *walker) heapProof() *analysis.HeapProof {
	if w.cur == nil || w.cur != w.outer || w.inClone || w.cfg.Conservative {
		return nil
	}
	return w.res.Heap(w.cur)
}

// heapVerdict returns the proof that the access a (read when fn is R)
// needs no check in the version being rewritten.
func (w *walker) heapVerdict(a ast.Expr, fn string) (analysis.HeapVerdict, bool) {
	p := w.heapProof()
	if p == nil {
		return analysis.HeapVerdict{}, false
	}
	v, ok := p.Verdict(a)
	if !ok || (v.Guarded && !w.guarded) || (!v.Independent && fn != rtnames.R) {
		return analysis.HeapVerdict{}, false
	}
	return v, true
}

// recordHeap records a heap proof in the plan.
func (w *walker) recordHeap(a ast.Expr, fn string, v analysis.HeapVerdict) {
	verdict := plan.ReadOnly
	if v.Independent {
		verdict = plan.Independent
	}
	w.record(a, fn, verdict, v.Why)
}

// versioned reports whether construct c's forking loop is to be run in a
// guarded and a checked version: some proof needs the guard, and the loop
// declares no label (a copy would declare it twice).
func (w *walker) versioned(c *analysis.Construct, loop dst.Stmt) bool {
	if c != w.outer || w.inClone || w.cfg.Conservative || len(w.res.Heap(c).Guard) == 0 {
		return false
	}
	labels := false
	dst.Inspect(loop, func(n dst.Node) bool {
		if _, ok := n.(*dst.LabeledStmt); ok {
			labels = true
		}
		return !labels
	})
	return !labels
}

// version rewrites loop twice: as is, with the guarded proofs (inner), and
// a copy with every access checked and nothing recorded in the plan, and
// returns the if statement choosing between them.
func (w *walker) version(c *analysis.Construct, inner *walker, loop dst.Stmt) dst.Stmt {
	copied := w.cloneMapped(loop)
	pruned := *inner
	pruned.guarded = true
	checked := *inner
	checked.silent = true
	pruned.seen(loop)
	pruned.stmt(loop)
	checked.seen(copied)
	checked.stmt(copied)
	w.change()
	return &dst.IfStmt{
		Cond: w.guardExpr(w.res.Heap(c).Guard),
		Body: &dst.BlockStmt{List: []dst.Stmt{loop}},
		Else: &dst.BlockStmt{List: []dst.Stmt{copied}},
	}
}

// guardExpr builds p != nil && … && _ga_rt.GuardX(…(_ga_rt.NewGuard(), s)…).Disjoint():
// the paths are evaluated only when every pointer on them is non-nil (a
// nil one makes the checked version run, which dereferences it as the
// program does).
func (w *walker) guardExpr(spans []analysis.GuardSpan) dst.Expr {
	g := dst.Expr(w.rtCall(rtnames.NewGuard))
	var nils []ast.Expr
	seen := map[string]bool{}
	for _, s := range spans {
		fn := map[[2]bool]string{{false, false}: rtnames.GuardR, {false, true}: rtnames.GuardW, {true, false}: rtnames.GuardRowsR, {true, true}: rtnames.GuardRowsW}[[2]bool{s.Rows, s.Write}]
		g = w.rtCall(fn, g, exprFromAST(s.Path))
		for e := s.Path; ; {
			sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
			if !ok {
				break
			}
			e = sel.X
			if _, ptr := underlying(w.info.TypeOf(e)).(*types.Pointer); ptr && !seen[types.ExprString(e)] {
				seen[types.ExprString(e)] = true
				nils = append([]ast.Expr{e}, nils...)
			}
		}
	}
	cond := dst.Expr(&dst.CallExpr{Fun: &dst.SelectorExpr{X: g, Sel: dst.NewIdent(rtnames.Disjoint)}})
	for i := len(nils) - 1; i >= 0; i-- {
		cond = &dst.BinaryExpr{X: &dst.BinaryExpr{X: exprFromAST(nils[i]), Op: token.NEQ, Y: dst.NewIdent("nil")}, Op: token.LAND, Y: cond}
	}
	return cond
}

// cloneMapped copies s, and maps each node of the copy to the original's
// syntax node, so the copy is rewritten with the same type information.
func (w *walker) cloneMapped(s dst.Stmt) dst.Stmt {
	c := dst.Clone(s).(dst.Stmt)
	var from, to []dst.Node
	dst.Inspect(s, func(n dst.Node) bool {
		if n != nil {
			from = append(from, n)
		}
		return true
	})
	dst.Inspect(c, func(n dst.Node) bool {
		if n != nil {
			to = append(to, n)
		}
		return true
	})
	for i, n := range from {
		if a, ok := w.dec.Ast.Nodes[n]; ok && i < len(to) {
			w.dec.Ast.Nodes[to[i]] = a
		}
	}
	return c
}
