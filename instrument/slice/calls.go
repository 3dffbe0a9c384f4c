package slice

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// walkCall walks a kept call. Its arguments are read. A call into the
// analysed packages needs nothing more (the callee's own kept loads are
// recorded where it is sliced); a runtime call uses the operands of &x
// arguments as addresses only; a call to anything else (another module,
// the standard library, a function value, an interface method) may load
// everything reachable from its arguments and receiver.
func (ps *pkgState) walkCall(call *ast.CallExpr) {
	info := ps.p.Info
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() { // a conversion
		for _, a := range call.Args {
			ps.walk(a, load)
			if readsElems(tv.Type, info.TypeOf(a)) {
				ps.load(elemOf(info.TypeOf(a)))
			}
		}
		return
	}
	if ps.builtin(call) != "" {
		for _, a := range call.Args {
			ps.walk(a, load)
		}
		return
	}
	if name := ps.rtCall(call); name != "" {
		ps.walkRTCall(call, name)
		return
	}
	callee := typeutil.StaticCallee(info, call)
	outside := callee == nil || !ps.a.user[callee.Pkg()] && !pureFunc(callee)
	fun := ast.Unparen(call.Fun)
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun = ix.X
	} else if ix, ok := fun.(*ast.IndexListExpr); ok {
		fun = ix.X
	}
	if sel, ok := fun.(*ast.SelectorExpr); ok && info.Selections[sel] != nil && info.Selections[sel].Kind() == types.MethodVal {
		ps.walk(sel.X, load)
		if s := info.Selections[sel]; s.Indirect() {
			if _, ptrRecv := s.Obj().Type().(*types.Signature).Recv().Type().(*types.Pointer); !ptrRecv {
				ps.load(s.Obj().Type().(*types.Signature).Recv().Type()) // p.M() copies *p
			}
		}
		if outside {
			ps.reach(info.TypeOf(sel.X))
		}
	} else {
		ps.walk(call.Fun, load)
	}
	for _, a := range call.Args {
		ps.walk(a, load)
		if outside {
			ps.reach(info.TypeOf(a))
		}
	}
}

// readsElems reports whether converting a value of type from to type to
// reads the elements of a slice: to a string, or to an array.
func readsElems(to, from types.Type) bool {
	if elemOf(from) == nil {
		return false
	}
	switch u := to.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Array:
		return true
	}
	return false
}

// walkRTCall walks a call to the runtime. What the runtime loads through
// its arguments is rtnames.ArgLoads's classification of the entry point,
// beside its name: nothing (slices are extents, values pass through), the
// row headers of a [][]T (GuardRowsW, GuardRowsR; of a [][][]T, both
// levels: GuardPlanesW), or, for the others and
// any name not classified, everything the arguments reach. An &x argument
// is an address (the runtime keys its shadow memory by it), unless the
// entry point runs code with its arguments (Acquire; PlainArgs1(f)(&x) hands it to f):
// that code may load what it reaches.
func (ps *pkgState) walkRTCall(call *ast.CallExpr, name string) {
	info := ps.p.Info
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && info.Selections[sel] != nil {
		ps.walk(sel.X, load)
	}
	loads := rtnames.ArgLoads(name)
	for _, a := range call.Args {
		t := info.TypeOf(a)
		if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op.String() == "&" {
			ps.walk(u.X, addr)
			if loads == rtnames.LoadsReachable && t != nil {
				ps.reach(t)
			}
			continue
		}
		ps.walk(a, load)
		switch {
		case loads == rtnames.LoadsNothing:
		case loads == rtnames.LoadsRows:
			// the headers of every level of rows: []T of a [][]T, and
			// [][]T and []T of a [][][]T
			for e := elemOf(t); elemOf(e) != nil; e = elemOf(e) {
				ps.load(e)
			}
		case t != nil:
			if _, isFunc := t.Underlying().(*types.Signature); !isFunc {
				ps.reach(t)
			}
		}
	}
}

// rtCall returns the name of the runtime function or method call calls,
// or "".
func (ps *pkgState) rtCall(call *ast.CallExpr) string {
	fun := ast.Unparen(call.Fun)
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun = ix.X
	} else if ix, ok := fun.(*ast.IndexListExpr); ok {
		fun = ix.X
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	obj := ps.p.Info.Uses[sel.Sel]
	if f, ok := obj.(*types.Func); ok && f.Pkg() != nil && f.Pkg().Path() == ps.a.cfg.RTPath {
		return f.Name()
	}
	return ""
}

// builtin returns the name of the builtin call calls, or "".
func (ps *pkgState) builtin(call *ast.CallExpr) string {
	fun := ast.Unparen(call.Fun)
	if sel, ok := fun.(*ast.SelectorExpr); ok { // unsafe.X
		fun = sel.Sel
	}
	id, ok := fun.(*ast.Ident)
	if !ok {
		return ""
	}
	if b, ok := ps.p.Info.Uses[id].(*types.Builtin); ok {
		return b.Name()
	}
	return ""
}

// pureFunc reports whether f is a function of package math: it reads only
// its arguments, writes nothing and cannot panic.
func pureFunc(f *types.Func) bool {
	sig, _ := f.Type().(*types.Signature)
	return f.Pkg() != nil && f.Pkg().Path() == "math" && sig != nil && sig.Recv() == nil
}

// fmtPrint reports whether call is fmt.Print, Println or Printf, or an
// Fprint* to os.Stdout or os.Stderr, whose arguments fmt cannot turn into
// calls of user code (no String, Error, Format or GoString method anywhere
// in their types, no interface).
func (ps *pkgState) fmtPrint(call *ast.CallExpr) bool {
	callee := typeutil.StaticCallee(ps.p.Info, call)
	if callee == nil || callee.Pkg() == nil || callee.Pkg().Path() != "fmt" {
		return false
	}
	args := call.Args
	switch callee.Name() {
	case "Print", "Println", "Printf":
	case "Fprint", "Fprintln", "Fprintf":
		if len(args) == 0 || !ps.stdStream(args[0]) {
			return false
		}
		args = args[1:]
	default:
		return false
	}
	if call.Ellipsis.IsValid() || ps.a.streams {
		return false
	}
	for _, a := range args {
		if formats(ps.p.Info.TypeOf(a), map[types.Type]bool{}) {
			return false
		}
	}
	return true
}

// stdStream reports whether e is os.Stdout or os.Stderr.
func (ps *pkgState) stdStream(e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v, ok := ps.p.Info.Uses[sel.Sel].(*types.Var)
	return ok && v.Pkg() != nil && v.Pkg().Path() == "os" && (v.Name() == "Stdout" || v.Name() == "Stderr")
}

// formats reports whether fmt, given a value of type t, may call a method
// of it or of something inside it (or cannot know: an interface).
func formats(t types.Type, seen map[types.Type]bool) bool {
	if t == nil {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	if _, ok := t.(*types.TypeParam); ok {
		return true
	}
	for _, mt := range []types.Type{t, types.NewPointer(t)} {
		ms := types.NewMethodSet(mt)
		for _, m := range []string{"String", "Error", "Format", "GoString"} {
			if ms.Lookup(nil, m) != nil {
				return true
			}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Interface:
		return true
	case *types.Pointer:
		return formats(u.Elem(), seen)
	case *types.Slice:
		return formats(u.Elem(), seen)
	case *types.Array:
		return formats(u.Elem(), seen)
	case *types.Map:
		return formats(u.Key(), seen) || formats(u.Elem(), seen)
	case *types.Chan:
		return formats(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if formats(u.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}
