package slice

import (
	"go/ast"
	"go/token"
	"go/types"
)

// ctx says how a kept expression uses the memory an operand denotes.
type ctx uint8

const (
	load  ctx = iota // its value is read
	addr             // only its address (or bounds) is computed
	store            // it is assigned (a plain =)
)

// walk records what kept expression e reads: the variables it reads are
// needed, those it names are mentioned, the memory it loads is recorded
// by type. Function literals' bodies are visited as functions.
func (ps *pkgState) walk(e ast.Expr, c ctx) {
	if e == nil {
		return
	}
	if tv, ok := ps.p.Info.Types[e]; ok && tv.IsType() {
		return
	}
	info := ps.p.Info
	switch e := e.(type) {
	case *ast.Ident:
		v := ps.localVar(e)
		if v == nil {
			return
		}
		ps.mention(v)
		if c != store {
			ps.need(v)
		}
		if c == load && ps.memVar(v) {
			ps.load(v.Type())
		}
	case *ast.ParenExpr:
		ps.walk(e.X, c)
	case *ast.SelectorExpr:
		sel := info.Selections[e]
		if sel == nil { // pkg.Name
			ps.walk(e.Sel, c)
			return
		}
		if sel.Kind() != types.FieldVal {
			ps.walk(e.X, load) // a method value: the receiver is evaluated
			return
		}
		if sel.Indirect() {
			ps.walk(e.X, load)
			if c == load {
				ps.load(sel.Obj().Type())
			}
			return
		}
		ps.walk(e.X, c)
	case *ast.IndexExpr:
		ps.walkIndex(e.X, c, e.Index)
	case *ast.IndexListExpr:
		ps.walk(e.X, load)
	case *ast.SliceExpr:
		if _, ok := info.TypeOf(e.X).Underlying().(*types.Array); ok {
			ps.walk(e.X, addr)
		} else {
			ps.walk(e.X, load)
		}
		ps.walk(e.Low, load)
		ps.walk(e.High, load)
		ps.walk(e.Max, load)
	case *ast.StarExpr:
		ps.walk(e.X, load)
		if x := ps.rtTarget(e.X); x != nil {
			ps.walk(x, c) // *R(t, &x, s) is x: a local x is read (or stored) here
		}
		if c == load {
			ps.load(info.TypeOf(e))
		}
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			if _, ok := ast.Unparen(e.X).(*ast.CompositeLit); ok {
				ps.walk(e.X, load)
			} else {
				ps.walk(e.X, addr)
			}
			return
		}
		ps.walk(e.X, load)
		if e.Op == token.ARROW {
			ps.load(info.TypeOf(e))
		}
	case *ast.BinaryExpr:
		ps.walk(e.X, load)
		ps.walk(e.Y, load)
	case *ast.CallExpr:
		ps.walkCall(e)
	case *ast.CompositeLit:
		_, isStruct := info.TypeOf(e).Underlying().(*types.Struct)
		for _, el := range e.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if !isStruct {
					ps.walk(kv.Key, load)
				}
				ps.walk(kv.Value, load)
				continue
			}
			ps.walk(el, load)
		}
	case *ast.KeyValueExpr:
		ps.walk(e.Key, load)
		ps.walk(e.Value, load)
	case *ast.FuncLit:
		ps.visitFunc(info.TypeOf(e), e.Body)
	case *ast.TypeAssertExpr:
		ps.walk(e.X, load)
		ps.load(info.TypeOf(e))
	case *ast.BasicLit, *ast.Ellipsis:
	default:
		ast.Inspect(e, func(n ast.Node) bool {
			if x, ok := n.(ast.Expr); ok && x != e {
				ps.walk(x, load)
				return false
			}
			return true
		})
	}
}

// walkIndex walks x[index] used as c: a slice's or pointer's elements are
// memory, an array value's are part of the array.
func (ps *pkgState) walkIndex(x ast.Expr, c ctx, index ast.Expr) {
	ps.walk(index, load)
	switch u := ps.p.Info.TypeOf(x).Underlying().(type) {
	case *types.Array:
		ps.walk(x, c)
	case *types.Slice:
		ps.walk(x, load)
		if c == load {
			ps.load(u.Elem())
		}
	case *types.Pointer:
		ps.walk(x, load)
		if a, ok := u.Elem().Underlying().(*types.Array); ok && c == load {
			ps.load(a.Elem())
		}
	case *types.Map:
		ps.walk(x, load)
		ps.load(u.Elem())
	default: // strings, generic instantiations
		ps.walk(x, load)
		if _, ok := u.(*types.Basic); !ok {
			if ps.a.mem.loadAll() {
				ps.a.changed = true
			}
		}
	}
}

// walkTrap walks a trap: the trap computes addresses and bounds, it loads
// only what its operands load.
func (ps *pkgState) walkTrap(t trap) {
	switch t.kind {
	case trapCall:
		ps.walk(t.e, load)
	default:
		ps.walk(t.e, addr)
	}
}

// rtTarget returns x when e is a runtime check of &x (R, W, RW and their
// kin return their pointer argument): *e is x itself.
func (ps *pkgState) rtTarget(e ast.Expr) ast.Expr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || ps.rtCall(call) == "" {
		return nil
	}
	for _, a := range call.Args {
		if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
			return u.X
		}
	}
	return nil
}
