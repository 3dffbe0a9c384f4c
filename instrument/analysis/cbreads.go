package analysis

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// Reads of a callback that nothing in its tree writes. A literal passed
// straight to a helper that forks (specialize.go's specSite: imaging's
// parallel(0, h, func(ys <-chan int) { … kernel[k] … src.w … })) runs only
// in the blocks of the helper's construct, whose instance begins a root
// tree when the call is in a function's plain body. Conflicts are reported
// only between blocks of one tree, and only between checked accesses, so
// a read of the literal needs no check when no checked write that can run
// in that tree may touch its memory.
//
// What can run in the tree is walked, and its writes listed by type
// (accessWalker): the helper's statements from its first fork to its join,
// its goroutines, the literal itself, every static callee (in any package
// rewritten together, through Link), every function literal met (it may be
// called there), and, at a call through a function value or an interface,
// every function of the packages rewritten together that may be called
// through a value (its prologue runs the checked copy), but the literals
// that are themselves such callbacks: those run only in the trees of their
// own helper's instances. A call into a package that is not rewritten runs
// unchecked; what it is given to write (the elements of a slice or a
// pointer argument, which the standard library's table may check at the
// call) counts as written, and if it is given a function, an interface or
// memory that holds one, it may call back any of those functions.
//
// Not counted: writes of locals whose address is never taken (no pointer
// or slice can reach their storage, so no read through one can meet
// them), accesses of objects a worker or a callback allocated and keeps
// (workerowned.go: no other pointer reaches them), and synchronization.
// Types keep memory apart only as mayOverlap says, and not at all when a
// package of the import graph views memory as another type (views.go).
//
// The proof is the literal's only where it is made in a plain body (the
// rewriter's condition for specialization): a clone's copy of the literal
// runs in its caller's tree, whose other blocks are not walked.

// linkage is what Link knows of the packages rewritten together.
type linkage struct {
	results []*Result
	owner   map[*types.Func]*Result // the result declaring each function
}

// CallbackReads returns the proof that the reads of lit's own body it
// lists touch memory nothing in the tree of lit's helper writes, or nil
// when lit is no such callback or nothing is proven.
func (r *Result) CallbackReads(lit *ast.FuncLit) *HeapProof {
	if r.cbReads == nil {
		r.cbReads = map[*ast.FuncLit]*HeapProof{}
		r.cbReadsWhy = map[*ast.FuncLit]string{}
		for _, s := range r.specSites() {
			r.cbReads[s.lit], r.cbReadsWhy[s.lit] = r.callbackReads(s)
		}
	}
	return r.cbReads[lit]
}

// callbackReads proves what it can of the reads of s.lit, or says why
// nothing.
func (r *Result) callbackReads(s *specSite) (*HeapProof, string) {
	if r.link == nil {
		return nil, "the packages rewritten together are not known"
	}
	if fn, _ := r.finder.info.Defs[s.helper.Name].(*types.Func); fn == nil || r.Prologue[fn] {
		return nil, "the helper may be called through a value: its clone would run the literal in its caller's tree"
	}
	for _, o := range r.link.results {
		if why := o.Views(); why != "" {
			return nil, why
		}
	}
	t := &treeWalk{link: r.link, site: s, fns: map[*types.Func]bool{}, lits: map[*ast.FuncLit]bool{}}
	c := s.c
	for _, st := range c.List[c.First : c.Join+1] {
		t.walk(r, st)
	}
	for _, fk := range c.Forks {
		if fk.Body != nil {
			t.lit(r, fk.Body)
		}
		if fk.Value != nil {
			t.lit(r, fk.Value)
		}
		if fk.Callee != nil {
			t.fn(fk.Callee)
		}
	}
	t.lit(r, s.lit)
	if t.why != "" {
		return nil, t.why
	}
	info := r.finder.info
	p := &HeapProof{verdicts: map[ast.Expr]HeapVerdict{}}
	aw := &accessWalker{r: r, info: info, callees: func(*types.Func) {}, lits: func(*ast.FuncLit) {}}
	aw.viaValue = func(*ast.CallExpr) bool { return true }
	aw.emit = func(a access) {
		if a.mode != read || a.sync || !heapRead(a, info) {
			return
		}
		l := readOf(a, info)
		for _, w := range t.writes {
			if w.meets(l) {
				return
			}
		}
		key := a.e
		if a.key != nil {
			key = a.key
		}
		p.verdicts[ast.Unparen(key)] = HeapVerdict{Why: "nothing the helper's tree runs writes it"}
	}
	aw.walk(s.lit.Body)
	if len(p.verdicts) == 0 {
		return nil, "every read may meet a write of its type"
	}
	return p, ""
}

// heapRead reports whether the read a is of memory reached through a
// pointer or a slice: not a variable's own storage, a map entry or a
// string's byte.
func heapRead(a access, info *types.Info) bool {
	if a.elems {
		switch underlying(info.TypeOf(a.e)).(type) {
		case *types.Slice, *types.Pointer:
			return true
		}
		return false
	}
	if ix, ok := ast.Unparen(a.e).(*ast.IndexExpr); ok && isMapOrString(info.TypeOf(ix.X)) {
		return false
	}
	return rootVar(a.e, info) == nil
}

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
}

// walk lists the writes of n, code of the package r.
func (t *treeWalk) walk(r *Result, n ast.Node) {
	if t.why != "" {
		return
	}
	info := r.finder.info
	w := &accessWalker{r: r, info: info}
	w.emit = func(a access) { t.write(r, a) }
	w.callees = func(fn *types.Func) { t.fn(fn) }
	w.lits = func(lit *ast.FuncLit) { t.lit(r, lit) }
	w.viaValue = func(call *ast.CallExpr) bool {
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && info.Uses[id] == t.site.param {
			return true // the helper's call of its parameter: the literal, walked on its own
		}
		t.callable()
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
func (t *treeWalk) write(r *Result, a access) {
	if a.mode&write == 0 || a.sync {
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
	t.writes = append(t.writes, writeOf(a, info))
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
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && info.Selections[sel] != nil {
		ops = append(ops, sel.X)
	}
	for _, a := range ops {
		at := info.TypeOf(a)
		if at == nil {
			continue
		}
		switch u := at.Underlying().(type) {
		case *types.Pointer:
			t.writes = append(t.writes, treeWrite{typ: u.Elem()})
		case *types.Slice:
			t.writes = append(t.writes, treeWrite{typ: u.Elem(), elem: true})
		}
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

// reportCallbackReads reports, for -dynamic, what CallbackReads proved of
// each callback passed straight to a helper, or why nothing, and with
// -accesses each read it proved.
func reportCallbackReads(pass *analysis.Pass, res *Result) {
	for _, s := range res.specSites() {
		p := res.CallbackReads(s.lit)
		if p == nil {
			pass.Reportf(s.lit.Pos(), "callback reads: none proven unwritten in its helper's tree: %s", res.cbReadsWhy[s.lit])
			continue
		}
		pass.Reportf(s.lit.Pos(), "callback reads: %d read(s) of memory nothing in its helper's tree writes, not checked", len(p.verdicts))
		if accesses {
			for e := range p.verdicts {
				pass.Reportf(e.Pos(), "%s: read-only: nothing the helper's tree runs writes it", types.ExprString(e))
			}
		}
	}
}
