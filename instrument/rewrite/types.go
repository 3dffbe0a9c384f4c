package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/dave/dst"
)

func itoa(i int) string { return strconv.Itoa(i) }

func underlying(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

func isMapType(t types.Type) bool {
	_, ok := underlying(t).(*types.Map)
	return ok
}

// viaEmbeddedPointer reports whether the field selection of index from a
// value of type t goes through an embedded pointer field (a.n for a.B.n,
// B a *T): the selection then dereferences a pointer the syntax does not
// name.
func viaEmbeddedPointer(t types.Type, index []int) bool {
	for _, k := range index[:max(len(index)-1, 0)] {
		if p, ok := underlying(t).(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := underlying(t).(*types.Struct)
		if !ok {
			return true
		}
		t = st.Field(k).Type()
		if isPointer(t) {
			return true
		}
	}
	return false
}

func isPointer(t types.Type) bool {
	_, ok := underlying(t).(*types.Pointer)
	return ok
}

// isVarSel reports whether x selects a variable: a struct field or a
// package-qualified variable.
func (w *walker) isVarSel(x *dst.SelectorExpr) bool {
	a, _ := w.astOf(x).(*ast.SelectorExpr)
	if a == nil {
		return false
	}
	if s := w.info.Selections[a]; s != nil {
		return s.Kind() == types.FieldVal
	}
	_, ok := w.info.Uses[a.Sel].(*types.Var)
	return ok
}

func (w *walker) isField(x *dst.SelectorExpr) bool {
	a, _ := w.astOf(x).(*ast.SelectorExpr)
	if a == nil {
		return false
	}
	s := w.info.Selections[a]
	return s != nil && s.Kind() == types.FieldVal
}

func (w *walker) isMethodVal(x *dst.SelectorExpr) bool {
	a, _ := w.astOf(x).(*ast.SelectorExpr)
	if a == nil {
		return false
	}
	s := w.info.Selections[a]
	return s != nil && s.Kind() == types.MethodVal
}

// isFuncInst reports whether e (the X of an index expression) is a generic
// function, so the index expression instantiates it.
func (w *walker) isFuncInst(e dst.Expr) bool {
	_, ok := underlying(w.typeOf(e)).(*types.Signature)
	return ok
}

// recv rewrites the receiver of a method value or call x.M: with a pointer
// method on an addressable operand only its address is taken; otherwise the
// operand is read.
//
// A method promoted through embedded fields has its path spelled out and
// the embedded pointers on it read (recvPath); a value method reached
// through a pointer reads the pointee whole (recvOf): both are implicit
// reads that x.M does not name.
func (w *walker) recv(x *dst.SelectorExpr) dst.Expr {
	a := w.astOf(x).(*ast.SelectorExpr)
	s := w.info.Selections[a]
	if len(s.Index()) > 1 && w.task != "" {
		if e, ok := w.recvPath(x, a, s); ok {
			return e
		}
	}
	sig, _ := s.Obj().Type().(*types.Signature)
	if sig != nil && sig.Recv() != nil && isPointer(sig.Recv().Type()) && !isPointer(w.info.TypeOf(a.X)) {
		return w.addr(x.X)
	}
	e := w.rval(x.X) // a value receiver is read whole; a pointer operand, only the pointer
	if len(s.Index()) == 1 && isPointer(w.info.TypeOf(a.X)) {
		e = w.recvOf(e, w.info.TypeOf(a.X), s, a.Pos(), types.ExprString(a.X), true)
	}
	return e
}

// sharedLoc reports whether the location e may be reached by more than one
// goroutine: it is a global, a shared local, or reached through a pointer,
// slice or map.
func (w *walker) sharedLoc(e ast.Expr) bool {
	if w.res.WorkerOwned(e) {
		return false // an object a pool worker allocated and keeps to itself
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := w.info.Uses[x].(*types.Var)
		if !ok {
			v, ok = w.info.Defs[x].(*types.Var)
		}
		if !ok || v.IsField() || w.privateVars[v] {
			return false
		}
		return v.Parent() == w.pkg.Types.Scope() || v.Pkg() != w.pkg.Types || w.res.Shared[v] || w.hbShared(v)
	case *ast.SelectorExpr:
		s := w.info.Selections[x]
		if s == nil {
			_, ok := w.info.Uses[x.Sel].(*types.Var)
			return ok // pkg.V
		}
		if s.Indirect() || isPointer(w.info.TypeOf(x.X)) {
			return true
		}
		return w.sharedLoc(x.X)
	case *ast.IndexExpr:
		return w.sharedElem(x.X)
	case *ast.StarExpr:
		return true
	}
	return false
}

// sharedElem reports whether the elements of the indexed operand x are shared.
func (w *walker) sharedElem(x ast.Expr) bool {
	if w.res.WorkerOwnedElems(x) {
		return false
	}
	switch underlying(w.info.TypeOf(x)).(type) {
	case *types.Array:
		return w.sharedLoc(x)
	case *types.Basic: // string: immutable
		return false
	}
	return true
}

// addressable reports whether &e is legal.
func addressable(e ast.Expr, info *types.Info) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		_, ok := info.Uses[x].(*types.Var)
		if !ok {
			_, ok = info.Defs[x].(*types.Var)
		}
		return ok
	case *ast.SelectorExpr:
		s := info.Selections[x]
		if s == nil {
			_, ok := info.Uses[x.Sel].(*types.Var)
			return ok
		}
		if s.Kind() != types.FieldVal {
			return false
		}
		return s.Indirect() || isPointer(info.TypeOf(x.X)) || addressable(x.X, info)
	case *ast.IndexExpr:
		switch t := underlying(info.TypeOf(x.X)).(type) {
		case *types.Slice:
			return true
		case *types.Pointer:
			_, ok := t.Elem().Underlying().(*types.Array)
			return ok
		case *types.Array:
			return addressable(x.X, info)
		}
		return false
	case *ast.StarExpr:
		return true
	}
	return false
}

