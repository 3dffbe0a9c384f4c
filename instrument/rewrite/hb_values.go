package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

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
//     evaluated once, where it was; and a call of an exported method
//     of an interface value, x.M(a), the same with its receiver:
//     _ga_rt.ForeignMethod(task, x, m).M(a) reads the method's code from
//     the value's method table (m, its number there).
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
	ast.Inspect(a, func(n ast.Node) bool {
		if x, ok := n.(*ast.CallExpr); ok && call == nil && w.foreignCall(x) && (w.valueCall(x) || w.interfaceMethod(x) >= 0) {
			call = x
		}
		_, lit := n.(*ast.FuncLit)
		return call == nil && !lit
	})
	if call == nil || w.waitsBut(a, call) || slices.ContainsFunc(call.Args, func(e ast.Expr) bool { return callsOrWaits(w.info, e) }) {
		return nil // another call that may wait (a second foreign one too): Foreign before the statement
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
// chose, in _ga_rt.ForeignFunc(task, fun), or its receiver, an interface
// value, in _ga_rt.ForeignMethod(task, recv, m). fun is already
// rewritten.
func (w *walker) foreignFunc(x *dst.CallExpr, a *ast.CallExpr) {
	w.change()
	if m := w.interfaceMethod(a); m >= 0 {
		sel := x.Fun.(*dst.SelectorExpr)
		sel.X = w.rtCall(rtnames.ForeignMethod, w.taskExpr(), sel.X, &dst.BasicLit{Kind: token.INT, Value: itoa(m)})
		return
	}
	x.Fun = w.rtCall(rtnames.ForeignFunc, w.taskExpr(), x.Fun)
}

// interfaceMethod returns, when x calls an exported method of an
// interface value x.r (not a type parameter's, not promoted through a
// struct's field), the method's number in the interface's method table,
// else -1. The table is in the compiler's order (cmd/compile's
// types.Sym.Less): exported methods first, then by name, then by
// package path; go/types orders by Id, which differs when a package path
// sorts before an exported name.
func (w *walker) interfaceMethod(x *ast.CallExpr) int {
	s := w.methodCall(x)
	if s == nil || len(s.Index()) != 1 || !s.Obj().Exported() {
		return -1
	}
	recv := w.info.TypeOf(ast.Unparen(x.Fun).(*ast.SelectorExpr).X)
	if _, param := types.Unalias(recv).(*types.TypeParam); param || recv == nil {
		return -1
	}
	iface, ok := recv.Underlying().(*types.Interface)
	if !ok {
		return -1
	}
	ms := make([]*types.Func, iface.NumMethods())
	for i := range ms {
		ms[i] = iface.Method(i)
	}
	slices.SortFunc(ms, func(a, b *types.Func) int {
		if a.Exported() != b.Exported() {
			if a.Exported() {
				return -1
			}
			return 1
		}
		if c := strings.Compare(a.Name(), b.Name()); c != 0 {
			return c
		}
		return strings.Compare(pkgPath(a), pkgPath(b))
	})
	return slices.IndexFunc(ms, func(m *types.Func) bool {
		return m.Name() == s.Obj().Name() && (m.Exported() || pkgPath(m) == pkgPath(s.Obj().(*types.Func)))
	})
}

// pkgPath is the import path of fn's package, "" for none.
func pkgPath(fn *types.Func) string {
	if fn.Pkg() == nil {
		return ""
	}
	return fn.Pkg().Path()
}

// valueMethodWrappers returns the methods of value receivers f declares,
// as the compiler names the pointer wrappers it makes for them, which an
// interface value of the type calls: "(*T).M", "(*T[...]).M" for a
// generic type (HBPackage registers them: rt/hb_funcs.go).
func valueMethodWrappers(f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Name.Name == "_" {
			continue
		}
		t := ast.Unparen(fd.Recv.List[0].Type)
		if _, ptr := t.(*ast.StarExpr); ptr {
			continue
		}
		args := ""
		switch x := t.(type) {
		case *ast.IndexExpr:
			t, args = x.X, "[...]"
		case *ast.IndexListExpr:
			t, args = x.X, "[...]"
		}
		if id, ok := t.(*ast.Ident); ok {
			out = append(out, "(*"+id.Name+args+")."+fd.Name.Name)
		}
	}
	return out
}
