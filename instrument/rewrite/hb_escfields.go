package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A mutex inside a struct that code not rewritten gets a pointer to
// (dep.Lock(&s), dep.Do(p)) may be locked there, unhooked, as one given
// itself may (mutexRef): its hooked hand-offs would then order less than
// they do, and a value published under it was a false -hb report. So each
// mutex field such a call can reach is escaped as the mutex itself is:
// Escape(&s.mu), or, through a pointer, if p != nil { Escape(&p.mu) }.

// escaped is an operand of a call into code not rewritten that Escape
// marks: x, evaluated only when nonNil (if set) is not nil.
type escaped struct {
	x      ast.Expr
	nonNil ast.Expr
}

// maxMutexFields bounds the fields escaped for one argument.
const maxMutexFields = 8

// mutexFieldsOf returns &arg.f… for each mutex (sync.Mutex or
// sync.RWMutex) held by value in the struct arg points to (arg a pure
// pointer, or &x), through struct fields held by value, that this package
// can name.
func (w *walker) mutexFieldsOf(arg ast.Expr, t types.Type) []escaped {
	p, ok := types.Unalias(t).Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	base := ast.Unparen(arg)
	var nonNil ast.Expr
	if u, ok := base.(*ast.UnaryExpr); ok && u.Op == token.AND {
		base = u.X // &s: &s.mu
	} else {
		nonNil = base // p: &p.mu, when p != nil
	}
	var out []escaped
	var walk func(x ast.Expr, t types.Type, depth int)
	walk = func(x ast.Expr, t types.Type, depth int) {
		st, ok := types.Unalias(t).Underlying().(*types.Struct)
		if !ok || depth > 3 {
			return
		}
		for i := range st.NumFields() {
			f := st.Field(i)
			if f.Name() == "_" || !f.Exported() && f.Pkg() != w.pkg.Types {
				continue // a field this package cannot name: only code that can locks it
			}
			fx := &ast.SelectorExpr{X: x, Sel: ast.NewIdent(f.Name())}
			if mutexRef(types.NewPointer(f.Type())) {
				if len(out) < maxMutexFields {
					out = append(out, escaped{x: &ast.UnaryExpr{Op: token.AND, X: fx}, nonNil: nonNil})
				}
				continue
			}
			walk(fx, f.Type(), depth+1)
		}
	}
	walk(base, p.Elem(), 0)
	return out
}
