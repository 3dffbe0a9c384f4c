package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A construct joined by channel may run inside a goroutine of another
// construct, or in a function such goroutines call (DESIGN.md, nested
// parallelism). Its goroutines' final sends and its join receives are
// then channel operations in the outer goroutines' code, but they are no
// communication between those goroutines when every instance of the inner
// construct has a channel of its own, used for nothing but its join: a
// variable its own function declares with make, whose every use is one of
// those sends and receives. Such operations are recorded in joinOps and
// not counted by syncIn. A channel declared elsewhere (by an enclosing
// function, a package variable, a parameter), or also stored, passed,
// reassigned or used otherwise, may be shared by instances that run at
// once, and its operations still count.

// recordLocalJoin adds to f.joinOps the join operations of c when its
// join channel is local to it in that sense.
func (f *finder) recordLocalJoin(c *Construct, fnBody *ast.BlockStmt) {
	ops := f.localJoinOps(c, fnBody)
	if len(ops) == 0 {
		return
	}
	if f.joinOps == nil {
		f.joinOps = map[ast.Node]bool{}
	}
	for _, n := range ops {
		f.joinOps[n] = true
	}
}

// localJoinOps returns the final sends of c's goroutines and its join
// receives when c is joined by a channel local to it, or nil.
func (f *finder) localJoinOps(c *Construct, fnBody *ast.BlockStmt) []ast.Node {
	if c.JoinCall != nil || fnBody == nil || len(c.Forks) == 0 {
		return nil
	}
	var ch *types.Var
	var ops []ast.Node
	uses := map[*ast.Ident]bool{}
	same := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		v, _ := f.info.Uses[id].(*types.Var)
		if v == nil || ch != nil && v != ch {
			return false
		}
		ch, uses[id] = v, true
		return true
	}
	for _, fk := range c.Forks {
		if fk.Body == nil || len(fk.Body.Body.List) == 0 {
			return nil // a named function's send is on its parameter
		}
		send, ok := fk.Body.Body.List[len(fk.Body.Body.List)-1].(*ast.SendStmt)
		if !ok || !same(send.Chan) {
			return nil
		}
		ops = append(ops, send)
	}
	for _, s := range c.List[c.First+1 : c.Join+1] {
		if !f.isJoin(s, c) {
			continue
		}
		ast.Inspect(s, func(n ast.Node) bool {
			if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				if id, ok := ast.Unparen(u.X).(*ast.Ident); ok && f.info.Uses[id] == ch {
					uses[id] = true
					ops = append(ops, u)
				}
			}
			return true
		})
	}
	if !f.madeIn(ch, fnBody) || !f.usedOnlyAt(ch, fnBody, uses) {
		return nil
	}
	return ops
}

// madeIn reports whether v is declared in body by `v := make(...)` or
// `var v = make(...)`.
func (f *finder) madeIn(v *types.Var, body *ast.BlockStmt) bool {
	if v.Pos() < body.Pos() || v.Pos() >= body.End() {
		return false
	}
	found := false
	check := func(names []ast.Expr, values []ast.Expr) {
		if len(names) != len(values) {
			return
		}
		for i, n := range names {
			if id, ok := n.(*ast.Ident); ok && f.info.Defs[id] == v && f.isMake(values[i]) {
				found = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				check(n.Lhs, n.Rhs)
			}
		case *ast.ValueSpec:
			names := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				names[i] = id
			}
			check(names, n.Values)
		}
		return !found
	})
	return found
}

// isMake reports whether e calls the builtin make.
func (f *finder) isMake(e ast.Expr) bool { return BuiltinCall(f.info, e, "make") }

// BuiltinCall reports whether e is a call of the builtin name (make,
// panic), not of a function that shadows it.
func BuiltinCall(info *types.Info, e ast.Expr, name string) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// usedOnlyAt reports whether every use of v in body is one of the
// identifiers in uses.
func (f *finder) usedOnlyAt(v *types.Var, body *ast.BlockStmt, uses map[*ast.Ident]bool) bool {
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		if id, isID := n.(*ast.Ident); isID && f.info.Uses[id] == v && !uses[id] {
			ok = false
		}
		return ok
	})
	return ok
}

// ownChannel reports whether the join channel obj of a construct whose
// statements are stmts is a variable the function running them makes
// (madeIn). Each run of the function then joins on a channel of its own;
// a channel it was given, or a field or global, may be shared by
// instances running at once, and one instance's join receives could take
// another's sends and end before its own goroutines do.
func (f *finder) ownChannel(stmts []ast.Stmt, obj syncObj) bool {
	var ch *types.Var
	for _, s := range stmts {
		ast.Inspect(s, func(n ast.Node) bool {
			if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				if id, ok := ast.Unparen(u.X).(*ast.Ident); ok && id.Name == obj.expr {
					ch, _ = f.info.Uses[id].(*types.Var)
				}
			}
			return ch == nil
		})
	}
	return ch != nil && f.body != nil && f.madeIn(ch, f.body)
}
