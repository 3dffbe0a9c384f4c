package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// `defer wg.Wait()` at the top level of a function body, before the
// goroutines start, joins them when the function returns: on every
// return, on runtime.Goexit (t.Fatal) and on a panic, since deferred calls
// run on all three. Such a construct spans from its first start to the
// end of the function; the parent's code after the forks (returns
// included) runs concurrently with the goroutines, in its own blocks. The
// analysis represents the join as a statement after the body's last
// (Construct.Deferred is the defer; List is a copy of the body's list with
// that statement appended), so every rule over List[First:Join] sees the
// whole span. The rewriter registers the construct's Join as a deferred
// call right before the user's defer, so it runs right after Wait returns.
//
// The defer is a join only when it waits for the goroutines it seems to:
//
//   - the WaitGroup is a local variable (or a part of one) that nothing
//     assigns after the defer: the receiver is evaluated at the defer;
//   - no goto jumps across the defer (it would skip the Wait, or register
//     it, and the Join, twice);
//   - nothing is deferred between `defer wg.Wait()` and the first start:
//     it would run before the Wait, while the goroutines run, but outside
//     the construct's code;
//   - if the function has named results, no return in the span gives
//     values: that assignment to the results runs while the goroutines
//     run and is not checked.
//
// A Wait deferred elsewhere (inside a loop or branch, or after the starts)
// is not recognised, and its goroutines' note says so.

// deferredWait returns the `defer obj.Wait()` statement standing at the
// top level of the function body before list[first], when list is that
// top level, or nil.
func (f *finder) deferredWait(list []ast.Stmt, first int, obj syncObj) *ast.DeferStmt {
	if obj.kind != "wg" || f.body == nil || len(list) == 0 || len(f.body.List) != len(list) || &f.body.List[0] != &list[0] {
		return nil
	}
	for _, s := range list[:first] {
		if d, ok := s.(*ast.DeferStmt); ok && f.isWait(d.Call, obj) {
			return d
		}
	}
	return nil
}

func (f *finder) isWait(call *ast.CallExpr, obj syncObj) bool {
	return f.methodName(call) == "(*sync.WaitGroup).Wait" && recvText(call) == obj.expr
}

// waitDeferredElsewhere explains why a `defer obj.Wait()` in the function
// does not join forks that no statement list joins, or returns "" when
// there is none (or it stands where deferredWait finds it).
func (f *finder) waitDeferredElsewhere(forks []ast.Node, obj syncObj) string {
	if obj.kind != "wg" || f.body == nil || len(forks) == 0 {
		return ""
	}
	why := ""
	inspectNoLit(f.body, func(n ast.Node, stack []ast.Node) {
		d, ok := n.(*ast.DeferStmt)
		if !ok || !f.isWait(d.Call, obj) || why != "" {
			return
		}
		top := len(stack) == 1
		if top && d.Pos() < forks[0].Pos() {
			return // the top-level case: the enclosing list decides
		}
		switch {
		case !top:
			why = obj.expr + ".Wait() is deferred inside a loop or branch, so the function's end is not a join the model can tie to these goroutines"
		default:
			why = obj.expr + ".Wait() is deferred after the goroutines start, so a return before it leaves them running"
		}
	})
	return why
}

// deferredWhy explains why the defer d at list[dIdx] is not the join of
// the goroutines starting at list[first], or returns "".
func (f *finder) deferredWhy(list []ast.Stmt, d *ast.DeferStmt, first int) string {
	wait := obj(d)
	root := waitRoot(f.info, wait)
	if root == nil || root.Pkg() == nil || root.Parent() == nil || root.Parent() == root.Pkg().Scope() {
		return "the deferred " + exprText(wait) + ".Wait() waits on a WaitGroup that is not a local variable; the goroutines may signal another one"
	}
	if f.assignedAfter(root, d.Pos()) {
		return root.Name() + " is assigned after defer " + exprText(wait) + ".Wait(), which waits on the value it had at the defer"
	}
	if f.gotoAcross(d) {
		return "a goto jumps across defer " + exprText(wait) + ".Wait(), which then runs never or twice"
	}
	for _, s := range list {
		if s.Pos() <= d.Pos() || s.Pos() >= list[first].Pos() {
			continue
		}
		if hasDefer(&ast.BlockStmt{List: []ast.Stmt{s}}) {
			return "a call deferred between defer " + exprText(wait) + ".Wait() and the goroutine starts runs before the Wait, while they run, outside the construct"
		}
	}
	if f.namedResults() {
		for _, s := range list[first:] {
			bad := false
			inspectNoLit(s, func(n ast.Node, _ []ast.Node) {
				if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) > 0 {
					bad = true
				}
			})
			if bad {
				return "a return with values assigns the named results while the goroutines still run (before the deferred Wait); that write is not checked"
			}
		}
	}
	return ""
}

// obj is the receiver expression of a deferred method call.
func obj(d *ast.DeferStmt) ast.Expr {
	return ast.Unparen(d.Call.Fun).(*ast.SelectorExpr).X
}

