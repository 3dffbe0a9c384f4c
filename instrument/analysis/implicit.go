package analysis

import (
	"go/ast"
	"go/types"
)

// Implicit accesses in a footprint: memory an expression touches without
// naming it. The rewriter checks each of them (rewrite/implicit.go); the
// heap proofs must list them too, or a proof could drop the checks of
// writes that such a read conflicts with.

// conversion emits the element reads of a conversion of a slice to a
// string (string(b) reads every byte of b) or to an array value
// ([4]byte(b) reads the first four, listed as every element).
func (w *accessWalker) conversion(call *ast.CallExpr) {
	if len(call.Args) != 1 {
		return
	}
	if _, arr := underlying(w.info.TypeOf(call)).(*types.Array); arr {
		if s, ok := underlying(w.info.TypeOf(call.Args[0])).(*types.Slice); ok {
			w.emit(access{e: call.Args[0], typ: s.Elem(), mode: read, elems: true})
		}
		return
	}
	to, ok := underlying(w.info.TypeOf(call)).(*types.Basic)
	if !ok || to.Info()&types.IsString == 0 {
		return
	}
	if s, ok := underlying(w.info.TypeOf(call.Args[0])).(*types.Slice); ok {
		w.emit(access{e: call.Args[0], typ: s.Elem(), mode: read, elems: true})
	}
}

// appendTail emits the element reads of append(s, tail...).
func (w *accessWalker) appendTail(call *ast.CallExpr) {
	if !call.Ellipsis.IsValid() || len(call.Args) != 2 {
		return
	}
	if s, ok := underlying(w.info.TypeOf(call.Args[1])).(*types.Slice); ok {
		w.emit(access{e: call.Args[1], typ: s.Elem(), mode: read, elems: true})
	}
}

// methodRecv emits the reads a method selection x.M makes implicitly: the
// embedded pointer and interface fields on the path to M, and the pointee
// a value method copies when it is reached through a pointer. They are
// listed by type only (the expressions are made up): no proof names them.
func (w *accessWalker) methodRecv(x *ast.SelectorExpr) {
	s := w.info.Selections[x]
	if s == nil || s.Kind() != types.MethodVal {
		return
	}
	t := w.info.TypeOf(x.X)
	idx := s.Index()
	for _, i := range idx[:len(idx)-1] {
		st, _ := derefStructType(t)
		if st == nil {
			return
		}
		f := st.Field(i)
		if _, iface := underlying(f.Type()).(*types.Interface); iface || isPtr(f.Type()) {
			w.emit(access{e: &ast.StarExpr{Star: x.Pos(), X: x.X}, typ: f.Type(), mode: read})
		}
		t = f.Type()
	}
	sig, _ := s.Obj().Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil || isPtr(sig.Recv().Type()) || types.IsInterface(sig.Recv().Type()) {
		return
	}
	if p, ok := underlying(t).(*types.Pointer); ok {
		w.emit(access{e: &ast.StarExpr{Star: x.Pos(), X: x.X}, typ: p.Elem(), mode: read})
	}
}

func derefStructType(t types.Type) (*types.Struct, bool) {
	if p, ok := underlying(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	s, ok := underlying(t).(*types.Struct)
	return s, ok
}
