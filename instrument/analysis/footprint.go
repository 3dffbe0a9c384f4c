package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// mode is how an access touches its location.
type mode int

const (
	read  mode = 1 << iota
	write      // assigned, incremented, or its address taken (anything may write it then)
)

// access is one memory access found by accessWalker: the location
// expression, or for the elements a range loop or a builtin reads or writes,
// the slice operand with elems set.
type access struct {
	e     ast.Expr
	typ   types.Type // the type of the memory touched
	mode  mode
	elems bool           // all elements of the slice e (range, clear, copy, append, reslicing)
	key   ast.Expr       // what the rewriter names the access by, when not e: a range loop's value
	addr  bool           // &e: the pointer is what is used
	sync  bool           // the receiver of a method of sync, sync/atomic or errgroup: synchronization, never checked
	slice *ast.SliceExpr // the reslicing x[lo:hi] this access of x's elements stands for (depend.go), or nil
}

// accessWalker lists the memory accesses of a piece of code the way the
// heap proofs need them: every location read or written (variables only
// when pointers can reach them: globals and locals whose address is taken),
// the static callees to follow, and whether anything is called that cannot
// be followed (a function value, an interface method, another package's
// function given pointers) — then nothing about the heap can be proved.
type accessWalker struct {
	r       *Result
	info    *types.Info
	emit    func(access)
	callees func(*types.Func)
	inPlace func(*ast.CallExpr, *types.Func) bool // walks a callee of this package in place instead, when it reports true (nil: never)
	lits    func(*ast.FuncLit)                    // function literals met: run who knows where
	// viaValue walks the callee of a call through a function value in
	// place, when it reports true (nil: never; specialize.go).
	viaValue func(*ast.CallExpr) bool
	// foreign follows a call of a function of another package instead,
	// when it reports true (nil: never; cbreads.go).
	foreign func(*ast.CallExpr, *types.Func) bool
	opaque  string // why the code cannot be followed, or ""
}

func (w *accessWalker) fail(why string) {
	if w.opaque == "" {
		w.opaque = why
	}
}

// walk lists the accesses in n, not entering function literals (handed to
// lits).
func (w *accessWalker) walk(n ast.Node) {
	var stack []ast.Node
	ast.Inspect(n, func(m ast.Node) bool {
		if m == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		if lit, ok := m.(*ast.FuncLit); ok && m != n {
			w.lits(lit)
			return false
		}
		stack = append(stack, m)
		switch x := m.(type) {
		case *ast.CallExpr:
			w.call(x)
		case *ast.RangeStmt:
			w.rangeElems(x)
		case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
			w.location(x.(ast.Expr), parent)
			if sel, ok := x.(*ast.SelectorExpr); ok {
				w.methodRecv(sel)
			}
		case *ast.SliceExpr:
			w.reslice(x, parent)
		}
		return true
	})
}

// location emits e if it is a memory location accessed in its own right
// (not a path to a part of it, which parent accesses).
func (w *accessWalker) location(e ast.Expr, parent ast.Node) {
	info := w.info
	if !isLocation(e, info) {
		return // a type, a function, a map entry or a string byte: not memory the program can alias
	}
	if isPath(e, parent, info) {
		return
	}
	if v := rootVar(e, info); v != nil && !w.reachable(v) {
		return // a part of a variable no pointer reaches: not heap memory
	}
	u, addr := parent.(*ast.UnaryExpr)
	w.emit(access{e: e, typ: info.TypeOf(e), mode: modeIn(e, parent, info), addr: addr && u.Op == token.AND, sync: syncReceiver(e, parent, info)})
}

// syncReceiver reports whether e is the receiver of a method of the
// synchronization packages (wg.Go, mu.Lock): what the method does to it is
// synchronization, which no build checks.
func syncReceiver(e ast.Expr, parent ast.Node, info *types.Info) bool {
	sel, ok := parent.(*ast.SelectorExpr)
	if !ok || sel.X != e {
		return false
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return false
	}
	fn, ok := s.Obj().(*types.Func)
	return ok && fn.Pkg() != nil && syncPackage(fn)
}

// reachable reports whether pointers may reach the variable's storage.
func (w *accessWalker) reachable(v *types.Var) bool {
	if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		return true
	}
	wr := w.r.writes[v]
	return wr != nil && wr.elsewhere
}

