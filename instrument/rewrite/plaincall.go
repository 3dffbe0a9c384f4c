package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// plainCall wraps x, a call in checked code into a package that is neither
// rewritten nor the standard library (analysis.Result.PlainCall), so that
// the goroutine's task is opaque while it runs and what it calls back runs
// as written (rt/opaque.go):
//
//	h.Fire()        _ga_rt.Plain(func() { h.Fire() })
//	v := h.Get(k)   v := _ga_rt.Done1(_ga_rt.Opaque(&h).Get(k))
//	a, b := dep.F() a, b := _ga_rt.Done2(_ga_rt.Opaque(dep.F)())
//
// x is already rewritten. A deferred call of a statement list stays as
// written, bracketed by the list (plainBracket). One among a construct's
// own statements, where no statement can be added, without results becomes
// `defer _ga_rt.Plain(h.Fire)` or `defer _ga_rt.PlainArgs1(h.FireN)(n)`,
// which evaluate what the call did where the defer statement runs
// (analysis.PlainDeferrable; a recover() in it returns nil); other deferred
// calls are left as they are: wrapping them in a literal would move their
// arguments' evaluation to the function's exit.
func (w *walker) plainCall(x *dst.CallExpr, a *ast.CallExpr) dst.Expr {
	if w.task == "" {
		return x
	}
	if _, ok := w.res.PlainCall(w.info, a); !ok {
		return x
	}
	if x == w.deferred {
		if a == w.listed {
			return x // plainBracket
		}
		if !analysis.PlainDeferrable(w.info, a) {
			return x
		}
		w.change()
		if len(x.Args) == 0 {
			return w.rtCall(rtnames.Plain, x.Fun) // defer _ga_rt.Plain(h.Fire)
		}
		name := [...]string{1: rtnames.PlainArgs1, 2: rtnames.PlainArgs2, 3: rtnames.PlainArgs3}[len(x.Args)]
		return &dst.CallExpr{Fun: w.rtCall(name, x.Fun), Args: x.Args} // defer _ga_rt.PlainArgs1(h.FireN)(n)
	}
	mark := analysis.PlainMarkOf(w.info, a)
	opaque := func(e dst.Expr) dst.Expr { return w.rtCall(rtnames.Opaque, e) }
	switch mark {
	case analysis.MarkNone:
		return x
	case analysis.MarkWhole:
		w.change()
		return w.rtCall(rtnames.Plain, &dst.FuncLit{
			Type: &dst.FuncType{Func: true, Params: &dst.FieldList{}},
			Body: &dst.BlockStmt{List: []dst.Stmt{&dst.ExprStmt{X: x}}},
		})
	case analysis.MarkRecv, analysis.MarkRecvAddr:
		sel := unparenFun(x).(*dst.SelectorExpr)
		recv := sel.X
		if mark == analysis.MarkRecvAddr {
			recv = &dst.UnaryExpr{Op: token.AND, X: recv}
		}
		sel.X = opaque(recv)
	case analysis.MarkFunc:
		x.Fun = opaque(x.Fun)
	case analysis.MarkArg:
		x.Args[0] = opaque(x.Args[0])
	}
	w.change()
	return w.rtCall(doneName(w.info.TypeOf(a)), x)
}

// unparenFun is x's function without parentheses.
func unparenFun(x *dst.CallExpr) dst.Expr {
	f := x.Fun
	for {
		p, ok := f.(*dst.ParenExpr)
		if !ok {
			return f
		}
		f = p.X
	}
}

// doneName is the rt.Done function for a call of type t (1 to 4 results).
func doneName(t types.Type) string {
	if tu, ok := t.(*types.Tuple); ok {
		return [...]string{2: rtnames.Done2, 3: rtnames.Done3, 4: rtnames.Done4}[tu.Len()]
	}
	return rtnames.Done1
}

// plainBracket returns the statements that go right before and right
// after s when s defers a call into plain code:
//
//	defer _ga_rt.PlainAfter()
//	defer dep.Catch(&err)
//	defer _ga_rt.PlainBefore()
//
// Deferred calls run last in first out, so the task is opaque while the
// call runs (rt.PlainBefore), as rt.Plain makes it, and the call itself
// is still the deferred function: a recover() in it stops the panic. In
// rt.Plain's wrapper it returned nil (testdata/review18/plainrecover).
func (w *walker) plainBracket(s dst.Stmt) (before, after []dst.Stmt) {
	a := analysis.ListedDefer(w.astOf(s))
	if a == nil || w.task == "" {
		return nil, nil
	}
	if _, ok := w.res.PlainCall(w.info, a); !ok {
		return nil, nil
	}
	w.change()
	return []dst.Stmt{&dst.DeferStmt{Call: w.rtCall(rtnames.PlainAfter)}}, []dst.Stmt{&dst.DeferStmt{Call: w.rtCall(rtnames.PlainBefore)}}
}
