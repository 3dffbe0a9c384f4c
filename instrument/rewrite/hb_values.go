package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// Calls through values in an -hb build. A call whose callee the static
// stage cannot name may reach code that is not rewritten, which may
// synchronize unhooked, so its statement is preceded by Foreign, a release
// to the global clock. Most such calls in parallel Go reach the program's
// own code (a callback, a method of its own interface), and Foreign at
// each made a hot loop of them 140 times slower than plain
// (bench/callbacks). Two cases need no Foreign, or only at run time:
//
//   - a method of an interface (or a type parameter's constraint) whose
//     name is unexported and of a package this build rewrites: every
//     method of that name is declared in that package, so the call runs
//     rewritten code, which hooks its own synchronization;
//   - a call through a function value, the only call of its statement
//     that may wait: its function expression becomes
//     _ga_rt.ForeignFunc(task, f), which does Foreign when f's code is not
//     of a package an -hb build rewrote (rt/hb_funcs.go) and returns f,
//     evaluated once, where it was.
//
// The second is only done when nothing between ForeignFunc and the call
// can take the acquire Foreign leaves pending (which must follow the
// call): no other call, receive or wait in the statement that may wait,
// and no call in the call's arguments, which run in between.

// rewrittenMethod reports whether x calls an interface's method whose name
// is unexported and of a package this build rewrites.
func (w *walker) rewrittenMethod(x *ast.CallExpr) bool {
	s := w.methodCall(x)
	if s == nil {
		return false
	}
	m, _ := s.Obj().(*types.Func)
	if m == nil || m.Exported() || m.Pkg() == nil {
		return false
	}
	return w.cfg.hbRewritten[m.Pkg().Path()] || m.Pkg() == w.pkg.Types
}

// valueCall reports whether x calls a function value (not a method, not
// a function the static stage names).
func (w *walker) valueCall(x *ast.CallExpr) bool {
	if analysis.Callee(w.info, x.Fun) != nil {
		return false
	}
	if _, ok := underlying(w.info.TypeOf(x.Fun)).(*types.Signature); !ok {
		return false
	}
	if w.methodCall(x) != nil {
		return false // an interface's method
	}
	_, lit := ast.Unparen(x.Fun).(*ast.FuncLit)
	return !lit
}

// methodCall returns the selection of the method x calls (x.m(…) with m a
// method of x's type or an interface's), or nil.
func (w *walker) methodCall(x *ast.CallExpr) *types.Selection {
	sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if s := w.info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
		return s
	}
	return nil
}

// inlineValueCall returns the call through a value of the statement a that
// its own ForeignFunc can hook (see above), or nil.
func (w *walker) inlineValueCall(a ast.Stmt) *ast.CallExpr {
	switch a.(type) {
	case *ast.AssignStmt, *ast.ExprStmt, *ast.IncDecStmt, *ast.DeclStmt, *ast.ReturnStmt:
	default:
		return nil
	}
	var call *ast.CallExpr
	ok := true
	ast.Inspect(a, func(n ast.Node) bool {
		x, isCall := n.(*ast.CallExpr)
		switch {
		case !ok:
			return false
		case isCall && w.foreignCall(x) && w.valueCall(x) && call == nil:
			call = x
			for _, arg := range x.Args {
				ok = ok && !callsOrWaits(w.info, arg)
			}
		case isCall && w.foreignCall(x):
			ok = false // a second: Foreign before the statement
		}
		_, lit := n.(*ast.FuncLit)
		return !lit
	})
	if !ok || call == nil || w.waitsBut(a, call) {
		return nil
	}
	return call
}

// callsOrWaits reports whether e, outside function literals, calls a
// function (a conversion or a builtin does not count) or receives.
func callsOrWaits(info *types.Info, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			found = true // run in between if the callee calls it: a literal is code too
		case *ast.UnaryExpr:
			found = found || x.Op == token.ARROW
		case *ast.CallExpr:
			tv := info.Types[x.Fun]
			found = found || !tv.IsType() && !tv.IsBuiltin()
		}
		return !found
	})
	return found
}

// foreignFunc wraps the function expression of x, a call inlineValueCall
// chose, in _ga_rt.ForeignFunc(task, fun). fun is already rewritten.
func (w *walker) foreignFunc(x *dst.CallExpr) {
	w.change()
	x.Fun = w.rtCall(rtnames.ForeignFunc, w.taskExpr(), x.Fun)
}