// isPath reports whether e is only the way to a part of parent's location:
// the struct operand of a field selection, the array operand of an index.
func isPath(e ast.Expr, parent ast.Node, info *types.Info) bool {
	switch p := parent.(type) {
	case *ast.SelectorExpr:
		if p.X != e {
			return true // the selected name itself
		}
		if s := info.Selections[p]; s != nil && s.Kind() == types.FieldVal {
			return !isPtr(info.TypeOf(e))
		}
	case *ast.IndexExpr:
		if p.X == e {
			_, arr := underlying(info.TypeOf(e)).(*types.Array)
			return arr
		}
	}
	return false
}

// modeIn is how parent uses the location e.
func modeIn(e ast.Expr, parent ast.Node, info *types.Info) mode {
	switch p := parent.(type) {
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if ast.Unparen(l) == e {
				if p.Tok == token.ASSIGN || p.Tok == token.DEFINE {
					return write
				}
				return read | write
			}
		}
	case *ast.IncDecStmt:
		return read | write
	case *ast.UnaryExpr:
		if p.Op == token.AND {
			return read | write
		}
	case *ast.RangeStmt:
		if p.Tok == token.ASSIGN && (p.Key == e || p.Value == e) {
			return write
		}
	case *ast.SelectorExpr:
		if s := info.Selections[p]; s != nil && s.Kind() == types.MethodVal && p.X == e {
			if sig, ok := s.Obj().Type().(*types.Signature); ok && isPtr(sig.Recv().Type()) && !isPtr(info.TypeOf(e)) {
				return read | write // implicit &e
			}
		}
	case *ast.SliceExpr:
		if _, arr := underlying(info.TypeOf(e)).(*types.Array); arr && p.X == e {
			return read | write // the array's elements become a slice's
		}
	case *ast.ParenExpr:
		return read | write // (x) = …: not worth telling apart
	}
	return read
}

// rangeElems emits the element reads of a range loop with a value, and the
// elements of a ranged array or slice assigned through the value.
func (w *accessWalker) rangeElems(r *ast.RangeStmt) {
	if _, ok := underlying(w.info.TypeOf(r.X)).(*types.Signature); ok {
		w.fail("ranges over a function, which runs unchecked")
	}
	if r.Value == nil {
		return
	}
	if el := elemType(w.info.TypeOf(r.X)); el != nil {
		w.emit(access{e: r.X, typ: el, mode: read, elems: true, key: r.Value})
	}
}

// reslice emits x[lo:hi] of a slice as a write of all its elements: the
// new slice may be written anywhere (a range over it reads only, and the
// range loop says so; so does copy's source, which copy only reads).
func (w *accessWalker) reslice(x *ast.SliceExpr, parent ast.Node) {
	el := elemType(w.info.TypeOf(x.X))
	if el == nil {
		return
	}
	m := read | write
	if r, ok := parent.(*ast.RangeStmt); ok && r.X == x {
		m = read
	}
	if c, ok := parent.(*ast.CallExpr); ok && len(c.Args) == 2 && c.Args[1] == x && builtinName(c, w.info) == "copy" {
		m = read
	}
	w.emit(access{e: x.X, typ: el, mode: m, elems: true, slice: x})
}

