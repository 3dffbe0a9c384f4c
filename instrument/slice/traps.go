package slice

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// A trap is what a dropped statement leaves behind: each run-time panic it
// could raise, raised the same way, without the value it computed.
type trap struct {
	kind trapKind
	e    ast.Expr
}

type trapKind uint8

const (
	trapAddr  trapKind = iota // _ = &e: bounds and nil checks, no load
	trapValue                 // _ = e: a string index, a slice expression, *p, a division
	trapCall                  // e: a runtime call, kept as a statement
)

// stmtTraps collects the traps of simple statement s, in the order the
// go command raises them (a plain assignment's right-hand side first, an
// operation's left-hand side first), and reports whether every panic s could
// raise has one (false: s must stay whole).
func (ps *pkgState) stmtTraps(s ast.Stmt, out *[]trap) bool {
	switch s := s.(type) {
	case *ast.AssignStmt:
		if ps.opAssignMayPanic(s) {
			return false // x /= d, x %= d, x <<= s: the operation has no expression to trap
		}
		lhs := func() bool {
			for _, l := range s.Lhs {
				if id, ok := l.(*ast.Ident); ok && (s.Tok == token.DEFINE || id.Name == "_") {
					continue
				}
				if !ps.traps1(l, out, false) {
					return false
				}
			}
			return true
		}
		rhs := func() bool {
			for _, r := range s.Rhs {
				if !ps.traps1(r, out, false) {
					return false
				}
			}
			return true
		}
		if s.Tok == token.ASSIGN {
			// a[i] = b[j] panics on b first: the go command evaluates
			// the calls in lexical order (a runtime check's on the left
			// first), then the right-hand side's operands, then the
			// stores' bounds and nil checks. a[i] += b[j] panics on a.
			var l []trap
			at := out
			out = &l
			if !lhs() {
				return false
			}
			out = at
			for _, t := range l {
				if t.kind == trapCall {
					*out = append(*out, t)
				}
			}
			if !rhs() {
				return false
			}
			for _, t := range l {
				if t.kind != trapCall {
					*out = append(*out, t)
				}
			}
			return true
		}
		return lhs() && rhs()
	case *ast.IncDecStmt:
		return ps.traps1(s.X, out, false)
	case *ast.ExprStmt:
		return ps.traps1(s.X, out, true)
	case *ast.DeclStmt:
		g, ok := s.Decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			return false
		}
		for _, sp := range g.Specs {
			for _, v := range sp.(*ast.ValueSpec).Values {
				if !ps.traps1(v, out, false) {
					return false
				}
			}
		}
		return true
	}
	return false
}

// traps1 collects the traps of expression e; top says e is a whole
// expression statement (where a print to standard output may go).
func (ps *pkgState) traps1(e ast.Expr, out *[]trap, top bool) bool {
	info := ps.p.Info
	if hasFuncLit(e) {
		return false // its body is sliced in place, which a copied trap would not be
	}
	if tv, ok := info.Types[e]; ok && (tv.IsType() || tv.Value != nil) {
		return true // a type, or a constant
	}
	switch e := e.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return ps.traps1(e.X, out, false)
	case *ast.SelectorExpr:
		sel := info.Selections[e]
		if sel == nil {
			return true // pkg.Name
		}
		if sel.Kind() != types.FieldVal {
			return false
		}
		if sel.Indirect() {
			*out = append(*out, trap{trapAddr, e})
			return true
		}
		return ps.traps1(e.X, out, false)
	case *ast.IndexExpr:
		return ps.indexTraps(e, out)
	case *ast.SliceExpr:
		if _, ok := info.TypeOf(e.X).Underlying().(*types.Array); ok && !ps.addressable(e.X) {
			return false
		}
		*out = append(*out, trap{trapValue, e})
		return true
	case *ast.StarExpr:
		if call, ok := ast.Unparen(e.X).(*ast.CallExpr); ok && ps.rtCall(call) != "" {
			*out = append(*out, trap{trapCall, call}) // the runtime returns its argument, never nil
			return true
		}
		*out = append(*out, trap{trapValue, e})
		return true
	case *ast.UnaryExpr:
		if e.Op == token.ARROW {
			return false
		}
		return ps.traps1(e.X, out, false)
	case *ast.BinaryExpr:
		if ps.mayPanic(e) || ps.compareMayPanic(e) {
			*out = append(*out, trap{trapValue, e})
			return true
		}
		return ps.traps1(e.X, out, false) && ps.traps1(e.Y, out, false)
	case *ast.CallExpr:
		return ps.callTraps(e, out, top)
	case *ast.CompositeLit:
		if m, ok := info.TypeOf(e).Underlying().(*types.Map); ok && hashMayPanic(m.Key()) {
			return false // an interface key holding an unhashable value panics
		}
		for _, el := range e.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if _, isStruct := info.TypeOf(e).Underlying().(*types.Struct); !isStruct && !ps.traps1(kv.Key, out, false) {
					return false
				}
				el = kv.Value
			}
			if !ps.traps1(el, out, false) {
				return false
			}
		}
		return true
	}
	return false // function literals, type assertions, anything else
}

