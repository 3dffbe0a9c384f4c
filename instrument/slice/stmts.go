package slice

import (
	"go/ast"
	"go/token"
	"go/types"
)

// visit decides statement s (and what it holds) and reports whether
// anything of it stays in the sliced program (the statement itself, or a
// trap in its place), so that an enclosing compound statement knows
// whether its body became empty.
func (ps *pkgState) visit(s ast.Stmt) bool {
	ps.visited[s] = true
	switch s := s.(type) {
	case *ast.BlockStmt:
		k := ps.visitList(s.List)
		if k || ps.pinned[s] || ps.p.Frozen {
			ps.keep(s, "")
		}
		return ps.kept[s]
	case *ast.ExprStmt, *ast.AssignStmt, *ast.IncDecStmt, *ast.DeclStmt:
		return ps.visitSimple(s)
	case *ast.IfStmt:
		return ps.visitIf(s)
	case *ast.ForStmt:
		return ps.visitFor(s)
	case *ast.RangeStmt:
		return ps.visitRange(s)
	case *ast.LabeledStmt:
		ps.keep(s, "labeled")
		switch s.Stmt.(type) {
		case *ast.ExprStmt, *ast.AssignStmt, *ast.IncDecStmt, *ast.DeclStmt:
			// The edits replace statements of lists and bodies, not a
			// label's statement: a labeled simple statement stays whole,
			// and what it reads is needed (done: t += a[1] kept t's
			// declaration alive only this way).
			ps.keep(s.Stmt, "labeled")
			ps.walkStmt(s.Stmt)
			return true
		}
		ps.pinned[s.Stmt] = true
		ps.visit(s.Stmt)
		return true
	case *ast.EmptyStmt:
		return false
	case *ast.SwitchStmt:
		ps.keep(s, "switch")
		ps.header(s.Init)
		ps.walk(s.Tag, load)
		ps.visitClauses(s.Body)
		return true
	case *ast.TypeSwitchStmt:
		ps.keep(s, "type switch")
		ps.header(s.Init)
		ps.header(s.Assign)
		ps.visitClauses(s.Body)
		return true
	case *ast.SelectStmt:
		ps.keep(s, "select")
		for _, c := range s.Body.List {
			c := c.(*ast.CommClause)
			ps.header(c.Comm)
			ps.visitList(c.Body)
		}
		return true
	case *ast.ReturnStmt:
		ps.keep(s, "return")
		for _, r := range s.Results {
			ps.walk(r, load)
		}
		if len(s.Results) == 0 && len(ps.results) > 0 && ps.results[len(ps.results)-1] != nil {
			res := ps.results[len(ps.results)-1]
			for i := range res.Len() {
				ps.mention(res.At(i))
				ps.need(res.At(i))
			}
		}
		return true
	case *ast.GoStmt:
		ps.keep(s, "go")
		ps.walk(s.Call, load)
		return true
	case *ast.DeferStmt:
		ps.keep(s, "defer")
		ps.walk(s.Call, load)
		return true
	case *ast.SendStmt:
		ps.keep(s, "send")
		ps.walk(s.Chan, load)
		ps.walk(s.Value, load)
		return true
	}
	// Branch statements, and anything not understood: kept as written.
	ps.keep(s, "control")
	ast.Inspect(s, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok {
			ps.walk(e, load)
			return false
		}
		return true
	})
	return true
}

func (ps *pkgState) visitList(list []ast.Stmt) bool {
	any := false
	for _, s := range list {
		if ps.visit(s) {
			any = true
		}
	}
	return any
}

func (ps *pkgState) visitClauses(body *ast.BlockStmt) {
	for _, c := range body.List {
		c := c.(*ast.CaseClause)
		for _, e := range c.List {
			ps.walk(e, load)
		}
		ps.visitList(c.Body)
	}
}

// header keeps a statement of a compound statement's header (an if's or a
// switch's init, a for's init and post, a select case's communication):
// it stays with the compound statement, and the variables it declares are
// named (in scope of the whole statement): one that no kept code reads gets
// _ = v in the body (headerUses), or the program would not compile.
func (ps *pkgState) header(s ast.Stmt) {
	if s == nil {
		return
	}
	ps.visited[s] = true
	ps.keep(s, "header")
	ps.walkStmt(s)
}

// visitIf keeps an if whose branches keep something, or whose condition
// could panic or call something.
func (ps *pkgState) visitIf(s *ast.IfStmt) bool {
	k := ps.visit(s.Body)
	if s.Else != nil && ps.visit(s.Else) {
		k = true
	}
	if !k && (s.Init != nil || !ps.pure(s.Cond) || ps.pinned[s] || ps.p.Frozen) {
		k = true
	}
	if k {
		ps.keep(s, "if")
		ps.header(s.Init)
		ps.walk(s.Cond, load)
	}
	return k
}

// visitFor keeps a loop whose body keeps something, unless it surely
// terminates with no effect: for v := a; v < E; v++ {} over an integer v,
// with a and E pure.
func (ps *pkgState) visitFor(s *ast.ForStmt) bool {
	k := ps.visit(s.Body)
	if !k && (!ps.countedLoop(s) || ps.pinned[s] || ps.p.Frozen) {
		k = true
	}
	if k {
		ps.keep(s, "for")
		ps.header(s.Init)
		ps.walk(s.Cond, load)
		ps.header(s.Post)
	}
	return k
}