// pure reports whether e can be evaluated again with the same result and no
// side effects: identifiers and field selections of them.
func pure(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return pure(x.X)
	}
	return false
}

// exprFromAST builds a fresh dst copy of an expression without side
// effects: pure, duplicable, or a cheap loop count (len of those).
func exprFromAST(e ast.Expr) dst.Expr {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return dst.NewIdent(x.Name)
	case *ast.BasicLit:
		return &dst.BasicLit{Kind: x.Kind, Value: x.Value}
	case *ast.SelectorExpr:
		return &dst.SelectorExpr{X: exprFromAST(x.X), Sel: dst.NewIdent(x.Sel.Name)}
	case *ast.IndexExpr:
		return &dst.IndexExpr{X: exprFromAST(x.X), Index: exprFromAST(x.Index)}
	case *ast.StarExpr:
		return &dst.StarExpr{X: exprFromAST(x.X)}
	case *ast.CallExpr: // len(x), as analysis.simple allows; min, max and conversions of a guard's condition
		call := &dst.CallExpr{Fun: exprFromAST(x.Fun)}
		for _, a := range x.Args {
			call.Args = append(call.Args, exprFromAST(a))
		}
		return call
	case *ast.BinaryExpr: // a guard's condition (analysis.GuardSpan.Cond)
		return &dst.BinaryExpr{X: operand(exprFromAST(x.X), x.Op, false), Op: x.Op, Y: operand(exprFromAST(x.Y), x.Op, true)}
	case *ast.UnaryExpr:
		return &dst.UnaryExpr{Op: x.Op, X: operand(exprFromAST(x.X), token.ILLEGAL, false)}
	}
	panic("internal error: exprFromAST of impure expression")
}

// operand parenthesizes e, an operand of op (on its right side when
// right), where the printed expression would otherwise group differently
// from the tree: e binds less tightly (or as tightly, on the right). A
// unary operator's operand (op ILLEGAL) is parenthesized when binary.
func operand(e dst.Expr, op token.Token, right bool) dst.Expr {
	b, ok := e.(*dst.BinaryExpr)
	if !ok || op != token.ILLEGAL && (b.Op.Precedence() > op.Precedence() || b.Op.Precedence() == op.Precedence() && !right) {
		return e
	}
	return &dst.ParenExpr{X: e}
}

// stringLike reports whether t, the source of copy or the tail of
// append(s, t...), is a string rather than a slice: a string type, named or
// not, or a type parameter one of whose terms is a string (~string,
// ~string|~[]byte). Its underlying type alone says nothing for a type
// parameter (an interface), and the runtime's helpers differ for the two.
func stringLike(t types.Type) bool {
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		return termsHaveString(tp.Constraint())
	}
	b, ok := underlying(t).(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func termsHaveString(c types.Type) bool {
	iface, ok := underlying(c).(*types.Interface)
	if !ok {
		return stringLike(c)
	}
	for i := range iface.NumEmbeddeds() {
		e := iface.EmbeddedType(i)
		if u, ok := e.(*types.Union); ok {
			for j := range u.Len() {
				if stringLike(u.Term(j).Type()) {
					return true
				}
			}
		} else if termsHaveString(e) {
			return true
		}
	}
	return false
}

// asString converts x, of a string-like type other than string (type Index
// string, a type parameter), to string, for a runtime helper that takes one.
func (w *walker) asString(x dst.Expr, a ast.Expr) dst.Expr {
	t := types.Unalias(w.info.TypeOf(a))
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsString != 0 {
		return x // string or an untyped constant
	}
	return &dst.CallExpr{Fun: dst.NewIdent("string"), Args: []dst.Expr{x}}
}