// indexTraps: a slice, pointer-to-array or variable array element keeps
// _ = &x[i]; a string index keeps _ = s[i]; a map read cannot panic.
func (ps *pkgState) indexTraps(e *ast.IndexExpr, out *[]trap) bool {
	info := ps.p.Info
	switch u := info.TypeOf(e.X).Underlying().(type) {
	case *types.Map:
		if hashMayPanic(u.Key()) {
			return false // an interface key holding an unhashable value panics
		}
		return ps.traps1(e.X, out, false) && ps.traps1(e.Index, out, false)
	case *types.Basic:
		if u.Info()&types.IsString == 0 {
			return false
		}
		*out = append(*out, trap{trapValue, e})
		return true
	case *types.Slice, *types.Pointer:
		*out = append(*out, trap{trapAddr, e})
		return true
	case *types.Array:
		if tv := info.Types[e.Index]; tv.Value != nil {
			return ps.traps1(e.X, out, false) // a constant index is checked at compile time
		}
		if ps.addressable(e.X) {
			*out = append(*out, trap{trapAddr, e})
		} else {
			*out = append(*out, trap{trapValue, e})
		}
		return true
	}
	return false // generic
}

// addressable reports whether &e compiles (a variable, or an element or
// field of one, or anything through a pointer or slice).
func (ps *pkgState) addressable(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		_, ok := ps.p.Info.Uses[e].(*types.Var)
		return ok
	case *ast.StarExpr:
		return true
	case *ast.SelectorExpr:
		sel := ps.p.Info.Selections[e]
		if sel == nil {
			_, ok := ps.p.Info.Uses[e.Sel].(*types.Var)
			return ok
		}
		return sel.Kind() == types.FieldVal && (sel.Indirect() || ps.addressable(e.X))
	case *ast.IndexExpr:
		switch ps.p.Info.TypeOf(e.X).Underlying().(type) {
		case *types.Slice, *types.Pointer:
			return true
		case *types.Array:
			return ps.addressable(e.X)
		}
	}
	return false
}

// mayPanic reports whether binary e is an integer division or remainder
// by a non-constant, or a shift by a non-constant signed count.
func (ps *pkgState) mayPanic(e *ast.BinaryExpr) bool {
	info := ps.p.Info
	y := info.Types[e.Y]
	if y.Value != nil {
		return false
	}
	switch e.Op {
	case token.QUO, token.REM:
		b, ok := info.TypeOf(e).Underlying().(*types.Basic)
		return !ok || b.Info()&types.IsInteger != 0
	case token.SHL, token.SHR:
		b, ok := y.Type.Underlying().(*types.Basic)
		return !ok || b.Info()&types.IsUnsigned == 0
	}
	return false
}

// opAssignMayPanic reports whether assignment s is an integer /= or %=
// by a non-constant, or a <<= or >>= by a non-constant signed count: the
// panic is the statement's own, with no expression a trap could copy.
func (ps *pkgState) opAssignMayPanic(s *ast.AssignStmt) bool {
	if len(s.Rhs) != 1 || ps.p.Info.Types[s.Rhs[0]].Value != nil {
		return false
	}
	switch s.Tok {
	case token.QUO_ASSIGN, token.REM_ASSIGN:
		b, ok := ps.p.Info.TypeOf(s.Lhs[0]).Underlying().(*types.Basic)
		return !ok || b.Info()&types.IsInteger != 0
	case token.SHL_ASSIGN, token.SHR_ASSIGN:
		b, ok := ps.p.Info.TypeOf(s.Rhs[0]).Underlying().(*types.Basic)
		return !ok || b.Info()&types.IsUnsigned == 0
	}
	return false
}

