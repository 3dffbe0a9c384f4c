package analysis

import (
	"go/ast"
	"go/types"
)

// The walk of a callback's tree for the writes it may make (cbreads.go).

// treeWalk lists, by type, the checked writes that code able to run in a
// callback's tree may make (see CallbackReads).
type treeWalk struct {
	link    *linkage
	site    *specSite
	fns     map[*types.Func]bool
	lits    map[*ast.FuncLit]bool
	dynamic bool // the functions callable through a value were walked
	writes  []treeWrite
	why     string // why nothing can be proven, or ""
	// own is what the callback owns, lending it to its context clones
	// (cbclone.go): only its call reaches it, so no read of another
	// name can meet its writes. ctx are those clones, by call.
	own *workerOwnership
	ctx map[*ast.CallExpr]*ContextClone
	// fresh are the outputs made for the callback and their windows
	// (cbfresh.go): a write through them meets reads through them only.
	fresh map[*types.Var]bool
}

// walk lists the writes of n, code of the package r.
func (t *treeWalk) walk(r *Result, n ast.Node) { t.walkOwning(r, n, nil) }

// walkOwning is walk with the writes of objects own holds left out: a
// context clone's body, with its names for the scratch the callback lent.
func (t *treeWalk) walkOwning(r *Result, n ast.Node, own *workerOwnership) {
	if t.why != "" {
		return
	}
	info := r.finder.info
	w := &accessWalker{r: r, info: info}
	w.emit = func(a access) {
		if own != nil && own.owns(a, info) || t.own != nil && t.own.owns(a, info) {
			return
		}
		t.write(r, a)
	}
	w.callees = func(fn *types.Func) { t.fn(fn) }
	w.inPlace = func(call *ast.CallExpr, _ *types.Func) bool {
		cc := t.ctx[call]
		if cc == nil {
			return false
		}
		t.walkOwning(r, cc.Decl.Body, cc.owned) // this call runs its own clone
		return true
	}
	w.lits = func(lit *ast.FuncLit) { t.lit(r, lit) }
	w.viaValue = func(call *ast.CallExpr) bool {
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && info.Uses[id] == t.site.param {
			return true // the helper's call of its parameter: the literal, walked on its own
		}
		t.callableBy(r, call)
		return true
	}
	w.foreign = func(call *ast.CallExpr, fn *types.Func) bool {
		t.foreign(r, call, fn)
		return true
	}
	w.walk(n)
	if w.opaque != "" && t.why == "" {
		t.why = w.opaque
	}
}

// write records the access a of code of r if it is a write that can be
// checked on memory another pointer may reach.
//
// A reslicing x[lo:hi] writes nothing itself: the access walker lists it
// as a write of x's elements for the heap pass, but every checked write
// through the new slice is an access of its own in code the tree walk
// follows (s[0] = v, copy(s, …), append(s, …), a callee's), or a call the
// standard library's table checks, which foreign counts with its slice
// arguments; a write anywhere else runs unchecked and reports nothing.
func (t *treeWalk) write(r *Result, a access) {
	if a.mode&write == 0 || a.sync || a.slice != nil {
		return
	}
	info := r.finder.info
	if a.elems {
		if r.WorkerOwnedElems(a.e) {
			return
		}
		if _, arr := underlying(info.TypeOf(a.e)).(*types.Array); arr && r.unaddressedLocal(rootVar(a.e, info)) {
			return
		}
	} else {
		if r.WorkerOwned(a.e) {
			return
		}
		if v := rootVar(a.e, info); v != nil && r.unaddressedLocal(v) {
			return
		}
	}
	w := writeOf(a, info)
	if t.fresh != nil && t.fresh[baseVar(a.e, info)] {
		w.only = t.fresh
	}
	t.writes = append(t.writes, w)
}

// unaddressedLocal reports whether v is a local variable of r's package
// whose address is never taken: only its name reaches its storage.
func (r *Result) unaddressedLocal(v *types.Var) bool {
	return v != nil && v.Pkg() == r.finder.pkg && v.Parent() != nil && v.Parent() != v.Pkg().Scope() && !r.Addressed[v]
}

// fn walks the body of a function declared in a package rewritten
// together with this one.
func (t *treeWalk) fn(fn *types.Func) {
	fn = fn.Origin()
	if t.fns[fn] {
		return
	}
	t.fns[fn] = true
	o := t.link.owner[fn]
	if o == nil || o.Decls[fn] == nil {
		t.why = "calls " + fn.FullName() + ", whose body is not known"
		return
	}
	if o.Decls[fn] == t.site.helper {
		// The helper called again inside its own tree (the callback runs
		// parallel(1, set)): its call of the parameter there runs the
		// value given, not the literal, so anything callable through a
		// value may run (testdata/review17/cbnested).
		t.callable()
	}
	t.walk(o, o.Decls[fn].Body)
}

// lit walks a function literal of r's package once.
func (t *treeWalk) lit(r *Result, lit *ast.FuncLit) {
	if t.lits[lit] {
		return
	}
	t.lits[lit] = true
	t.walk(r, lit.Body)
}

