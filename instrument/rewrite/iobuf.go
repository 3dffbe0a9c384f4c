package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// The buffers of readers and writers (-hb): a Read, ReadAt, Write or
// WriteAt of the standard library's readers and writers, or through an
// interface, goes through rt, which makes the call and checks p[:n] when
// the dynamic type is one of the standard library's that writes (reads)
// that much of p (rt/iobuf.go):
//
//	n, err = f.Read(b)   ->  n, err = _ga_rt.ReadInto(_ga_hb, f, b, site)
//	h.Write(b)           ->  _ga_rt.WriteFrom(_ga_hb, h, b, site)
//	buf.Read(b)          ->  _ga_rt.ReadInto(_ga_hb, &buf, b, site)   (buf a bytes.Buffer)
//
// A method of the program's own types is rewritten and checks itself.

// ioMethods maps a method name to its rt call and whether it takes an
// offset after the buffer.
var ioMethods = map[string]struct {
	rt     string
	offset bool
}{
	"Read":    {rtnames.ReadInto, false},
	"ReadAt":  {rtnames.ReadAtInto, true},
	"Write":   {rtnames.WriteFrom, false},
	"WriteAt": {rtnames.WriteAtFrom, true},
}

// ioTypes are the standard library's types whose methods rt knows, by
// package path and type name (rt's fillsBuffer and readsBuffer).
var ioTypes = map[[2]string]bool{
	{"os", "File"}: true, {"bytes", "Buffer"}: true, {"bytes", "Reader"}: true,
	{"strings", "Reader"}: true, {"strings", "Builder"}: true, {"hash/maphash", "Hash"}: true,
}

// ioBufCall returns the rt call that replaces x, a call of a reader's or
// writer's method ioMethods names with the io signature, or nil. x.Args
// and its receiver are already rewritten.
func (w *walker) ioBufCall(x *dst.CallExpr, a *ast.CallExpr) dst.Expr {
	if !w.hooks() {
		return nil
	}
	sel, ok := x.Fun.(*dst.SelectorExpr)
	selAST, _ := ast.Unparen(a.Fun).(*ast.SelectorExpr)
	if !ok || selAST == nil {
		return nil
	}
	s := w.info.Selections[selAST]
	if s == nil || s.Kind() != types.MethodVal || len(s.Index()) != 1 {
		return nil // a method value, or promoted from an embedded field
	}
	fn, _ := s.Obj().(*types.Func) // an interface's method too (analysis.Callee has none)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	m, ok := ioMethods[fn.Name()]
	if !ok || !ioSignature(fn, m.offset) || len(x.Args) != len(a.Args) {
		return nil
	}
	recvT := w.info.TypeOf(selAST.X)
	recv := sel.X
	switch {
	case types.IsInterface(recvT):
	case ioTypes[[2]string{fn.Pkg().Path(), recvNamed(fn)}]:
		sig, _ := fn.Type().(*types.Signature)
		if sig == nil || sig.Recv() == nil || !isPointer(sig.Recv().Type()) {
			return nil
		}
		if !isPointer(recvT) {
			recv = &dst.UnaryExpr{Op: token.AND, X: recv} // addressable: the call took its address
		}
	default:
		return nil
	}
	w.change()
	buf := a.Args[0]
	site := siteLit(w.site(buf.Pos(), types.ExprString(buf)))
	args := append([]dst.Expr{w.taskExpr(), recv}, x.Args...)
	return w.rtCall(m.rt, append(args, site)...)
}

// ioSignature reports whether fn is func(p []byte) (int, error), or
// func(p []byte, off int64) (int, error) with offset.
func ioSignature(fn *types.Func, offset bool) bool {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Variadic() || sig.Results().Len() != 2 {
		return false
	}
	want := 1
	if offset {
		want = 2
	}
	if sig.Params().Len() != want {
		return false
	}
	p, ok := sig.Params().At(0).Type().(*types.Slice)
	if !ok || !types.Identical(p.Elem(), types.Typ[types.Byte]) {
		return false
	}
	if offset && !types.Identical(sig.Params().At(1).Type(), types.Typ[types.Int64]) {
		return false
	}
	return types.Identical(sig.Results().At(0).Type(), types.Typ[types.Int]) &&
		types.Identical(sig.Results().At(1).Type(), types.Universe.Lookup("error").Type())
}
