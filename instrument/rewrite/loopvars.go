package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// Since go1.22 each iteration of a three-clause loop has its own copy of
// the variables its init statement declares: the post statement runs on a
// new copy, made from the last one. A copy whose address the body takes
// lives on the heap, so it is a new object each iteration, on memory a
// finished sibling's objects may have held. Its shadow must be forgotten
// (rt.New) before anything checks it, or the checks of the init, the
// condition and the post statement see the freed objects' history as
// concurrent: a false report (sound_review2_cyclic's `for v := i; …;
// v += S { … bump(&v) }` in the conservative build, when the collector
// reused memory between blocks).
//
// Nothing can reach a copy before its body takes its address: the init,
// the condition and the post statement touch only their own iteration's
// copy, which no pointer reaches yet, unless they take its address
// themselves (then this does not apply). So their accesses of these
// variables are private, and the body begins with rt.New of each.

// freshLoopVars returns the variables the init of the loop a declares that
// get a new copy each iteration and whose address is taken or that are
// shared, when the header never takes their address itself; else nil.
func (w *walker) freshLoopVars(a *ast.ForStmt) []*ast.Ident {
	if w.task == "" || a == nil || !analysis.PerIterationLoopVars(w.info, w.astFile) {
		return nil
	}
	init, ok := a.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE {
		return nil
	}
	var ids []*ast.Ident
	vars := map[*types.Var]bool{}
	for _, l := range init.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			continue
		}
		if v, ok := w.info.Defs[id].(*types.Var); ok && (w.res.Shared[v] || w.res.Addressed[v]) {
			ids = append(ids, id)
			vars[v] = true
		}
	}
	if len(ids) == 0 || addressIn(w.info, vars, a.Init, a.Cond, a.Post) {
		return nil
	}
	return ids
}

// addressIn reports whether any of nodes takes the address of one of vars
// (&v, or a method with a pointer receiver called on v).
func addressIn(info *types.Info, vars map[*types.Var]bool, nodes ...ast.Node) bool {
	found := false
	isVar := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		v, _ := info.Uses[id].(*types.Var)
		return vars[v]
	}
	for _, n := range nodes {
		if n == nil {
			continue
		}
		ast.Inspect(n, func(m ast.Node) bool {
			switch x := m.(type) {
			case *ast.UnaryExpr:
				found = found || x.Op == token.AND && isVar(x.X)
			case *ast.SelectorExpr:
				if s := info.Selections[x]; s != nil && s.Kind() == types.MethodVal && isVar(x.X) {
					if sig, ok := s.Obj().Type().(*types.Signature); ok && sig.Recv() != nil && isPointer(sig.Recv().Type()) {
						found = true
					}
				}
			case *ast.FuncLit:
				found = true // a closure in the header may keep the copy
			}
			return !found
		})
	}
	return found
}

// forStmt rewrites a three-clause loop; see freshLoopVars.
func (w *walker) forStmt(s *dst.ForStmt) {
	a, _ := w.astOf(s).(*ast.ForStmt)
	ids := w.freshLoopVars(a)
	header := w
	if len(ids) > 0 {
		v := *w
		v.privateVars = map[*types.Var]bool{}
		for k, x := range w.privateVars {
			v.privateVars[k] = x
		}
		for _, id := range ids {
			v.privateVars[w.info.Defs[id].(*types.Var)] = true
		}
		header = &v
	}
	header.optStmt(s.Init)
	if s.Cond != nil {
		s.Cond = header.rval(s.Cond)
	}
	header.optStmt(s.Post)
	w.block(s.Body)
	if len(ids) > 0 {
		s.Body.List = append(w.freshIdents(ids), s.Body.List...)
	}
}
