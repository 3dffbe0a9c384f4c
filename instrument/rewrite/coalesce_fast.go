package rewrite

import (
	"go/token"

	"github.com/dave/dst"
	"github.com/dave/dst/dstutil"
)

// The fast copy of a coalesced loop (coalesce.go). Once the checks before
// the loop ran, the moved checks in it would only pass a nil task: a call
// per access that checks nothing. So the loop is written twice: the copy
// run when the conditions hold has the moved checks taken out, and the
// accesses are the program's own again,
//
//	(*_ga_rt.RW(_ga_h9, &C[r*n+j], 1)) += …   →   (C[r*n+j]) += …
//	_ga_rt.R(_ga_h9, &row[j], 17)              →   (the statement goes)
//
// while the copy run when they fail is the loop rewritten as if nothing
// were coalesced. The checks that stay (other groups, kept conditional
// accesses) are in both copies with the task.

// stripChecks takes the checks whose task argument is one of tasks out of
// loop: each call becomes its pointer argument, *&x becomes x, and a check
// alone in a statement goes.
func stripChecks(loop dst.Node, tasks map[*dst.Ident]bool) {
	made := map[dst.Expr]bool{} // the &x that replaced a check
	dstutil.Apply(loop, nil, func(cur *dstutil.Cursor) bool {
		switch n := cur.Node().(type) {
		case *dst.CallExpr:
			if len(n.Args) >= 2 {
				if id, ok := n.Args[0].(*dst.Ident); ok && tasks[id] {
					made[n.Args[1]] = true
					cur.Replace(n.Args[1])
				}
			}
		case *dst.StarExpr:
			if u, ok := n.X.(*dst.UnaryExpr); ok && made[u] && u.Op == token.AND {
				cur.Replace(u.X)
			}
		case *dst.ExprStmt:
			if made[n.X] {
				cur.Delete()
			}
		}
		return true
	})
	if r, ok := loop.(*dst.RangeStmt); ok {
		if id, ok := r.Key.(*dst.Ident); ok && id.Name == "_ga_i" {
			r.Key = dst.NewIdent("_") // declared for the element's check only (rangeElemCheck)
		}
	}
	// A nested loop's element checks moved too (coalesce_nest.go): its
	// _ga_i, if nothing uses it now, would not compile.
	dst.Inspect(loop, func(n dst.Node) bool {
		if r, ok := n.(*dst.RangeStmt); ok && r != loop {
			if id, ok := r.Key.(*dst.Ident); ok && id.Name == "_ga_i" && !usesIdx(r.Body) {
				r.Key = dst.NewIdent("_")
			}
		}
		return true
	})
}

// usesIdx reports whether n uses _ga_i, not counting loops nested in it
// that declare their own.
func usesIdx(n dst.Node) bool {
	found := false
	dst.Inspect(n, func(m dst.Node) bool {
		switch x := m.(type) {
		case *dst.RangeStmt:
			if id, ok := x.Key.(*dst.Ident); ok && id.Name == "_ga_i" {
				found = found || usesIdx(x.X)
				return false
			}
		case *dst.Ident:
			found = found || x.Name == "_ga_i"
		}
		return !found
	})
	return found
}