// waitRoot is the variable at the root of a WaitGroup expression e (wg, &wg,
// s.wg, (*p).wg: through pointers too), or nil.
func waitRoot(info *types.Info, e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, _ := info.Uses[x].(*types.Var)
			return v
		case *ast.SelectorExpr:
			if s := info.Selections[x]; s == nil || s.Kind() != types.FieldVal {
				return nil
			}
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return nil
			}
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// assignedAfter reports whether v, or a part of it, is assigned, or its
// address taken when it holds a pointer, in the function after pos.
func (f *finder) assignedAfter(v *types.Var, pos token.Pos) bool {
	_, isPtr := v.Type().Underlying().(*types.Pointer)
	hit := func(e ast.Expr) bool { return e.Pos() > pos && waitRoot(f.info, e) == v }
	found := false
	ast.Inspect(f.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok && n.Tok == token.DEFINE && f.info.Defs[id] != nil {
					continue
				}
				found = found || hit(l)
			}
		case *ast.IncDecStmt:
			found = found || hit(n.X)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				found = found || n.Key != nil && hit(n.Key) || n.Value != nil && hit(n.Value)
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && isPtr && n.Op == token.AND && f.info.Uses[id] == v && n.Pos() > pos {
				found = true
			}
		}
		return !found
	})
	return found
}

// gotoAcross reports whether a goto of the function jumps from one side
// of d to the other.
func (f *finder) gotoAcross(d *ast.DeferStmt) bool {
	labels := map[types.Object]token.Pos{}
	inspectNoLit(f.body, func(n ast.Node, _ []ast.Node) {
		if l, ok := n.(*ast.LabeledStmt); ok {
			labels[f.info.Defs[l.Label]] = l.Pos()
		}
	})
	found := false
	inspectNoLit(f.body, func(n ast.Node, _ []ast.Node) {
		if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO {
			l, ok := labels[f.info.Uses[b.Label]]
			if ok && (b.Pos() < d.Pos()) != (l < d.Pos()) {
				found = true
			}
		}
	})
	return found
}

// namedResults reports whether the function whose body is f.body has
// named results.
func (f *finder) namedResults() bool {
	var ft *ast.FuncType
	for _, file := range f.files {
		if file.Pos() > f.body.Pos() || f.body.End() > file.End() {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Body == f.body {
					ft = n.Type
				}
			case *ast.FuncLit:
				if n.Body == f.body {
					ft = n.Type
				}
			}
			return ft == nil
		})
	}
	if ft == nil {
		return true // unknown: assume the worst
	}
	return ft.Results != nil && len(ft.Results.List) > 0 && len(ft.Results.List[0].Names) > 0
}

// waitInside explains, for forks whose list has no join, a Wait of obj
// (or a receive from its channel) that stands inside an expression of a
// later statement (fmt.Println(g.Wait() != nil), fmt.Println(<-ch + 1)): the join is there, but only a Wait that
// is the whole of a statement, of an assignment's or a return's value or
// of an if's init is one, since the rest of such an expression may run before
// it, while the goroutines do. It returns "" when there is none.
func (f *finder) waitInside(stmts []ast.Stmt, obj syncObj) string {
	want := map[string]string{"wg": "(*sync.WaitGroup).Wait", "errgroup": "(*golang.org/x/sync/errgroup.Group).Wait"}[obj.kind]
	why := ""
	for _, s := range stmts {
		var exprs []ast.Expr
		switch s := s.(type) {
		case *ast.ExprStmt:
			exprs = []ast.Expr{s.X}
		case *ast.AssignStmt:
			exprs = s.Rhs
		case *ast.ReturnStmt:
			exprs = s.Results
		case *ast.IfStmt:
			exprs = []ast.Expr{s.Cond}
			if as, ok := s.Init.(*ast.AssignStmt); ok {
				exprs = append(exprs, as.Rhs...)
			}
		}
		for _, e := range exprs {
			if why != "" {
				break
			}
			why = f.waitIn(e, obj, want)
		}
	}
	return why
}

// waitIn is waitInside for one expression, of which a Wait of obj must be a
// strict part.
func (f *finder) waitIn(e ast.Expr, obj syncObj, want string) string {
	why := ""
	inspectNoLit(e, func(n ast.Node, _ []ast.Node) {
		if obj.kind == "chan" && n != ast.Unparen(e) && why == "" {
			if u, ok := n.(*ast.UnaryExpr); ok && isRecv(u, obj.expr) {
				why = "goroutine signals channel " + obj.expr + ", received by " + types.ExprString(u) + " inside an expression, whose other operands may be evaluated while the goroutines run: a join receive is a statement of its own (<-ch, v := <-ch) or a loop of only those"
			}
			return
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || n == ast.Unparen(e) || why != "" || recvText(call) != obj.expr {
			return
		}
		if (want != "" && f.methodName(call) == want) || f.wrapJoins(call, obj, true) != nil {
			why = "goroutine is joined by " + types.ExprString(call) + " inside an expression, whose other operands may be evaluated while the goroutines run: a join is the Wait call itself, as a statement, an assignment's or a return's value, or an if's init"
		}
	})
	return why
}