// callable walks, once, every function of the packages rewritten together
// that a call through a value may run checked, but the callbacks that
// run only in their own helper's trees.
func (t *treeWalk) callable() {
	if t.dynamic {
		return
	}
	t.dynamic = true
	for _, o := range t.link.results {
		for fn := range o.Decls {
			if o.Prologue[fn] && !o.Detach[fn] {
				t.fn(fn)
			}
		}
		own := o.testRunLits()
		for _, s := range o.specSites() {
			own[s.lit] = true
		}
		for lit := range o.PrologueLits {
			if !o.DetachLits[lit] && !own[lit] {
				t.lit(o, lit)
			}
		}
	}
}

// testRunLits are the literals r passes straight to (*testing.T).Run or
// (*testing.B).Run as the test to run: testing runs such a literal on a
// goroutine of its own, which no task is attached to (its prologue runs
// it as written), and keeps it from every other caller, so it never runs
// checked in a callback's tree.
func (r *Result) testRunLits() map[*ast.FuncLit]bool {
	out := map[*ast.FuncLit]bool{}
	info := r.finder.info
	for _, f := range r.finder.files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 2 {
				return true
			}
			fn := Callee(info, call.Fun)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "testing" || fn.Name() != "Run" {
				return true
			}
			sig, _ := fn.Type().(*types.Signature)
			if sig == nil || sig.Recv() == nil {
				return true
			}
			if p, ok := sig.Recv().Type().(*types.Pointer); ok {
				if n, ok := p.Elem().(*types.Named); ok && (n.Obj().Name() == "T" || n.Obj().Name() == "B") {
					if lit, ok := ast.Unparen(call.Args[1]).(*ast.FuncLit); ok {
						out[lit] = true
					}
				}
			}
			return true
		})
	}
	return out
}

// foreign follows a call of fn, a function of another package: walked when
// the package is rewritten with this one; otherwise it runs unchecked, and
// what it is given to write counts as written (the table of stdcalls.go
// checks some of it at the call), and it may call back any function that
// can be called through a value when it is given one, an interface, or
// memory holding either.
func (t *treeWalk) foreign(r *Result, call *ast.CallExpr, fn *types.Func) {
	if t.link.owner[fn.Origin()] != nil || r.linked.has(fn.Pkg()) {
		t.fn(fn)
		return
	}
	info := r.finder.info
	ops := append([]ast.Expr{}, call.Args...)
	var recv ast.Expr
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && info.Selections[sel] != nil {
		recv = sel.X
		ops = append(ops, sel.X)
	}
	for _, a := range ops {
		at := info.TypeOf(a)
		if at == nil {
			continue
		}
		switch u := at.Underlying().(type) {
		case *types.Pointer:
			if a != recv || !readsReceiver(fn) {
				t.writes = append(t.writes, treeWrite{typ: u.Elem()})
			}
		case *types.Slice:
			t.writes = append(t.writes, treeWrite{typ: u.Elem(), elem: true})
		}
		// (A receiver only read may still lead to code: Paletted's and
		// Uniform's Opaque call their colors' RGBA methods.)
		if r.carriesCode(at, map[types.Type]bool{}) {
			t.callable()
		}
	}
	if sig, ok := fn.Type().(*types.Signature); ok {
		for i := range sig.Params().Len() {
			if r.carriesCode(sig.Params().At(i).Type(), map[types.Type]bool{}) {
				t.callable() // a value converted to the parameter's interface type
			}
		}
	}
}

// carriesCode reports whether a value of type t may hold or lead to a
// function, an interface or a channel (through which code of the rewritten
// packages could be called or handed over), or has methods of a package
// that is rewritten or not the standard library.
func (r *Result) carriesCode(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && (r.linked.has(n.Obj().Pkg()) || !Standard(n.Obj().Pkg().Path())) && types.NewMethodSet(types.NewPointer(t)).Len() > 0 {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Signature, *types.Interface, *types.Chan:
		return true
	case *types.Pointer:
		return r.carriesCode(u.Elem(), seen)
	case *types.Slice:
		return r.carriesCode(u.Elem(), seen)
	case *types.Array:
		return r.carriesCode(u.Elem(), seen)
	case *types.Map:
		return r.carriesCode(u.Key(), seen) || r.carriesCode(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if r.carriesCode(u.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.TypeParam:
		return true
	}
	return false
}

// readsReceiver reports whether fn is a method of the standard library's
// image types that only reads its receiver: an offset, the bounds, the
// color model or a pixel's color. imaging's scanner calls img.COffset(x,
// y) on the source image for each pixel, which otherwise counted as a
// write of every *image.YCbCr field and left the source's headers checked.
func readsReceiver(fn *types.Func) bool {
	if fn.Pkg() == nil || fn.Pkg().Path() != "image" {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	switch fn.Name() {
	case "PixOffset", "COffset", "YOffset", "AOffset", "Bounds", "ColorModel", "At", "Opaque",
		"RGBAAt", "RGBA64At", "NRGBAAt", "NRGBA64At", "GrayAt", "Gray16At", "AlphaAt", "Alpha16At",
		"CMYKAt", "YCbCrAt", "NYCbCrAAt", "ColorIndexAt":
		return true
	}
	return false
}
