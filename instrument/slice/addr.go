package slice

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// findAddressTaken records the variables of f whose address is taken (so
// that stores through pointers may reach them): &x, x[:] of an array x,
// and a pointer method called on x. The &x arguments of runtime calls are
// left out: the runtime uses an address only as a key into its shadow
// memory, never to load or store; but not those of an entry point that
// runs code with its arguments (rtnames.LoadsReachable: Acquire),
// which may store through them.
func (ps *pkgState) findAddressTaken(f *ast.File) {
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if name := ps.rtCall(n); name != "" {
				runs := rtnames.ArgLoads(name) == rtnames.LoadsReachable
				ast.Inspect(n.Fun, visit)
				for _, a := range n.Args {
					if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND && !runs {
						ast.Inspect(u.X, visit)
						continue
					}
					ast.Inspect(a, visit)
				}
				return false
			}
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				if s := ps.p.Info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
					if _, ptrRecv := s.Obj().Type().(*types.Signature).Recv().Type().(*types.Pointer); ptrRecv {
						ps.takeAddr(sel.X)
					}
				}
			}
		case *ast.SelectorExpr:
			if s := ps.p.Info.Selections[n]; s != nil && s.Kind() == types.MethodVal {
				if _, ptrRecv := s.Obj().Type().(*types.Signature).Recv().Type().(*types.Pointer); ptrRecv {
					ps.takeAddr(n.X)
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				ps.takeAddr(n.X)
			}
		case *ast.SliceExpr:
			if _, ok := ps.p.Info.TypeOf(n.X).Underlying().(*types.Array); ok {
				ps.takeAddr(n.X)
			}
		}
		return true
	}
	ast.Inspect(f, visit)
}

// takeAddr marks the variable at the root of e (through fields of struct
// values and elements of arrays) as address-taken.
func (ps *pkgState) takeAddr(e ast.Expr) {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			if v := ps.localVar(x); v != nil {
				ps.addr[v] = true
			}
			return
		case *ast.SelectorExpr:
			s := ps.p.Info.Selections[x]
			if s == nil || s.Indirect() {
				return
			}
			e = x.X
		case *ast.IndexExpr:
			if _, ok := ps.p.Info.TypeOf(x.X).Underlying().(*types.Array); !ok {
				return
			}
			e = x.X
		default:
			return
		}
	}
}
