package analysis

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// A proof that a local slice is the only way to its array (Independent's
// make rule) must hold at every instance of the construct, not only the
// first. What the function does after the join is done before the next
// instance when the construct runs again while the local keeps its value:
// `b = a` or `q = a[1:]` at the end of an enclosing loop is, for the second
// round, an alias made before the construct. And an element whose address
// was taken anywhere (`ps[k] = &a[k+1]`, `p := &a[3]`) may be written
// through the pointer in any round.

// reentered reports whether construct c can run again while the local v
// keeps its value (so uses of v after c's join come before c's next
// instance): a loop or a function literal encloses c but not v's
// declaration (for a loop declaring v in its init, the body is what is
// repeated), or a goto after c's start jumps to a label at or before it.
func (r *Result) reentered(c *Construct, v *types.Var) bool {
	first := c.List[c.First]
	var file *ast.File
	for _, f := range r.finder.files {
		if f.Pos() <= first.Pos() && first.End() <= f.End() {
			file = f
		}
	}
	if file == nil {
		return true
	}
	path, _ := astutil.PathEnclosingInterval(file, first.Pos(), first.End())
	for _, n := range path {
		var body ast.Node
		switch n := n.(type) {
		case *ast.ForStmt:
			body = n.Body
		case *ast.RangeStmt:
			body = n.Body
		case *ast.FuncLit:
			body = n
		case *ast.FuncDecl:
			return r.gotoBack(n.Body, first.Pos())
		default:
			continue
		}
		if within(v.Pos(), body) {
			return r.gotoBack(body, first.Pos()) // v is declared in this repetition: each one has its own
		}
		if within(first.Pos(), body) {
			return true
		}
	}
	return true
}

// gotoBack reports whether n has a goto of its own (not in a function
// literal, whose labels are its own) that comes after pos and jumps to a
// label at or before it, so that the code at pos may run again.
func (r *Result) gotoBack(n ast.Node, pos token.Pos) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.FuncLit:
			return m == n
		case *ast.BranchStmt:
			if m.Tok == token.GOTO && m.Pos() > pos {
				l := r.finder.info.Uses[m.Label]
				found = found || l == nil || l.Pos() <= pos
			}
		}
		return !found
	})
	return found
}

// addressed reports whether the address of the element at the top of
// stack (the innermost node last, an index expression of a slice), or of a
// part of it, is taken: &e, &e.f, &e[k] of an array element, e[:] of an
// array element, or a method with a pointer receiver called or taken as a
// value on it. A pointer into the slice's array then exists, and writes
// through it are not writes of the slice's elements by subscript.
func addressed(stack []ast.Node, info *types.Info) bool {
	e := stack[len(stack)-1].(ast.Expr)
	for k := len(stack) - 2; k >= 0; k-- {
		switch p := stack[k].(type) {
		case *ast.ParenExpr:
		case *ast.SelectorExpr:
			s := info.Selections[p]
			if s == nil || p.X != e {
				return false
			}
			if s.Kind() == types.MethodVal {
				sig, ok := s.Obj().Type().(*types.Signature)
				return ok && sig.Recv() != nil && isPtr(sig.Recv().Type()) && !isPtr(info.TypeOf(e))
			}
			if isPtr(info.TypeOf(e)) {
				return false // e.f through a pointer element: another object
			}
		case *ast.IndexExpr:
			if _, arr := underlying(info.TypeOf(e)).(*types.Array); !arr || p.X != e {
				return false
			}
		case *ast.SliceExpr:
			_, arr := underlying(info.TypeOf(e)).(*types.Array)
			return arr && p.X == e
		case *ast.UnaryExpr:
			return p.Op == token.AND
		default:
			return false
		}
		e = stack[k].(ast.Expr)
	}
	return false
}
