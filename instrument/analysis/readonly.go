package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// varWrites is what the read-only test needs to know of a local variable:
// where it is written, and whether anything could write it out of sight.
type varWrites struct {
	decl      ast.Node    // the function (FuncDecl or FuncLit) declaring it
	at        []token.Pos // writes made by the declaring function itself
	elsewhere bool        // written from a closure, or its address is taken
}

// ReadOnly reports whether the local variable v cannot be written while
// construct c runs: every write to it is made by the function that declares
// it, outside c's statements, and its address is never taken. Reads of it
// inside c then need no check. Globals are never read-only here: any
// function may write them.
func (r *Result) ReadOnly(v *types.Var, c *Construct) bool {
	w := r.writes[v]
	if w == nil || w.elsewhere || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return false
	}
	lo, hi := c.List[c.First].Pos(), c.List[c.Join].End()
	for _, p := range w.at {
		if lo <= p && p < hi {
			return false
		}
	}
	return true
}

// NeverWritten reports whether v is an unexported package-level variable
// of this package that nothing writes after its declaration: no
// assignment, no ++ or --, its address never taken. No other package can
// name it, so no goroutine changes it while a construct runs (the
// rewriter's coalescing takes a bound or a slice from it once).
func (r *Result) NeverWritten(v *types.Var) bool {
	if v == nil || v.Exported() || v.Pkg() != r.finder.pkg || v.Parent() != v.Pkg().Scope() {
		return false
	}
	w := r.writes[v]
	return w == nil || len(w.at) == 0 && !w.elsewhere
}

// RootVar is the variable whose own storage e denotes a part of (x, x.f,
// x[i] of an array x), or nil when e reaches through a pointer, slice or map.
func RootVar(e ast.Expr, info *types.Info) *types.Var { return rootVar(e, info) }

// findWrites records, for each local variable, where it is written.
func findWrites(files []*ast.File, info *types.Info) map[*types.Var]*varWrites {
	out := map[*types.Var]*varWrites{}
	get := func(v *types.Var) *varWrites {
		if out[v] == nil {
			out[v] = &varWrites{}
		}
		return out[v]
	}
	var fns []ast.Node
	cur := func() ast.Node {
		if len(fns) == 0 {
			return nil
		}
		return fns[len(fns)-1]
	}
	write := func(e ast.Expr) {
		if v := rootVar(e, info); v != nil && !v.IsField() {
			w := get(v)
			if w.decl != cur() {
				w.elsewhere = true
			}
			w.at = append(w.at, e.Pos())
		}
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			fns = append(fns, n)
			for _, c := range childrenOf(n) {
				ast.Inspect(c, visit)
			}
			fns = fns[:len(fns)-1]
			return false
		case *ast.Ident:
			if v, ok := info.Defs[n].(*types.Var); ok && !v.IsField() {
				get(v).decl = cur()
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && info.Defs[id] == nil {
						write(l) // redeclared
					}
				}
			} else {
				for _, l := range n.Lhs {
					write(l)
				}
			}
		case *ast.IncDecStmt:
			write(n.X)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if e != nil {
						write(e)
					}
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if v := rootVar(n.X, info); v != nil {
					get(v).elsewhere = true
				}
			}
		case *ast.SliceExpr:
			if _, arr := underlying(info.TypeOf(n.X)).(*types.Array); arr {
				if v := rootVar(n.X, info); v != nil {
					get(v).elsewhere = true
				}
			}
		case *ast.SelectorExpr:
			if s := info.Selections[n]; s != nil && s.Kind() == types.MethodVal {
				if sig, ok := s.Obj().Type().(*types.Signature); ok && isPtr(sig.Recv().Type()) && !isPtr(s.Recv()) {
					if v := rootVar(n.X, info); v != nil {
						get(v).elsewhere = true // implicit &v
					}
				}
			}
		}
		return true
	}
	for _, f := range files {
		ast.Inspect(f, visit)
	}
	return out
}

// childrenOf lists the parts of a function to walk: receiver, type, body.
func childrenOf(n ast.Node) []ast.Node {
	var out []ast.Node
	switch n := n.(type) {
	case *ast.FuncDecl:
		if n.Recv != nil {
			out = append(out, n.Recv)
		}
		out = append(out, n.Type)
		if n.Body != nil {
			out = append(out, n.Body)
		}
	case *ast.FuncLit:
		out = append(out, n.Type, n.Body)
	}
	return out
}

func underlying(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}