// compareMayPanic reports whether comparison e may panic: both operands
// are (or hold) interfaces or type parameters, whose dynamic values may be
// of the same uncomparable type. A comparison with nil cannot.
func (ps *pkgState) compareMayPanic(e *ast.BinaryExpr) bool {
	if e.Op != token.EQL && e.Op != token.NEQ {
		return false
	}
	for _, x := range []ast.Expr{e.X, e.Y} {
		if ps.p.Info.Types[x].IsNil() || !hashMayPanic(ps.p.Info.TypeOf(x)) {
			return false
		}
	}
	return true
}

// hashMayPanic reports whether hashing or comparing a value of type t
// may panic: t is, or holds in a field or element, an interface or a
// type parameter.
func hashMayPanic(t types.Type) bool {
	if t == nil {
		return true
	}
	if _, ok := t.(*types.TypeParam); ok {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Interface:
		return true
	case *types.Array:
		return hashMayPanic(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if hashMayPanic(u.Field(i).Type()) {
				return true
			}
		}
	}
	return false
}

// callTraps: a runtime call stays (as a statement); conversions, pure
// builtins, math functions and (as a whole statement) prints to standard
// output keep their operands' traps; any other call keeps the statement.
func (ps *pkgState) callTraps(call *ast.CallExpr, out *[]trap, top bool) bool {
	info := ps.p.Info
	args := func() bool {
		for _, a := range call.Args {
			if !ps.traps1(a, out, false) {
				return false
			}
		}
		return true
	}
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		to := tv.Type.Underlying()
		if p, ok := to.(*types.Pointer); ok {
			to = p.Elem().Underlying()
		}
		if _, ok := to.(*types.Array); ok {
			return false // a slice to array conversion panics when short
		}
		if _, ok := tv.Type.(*types.TypeParam); ok {
			return false // its core type may be an array
		}
		return args()
	}
	if ps.rtCall(call) != "" {
		*out = append(*out, trap{trapCall, call})
		return true
	}
	switch ps.builtin(call) {
	case "":
	case "len", "cap", "min", "max", "real", "imag", "complex", "new", "append", "copy":
		return args()
	case "clear":
		if _, ok := info.TypeOf(call.Args[0]).Underlying().(*types.Slice); !ok {
			return false // a map's clear is a map write
		}
		return args()
	case "make":
		for _, a := range call.Args[1:] {
			if tv := info.Types[a]; tv.Value == nil || constant.Sign(tv.Value) < 0 {
				return false // a negative size panics
			}
		}
		return args()
	default:
		return false
	}
	if callee := typeutil.StaticCallee(info, call); callee != nil && pureFunc(callee) {
		return args()
	}
	if top && ps.fmtPrint(call) {
		return args()
	}
	return false
}

// cannot says why simple statement s must stay whole.
func (ps *pkgState) cannot(s ast.Stmt) string {
	var why string
	ast.Inspect(s, func(n ast.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if ps.rtCall(n) != "" || ps.builtin(n) != "" {
				return true
			}
			if tv, ok := ps.p.Info.Types[n.Fun]; ok && tv.IsType() {
				return true
			}
			callee := typeutil.StaticCallee(ps.p.Info, n)
			switch {
			case callee == nil:
				why = "calls a function value or interface method"
			case ps.a.user[callee.Pkg()]:
				why = "calls " + callee.Name() + ", which may hold checks"
			case pureFunc(callee):
				return true
			default:
				why = "calls " + callee.FullName()
			}
		case *ast.FuncLit:
			why = "holds a function literal"
		case *ast.TypeAssertExpr:
			why = "a type assertion"
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				why = "receives from a channel"
			}
		}
		return true
	})
	if why == "" {
		why = "a panic it could raise has no trap"
	}
	return why
}

// hasFuncLit reports whether e holds a function literal.
func hasFuncLit(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			found = true
		}
		return !found
	})
	return found
}