// countedLoop reports whether s is for v := a; v < E; v++ with an
// integer v, and pure a and E.
func (ps *pkgState) countedLoop(s *ast.ForStmt) bool {
	init, ok := s.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || !ps.pure(init.Rhs[0]) {
		return false
	}
	v, _ := init.Lhs[0].(*ast.Ident)
	cond, ok := s.Cond.(*ast.BinaryExpr)
	if v == nil || !ok || cond.Op != token.LSS || !ps.pure(cond.Y) {
		return false
	}
	if x, ok := cond.X.(*ast.Ident); !ok || x.Name != v.Name {
		return false
	}
	post, ok := s.Post.(*ast.IncDecStmt)
	if !ok || post.Tok != token.INC {
		return false
	}
	if x, ok := post.X.(*ast.Ident); !ok || x.Name != v.Name {
		return false
	}
	b, ok := ps.p.Info.TypeOf(v).Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 || ps.mayAssign(s.Body, ps.localVar(v)) {
		return false
	}
	// The bound must not grow in the body either (for i := 0; i < n; i++
	// { n++ } never ends): no variable it reads is assigned there, or
	// has its address taken, or belongs to another package.
	bounded := true
	ast.Inspect(cond.Y, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if u := ps.localVar(id); u != nil && (ps.addr[u] || u.Pkg() != ps.p.Types || ps.mayAssign(s.Body, u)) {
				bounded = false
			}
		}
		return bounded
	})
	return bounded
}

// mayAssign reports whether body may change v: it assigns or increments
// it, takes its address, or holds a function literal that names it. A
// loop whose body resets its counter need not end (for i := 0; i < 3;
// i++ { if x > 1 { i = 0 } }), dropped statements or not.
func (ps *pkgState) mayAssign(body ast.Node, v *types.Var) bool {
	if v == nil {
		return true
	}
	is := func(e ast.Expr) bool { // e is v, or a field or array element of it
		for {
			switch x := ast.Unparen(e).(type) {
			case *ast.Ident:
				return ps.localVar(x) == v
			case *ast.SelectorExpr:
				if sel := ps.p.Info.Selections[x]; sel == nil || sel.Indirect() {
					return false
				}
				e = x.X
			case *ast.IndexExpr:
				if _, ok := ps.p.Info.TypeOf(x.X).Underlying().(*types.Array); !ok {
					return false
				}
				e = x.X
			default:
				return false
			}
		}
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				found = found || is(l)
			}
		case *ast.IncDecStmt:
			found = found || is(n.X)
		case *ast.UnaryExpr:
			found = found || n.Op == token.AND && is(n.X)
		case *ast.RangeStmt:
			found = found || n.Tok == token.ASSIGN && (is(n.Key) || n.Value != nil && is(n.Value))
		case *ast.FuncLit:
			found = found || ps.mentions(n, v)
		}
		return !found
	})
	return found
}

// visitRange keeps a range loop whose body keeps something; an empty one
// goes when it surely ends (over an integer, a slice, an array, a string
// or a map, declaring its variables or none) and its operand is pure.
// A kept loop loads its elements only when its value variable is needed.
func (ps *pkgState) visitRange(s *ast.RangeStmt) bool {
	k := ps.visit(s.Body)
	if !k && (!ps.finiteRange(s) || ps.pinned[s] || ps.p.Frozen) {
		k = true
	}
	if !k {
		return false
	}
	ps.keep(s, "range")
	ps.walk(s.X, load)
	if s.Tok == token.ASSIGN {
		for _, e := range []ast.Expr{s.Key, s.Value} {
			if e != nil {
				ps.walk(e, store)
			}
		}
		if s.Value != nil {
			ps.load(rangeElem(ps.p.Info.TypeOf(s.X)))
		}
		return true
	}
	if s.Value != nil {
		if v := ps.localVar(s.Value.(*ast.Ident)); v != nil && (ps.needed[v] || ps.mentioned[v]) {
			ps.load(rangeElem(ps.p.Info.TypeOf(s.X)))
		}
	}
	return true
}

func (ps *pkgState) finiteRange(s *ast.RangeStmt) bool {
	if s.Tok == token.ASSIGN || !ps.pure(s.X) {
		return false
	}
	switch u := ps.p.Info.TypeOf(s.X).Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsInteger|types.IsString) != 0
	case *types.Slice, *types.Array, *types.Map:
		return true
	case *types.Pointer:
		_, ok := u.Elem().Underlying().(*types.Array)
		return ok && !derefsRange(s)
	}
	return false
}

// derefsRange reports whether range loop s, over a pointer to an array,
// loads through it: it declares a value variable (not _), so a nil
// pointer panics (without one, only the constant length is used).
func derefsRange(s *ast.RangeStmt) bool {
	id, ok := s.Value.(*ast.Ident)
	return s.Value != nil && (!ok || id.Name != "_")
}

// rangeElem is the type of the elements a range over a value of type t
// loads from memory (nil for strings, integers, channels, functions).
func rangeElem(t types.Type) types.Type {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	case *types.Map:
		return u.Elem()
	case *types.Pointer:
		if a, ok := u.Elem().Underlying().(*types.Array); ok {
			return a.Elem()
		}
	}
	return nil
}

// pure reports whether evaluating e can neither panic nor call anything
// (so it can go with the statement that evaluates it).
func (ps *pkgState) pure(e ast.Expr) bool {
	if e == nil {
		return true
	}
	var traps []trap
	return ps.traps1(e, &traps, false) && len(traps) == 0
}
