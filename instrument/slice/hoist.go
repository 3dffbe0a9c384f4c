package slice

import (
	"go/ast"
	"go/token"
	"go/types"
)

// hoist replaces a kept loop whose body is only traps by the traps of its
// first and last iteration, when that raises the same panics: the loop
// counts j up by one (for j := a; j < E; j++, or for j := range X over a
// slice or an integer), and every trap indexes a loop-invariant variable
// at j, j+c or j-c, or does not mention j at all. An index moving by one
// each iteration is out of range at some iteration exactly when it is at
// the first or the last (the bounds are an interval). The panic's message
// may name another index than the original's; that it panics does not
// change. The loop body cannot change anything (it holds only traps), so
// a, E and X are evaluated as often as needed without effect.
//
//	for j := range B[lo:hi] { _ = &c[j] }
//
// becomes
//
//	if _ga_n := len(B[lo:hi]); _ga_n > 0 { _ = &c[0]; _ = &c[_ga_n-1] }
func (ps *pkgState) hoist(s ast.Stmt, src []byte, off func(token.Pos) int) ([]piece, bool) {
	if ps.pinned[s] || ps.a.recovers {
		return nil, false // labeled: its label would be left unused; or the panic's value is observed
	}
	var j *types.Var
	var body *ast.BlockStmt
	var head, first, last string
	text := func(e ast.Node) string { return string(src[off(e.Pos()):off(e.End())]) }
	switch s := s.(type) {
	case *ast.ForStmt:
		if !ps.countedLoop(s) {
			return nil, false
		}
		init := s.Init.(*ast.AssignStmt)
		j = ps.localVar(init.Lhs[0].(*ast.Ident))
		if ps.mentions(s.Cond.(*ast.BinaryExpr).Y, j) {
			return nil, false
		}
		a, e := text(init.Rhs[0]), text(s.Cond.(*ast.BinaryExpr).Y)
		head, first, last = "if ("+a+") < ("+e+")", "("+a+")", "(("+e+")-1)"
		body = s.Body
	case *ast.RangeStmt:
		if s.Tok != token.DEFINE || s.Key == nil || s.Value != nil && ps.usedVar(s.Value) {
			return nil, false // a value variable used would load the elements
		}
		n := "len(" + text(s.X) + ")"
		switch u := ps.p.Info.TypeOf(s.X).Underlying().(type) {
		case *types.Slice:
		case *types.Basic:
			if u.Info()&types.IsInteger == 0 {
				return nil, false
			}
			n = text(s.X)
		default:
			return nil, false
		}
		j = ps.localVar(s.Key.(*ast.Ident))
		head, first, last = "if _ga_n := "+n+"; _ga_n > 0", "(0)", "(_ga_n-1)"
		body = s.Body
	default:
		return nil, false
	}
	if j == nil || len(body.List) == 0 {
		return nil, false
	}
	var traps []trap
	for _, st := range body.List {
		if !ps.visited[st] || ps.kept[st] {
			return nil, false
		}
		traps = append(traps, ps.traps[st]...)
	}
	// The header's operands are copied as text; the traps keep their
	// source ranges (so that an import they use is seen as used).
	out := []piece{{text: head + " {"}}
	for _, t := range traps {
		if t.kind == trapCall || !ps.invariantTrap(t, j) {
			return nil, false
		}
		if !ps.mentions(t.e, j) {
			out = append(out, piece{text: " " + trapPrefix(t)}, piece{start: off(t.e.Pos()), end: off(t.e.End())}, piece{text: ";"})
			continue
		}
		for _, at := range []string{first, last} {
			out = append(out, piece{text: " " + trapPrefix(t)})
			out = append(out, ps.substitute(t.e, j, at, off)...)
			out = append(out, piece{text: ";"})
		}
	}
	return append(out, piece{text: " }"}), true
}

func trapPrefix(t trap) string {
	if t.kind == trapAddr {
		return "_ = &"
	}
	return "_ = "
}

// invariantTrap reports whether trap t either does not mention j, or
// indexes (a slice or string) variable x not mentioning j at j, j+c, c+j
// or j-c, with c not mentioning j.
func (ps *pkgState) invariantTrap(t trap, j *types.Var) bool {
	if !ps.mentions(t.e, j) {
		return true
	}
	ix, ok := t.e.(*ast.IndexExpr)
	if !ok {
		return false
	}
	x, ok := ast.Unparen(ix.X).(*ast.Ident)
	if !ok || ps.localVar(x) == nil || ps.memVar(ps.localVar(x)) || ps.localVar(x) == j {
		return false
	}
	switch ps.p.Info.TypeOf(x).Underlying().(type) {
	case *types.Slice, *types.Basic:
	default:
		return false
	}
	isJ := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && ps.localVar(id) == j
	}
	switch i := ast.Unparen(ix.Index).(type) {
	case *ast.Ident:
		return isJ(i)
	case *ast.BinaryExpr:
		switch {
		case i.Op == token.ADD && isJ(i.X):
			return !ps.mentions(i.Y, j) && ps.pure(i.Y)
		case i.Op == token.ADD && isJ(i.Y):
			return !ps.mentions(i.X, j) && ps.pure(i.X)
		case i.Op == token.SUB && isJ(i.X):
			return !ps.mentions(i.Y, j) && ps.pure(i.Y)
		}
	}
	return false
}

// mentions reports whether e names v.
func (ps *pkgState) mentions(e ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && ps.localVar(id) == v {
			found = true
		}
		return !found
	})
	return found
}

// substitute returns e with each use of v replaced by at.
func (ps *pkgState) substitute(e ast.Expr, v *types.Var, at string, off func(token.Pos) int) []piece {
	var out []piece
	pos := off(e.Pos())
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && ps.localVar(id) == v {
			out = append(out, piece{start: pos, end: off(id.Pos())}, piece{text: at})
			pos = off(id.End())
		}
		return true
	})
	return append(out, piece{start: pos, end: off(e.End())})
}