// call follows a call: builtins touch their slice operands, static callees
// of this package are walked by the caller, the synchronisation methods of
// sync and errgroup write only their receiver, and any other call must not
// be able to reach the program's memory.
func (w *accessWalker) call(call *ast.CallExpr) {
	info := w.info
	tv := info.Types[call.Fun]
	if tv.IsType() {
		w.conversion(call) // reads nothing but string(b)'s elements
		return
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if _, ok := info.Uses[id].(*types.Builtin); ok {
			w.builtin(id.Name, call)
			return
		}
	}
	fn := Callee(info, call.Fun)
	if fn == nil {
		if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
			_ = lit // walked as a literal: called in place, its accesses count the same
			return
		}
		if w.viaValue != nil && w.viaValue(call) {
			return
		}
		w.fail("calls a function value or an interface method")
		return
	}
	if fn.Pkg() == w.r.finder.pkg {
		if w.inPlace == nil || !w.inPlace(call, fn) {
			w.callees(fn.Origin())
		}
		return
	}
	if w.foreign != nil && w.foreign(call, fn) {
		return
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || !knownPackage(fn) {
		w.fail("calls " + fn.FullName() + ", which may write memory of its own package")
		return
	}
	synced := syncPackage(fn)
	if recv := sig.Recv(); recv != nil {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			t := recv.Type()
			if p, ok := t.Underlying().(*types.Pointer); ok {
				t = p.Elem()
				if !synced && !pointerFree(t) {
					w.fail("calls " + fn.FullName() + " on memory it can follow")
					return
				}
				w.emit(access{e: sel.X, typ: t, mode: read | write, sync: synced})
			} else if !synced && !pointerFree(t) {
				w.fail("calls " + fn.FullName() + " with memory it can follow")
				return
			}
		}
	}
	for _, a := range call.Args {
		if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok && synced {
			_ = lit // a goroutine body (g.Go, wg.Go): walked as a literal
			continue
		}
		t := info.TypeOf(a)
		switch u := underlying(t).(type) {
		case *types.Pointer:
			if !pointerFree(u.Elem()) {
				w.fail("passes " + fn.FullName() + " memory it can follow")
				return
			}
			w.emit(access{e: a, typ: u.Elem(), mode: read | write, elems: true})
		case *types.Slice:
			if !pointerFree(u.Elem()) {
				w.fail("passes " + fn.FullName() + " memory it can follow")
				return
			}
			w.emit(access{e: a, typ: u.Elem(), mode: read | write, elems: true})
		default:
			if !pointerFree(t) {
				w.fail("passes " + fn.FullName() + " a value it can follow or call")
				return
			}
		}
	}
}

// builtin records what a builtin does to its slice operands.
func (w *accessWalker) builtin(name string, call *ast.CallExpr) {
	if len(call.Args) == 0 {
		return
	}
	a := call.Args[0]
	el := elemType(w.info.TypeOf(a))
	switch name {
	case "clear", "append":
		if el != nil {
			w.emit(access{e: a, typ: el, mode: read | write, elems: true})
		}
		w.appendTail(call)
	case "copy":
		if el != nil {
			w.emit(access{e: a, typ: el, mode: write, elems: true})
		}
		if src := elemType(w.info.TypeOf(call.Args[1])); src != nil {
			w.emit(access{e: call.Args[1], typ: src, mode: read, elems: true})
		}
	}
}

// syncPackage reports whether fn belongs to the synchronisation packages
// whose methods touch only their receiver (and run the function they are
// given as a goroutine).
func syncPackage(fn *types.Func) bool {
	switch fn.Pkg().Path() {
	case "sync", "sync/atomic", "golang.org/x/sync/errgroup":
		return true
	}
	return false
}

// knownPackage reports whether fn belongs to a package whose functions
// touch only what they are given: no package variable of theirs can hold
// memory of the caller (as flag.Int's result, written by flag.Set, does).
func knownPackage(fn *types.Func) bool {
	switch fn.Pkg().Path() {
	case "math", "math/bits", "math/cmplx", "cmp", "errors", "strconv", "strings", "bytes",
		"unicode", "unicode/utf8", "unicode/utf16", "slices", "sort":
		return true
	}
	return syncPackage(fn)
}

// PointerFree reports whether values of t hold no pointer, slice, map,
// function, channel or interface: code given one cannot reach other memory.
func PointerFree(t types.Type) bool { return pointerFree(t) }

func pointerFree(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer
	case *types.Struct:
		for i := range u.NumFields() {
			if !pointerFree(u.Field(i).Type()) {
				return false
			}
		}
		return true
	case *types.Array:
		return pointerFree(u.Elem())
	}
	return false
}

// elemType is the element type of a slice, an array or a pointer to an
// array, or nil.
func elemType(t types.Type) types.Type {
	switch u := underlying(t).(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	case *types.Pointer:
		if a, ok := u.Elem().Underlying().(*types.Array); ok {
			return a.Elem()
		}
	}
	return nil
}

func isMapOrString(t types.Type) bool {
	switch u := underlying(t).(type) {
	case *types.Map:
		return true
	case *types.Basic:
		return u.Info()&types.IsString != 0
	}
	return false
}
