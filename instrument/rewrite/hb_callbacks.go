package rewrite

import (
	"go/ast"
	"go/types"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// Callbacks the runtime runs later on a goroutine of its own (-hb): the
// function handed to time.AfterFunc, runtime.SetFinalizer,
// runtime.AddCleanup and synctest.Test is wrapped so that each run of it
// is a thread (rt/hb_callbacks.go):
//
//	time.AfterFunc(d, f)           ->  time.AfterFunc(d, _ga_rt.Later(_ga_hb, f, site))
//	synctest.Test(t, f)            ->  synctest.Test(t, _ga_rt.Later(_ga_hb, f, site))
//	runtime.SetFinalizer(p, f)     ->  runtime.SetFinalizer(p, _ga_rt.Finalizer(f, site))
//	runtime.AddCleanup(p, f, arg)  ->  runtime.AddCleanup(p, _ga_rt.Cleanup(f, site), arg)
//
// f's own body finds its thread with HB, as any function does. A
// statement that calls synctest.Wait or synctest.Test is followed by
// _ga_hb.AcquireAll(): both return once the bubble's other goroutines are
// durably blocked or gone, after what they did.

// hbLaterCallee returns the rt wrapper for the function argument (index
// 1 in each) of a call of fn, or "" when fn runs no function later.
func hbLaterCallee(fn *types.Func) string {
	if !analysis.RunsLater(fn) {
		return ""
	}
	switch fn.Name() {
	case "SetFinalizer":
		return rtnames.Finalizer
	case "AddCleanup":
		return rtnames.Cleanup
	}
	return rtnames.Later // time.AfterFunc, synctest.Test
}

// hbLaterArg wraps the function argument of a call hbLaterCallee knows;
// x.Args are already rewritten. A finalizer that is not of a function type
// (nil, an interface holding one) is left: it runs on no thread, unchecked.
func (w *walker) hbLaterArg(x *dst.CallExpr, a *ast.CallExpr, fn *types.Func) {
	wrap := hbLaterCallee(fn)
	if !w.hooks() || wrap == "" || len(a.Args) < 2 || len(x.Args) != len(a.Args) {
		return
	}
	if _, isFunc := underlying(w.info.TypeOf(a.Args[1])).(*types.Signature); !isFunc {
		return
	}
	w.change()
	site := siteLit(w.site(a.Pos(), types.ExprString(a.Fun)))
	if wrap == rtnames.Later {
		x.Args[1] = w.rtCall(wrap, w.taskExpr(), x.Args[1], site)
	} else {
		x.Args[1] = w.rtCall(wrap, x.Args[1], site)
	}
	w.hbNoted(a.Pos())
	if lit, ok := ast.Unparen(a.Args[1]).(*ast.FuncLit); ok {
		w.hbNoted(lit.Pos())
	}
}

// hbQuiesces reports whether n, outside function literals, calls
// synctest.Wait or synctest.Test.
func (w *walker) hbQuiesces(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		switch x := m.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if fn := analysis.Callee(w.info, x.Fun); fn != nil {
				switch fn.FullName() {
				case "testing/synctest.Wait", "testing/synctest.Test":
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// acquireAllHook is task.AcquireAll().
func (w *walker) acquireAllHook() dst.Stmt {
	w.change()
	return &dst.ExprStmt{X: &dst.CallExpr{Fun: &dst.SelectorExpr{X: w.taskExpr(), Sel: dst.NewIdent(rtnames.AcquireAll)}}}
}
