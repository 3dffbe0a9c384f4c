package analysis

import (
	"go/ast"
	"go/types"
	"strings"
)

// Result is what the static stage found in one package.
type Result struct {
	Constructs []*Construct
	Forks      map[ast.Node]*Fork // every go statement and wg.Go/g.Go call, by node
	Notes      []Note
	Decls      map[*types.Func]*ast.FuncDecl // the package's functions with bodies
	Clones     map[*types.Func]bool          // functions to clone with a task: called from construct code
	Shared     map[*types.Var]bool           // local variables more than one goroutine may reach
	Addressed  map[*types.Var]bool           // local variables whose address is taken (&v, v[:], a pointer method)
	// Prologue and PrologueLits are the functions and literals that may be
	// called through a value: each begins with a prologue that runs its
	// checked version when its goroutine has a task (dynamic.go). After
	// Link, Prologue is one set for all the packages linked.
	Prologue     map[*types.Func]bool
	PrologueLits map[*ast.FuncLit]bool
	// Detach and DetachLits are those that may be called through a value
	// but run as written (they call recover or synchronize): each begins by
	// detaching its goroutine until it returns, so what it reaches runs as
	// written too.
	Detach     map[*types.Func]bool
	DetachLits map[*ast.FuncLit]bool

	writes        map[*types.Var]*varWrites
	made          map[*types.Var]bool // local slices defined by make
	independent   map[*Construct]map[*types.Var]bool
	heap          map[*Construct]*HeapProof
	views         string                        // why memory may be seen as another type (views.go), set by the driver
	unchecked     map[*Construct][]Note         // calls whose callee runs unchecked, see calls_unchecked.go
	syncWhy       map[*types.Func]string        // why each function's own body synchronizes, or ""
	imported      map[*types.Func]string        // why functions of other packages synchronize, from their facts
	syncs         map[*types.Func]string        // after Link: why each function synchronizes, propagated to callers
	calls         map[*types.Func][]*types.Func // the functions each one calls
	external      []*types.Func                 // functions of other packages called from construct or clone code
	dynExternal   []*types.Func                 // functions of other packages used as values (dynamic.go)
	attach        map[*Construct]bool           // constructs whose goroutines attach their task (attach.go)
	linked        linkedSet                     // the packages linked with this one: rewritten together
	shapes        map[ast.Node]*fnShape         // functions' literals, loops and gotos (capture.go)
	plainMethods  map[string][]*types.Func      // methods of the plain packages imported, by name (plaincalls.go)
	plainDeferred map[*ast.CallExpr]bool        // calls of defer statements: one of a construct's own statements? (plaincalls.go)
	finder        *finder
	owned         *workerOwnership // what pool workers own, see workerowned.go; computed on first use
	// The callbacks whose receives are work items, with their item loops,
	// and the variables they own (callitems.go).
	callbackLoops map[ast.Node]*ast.RangeStmt // by *ast.FuncLit or *ast.FuncDecl
	callbackOwned map[*types.Var]bool
	specs         map[*ast.FuncLit]*Specialization // callbacks proven as their helper's construct's body (specialize.go)
	link          *linkage                         // the packages rewritten together (Link)
	cbReads       map[*ast.FuncLit]*HeapProof      // callbacks' reads nothing in their tree writes (cbreads.go)
	cbReadsWhy    map[*ast.FuncLit]string          // why none, for those without
	cbItemsWhy    map[*ast.FuncLit]string          // why a callback's item writes are not proven (cbitems.go), or ""
	ctxClones     map[*types.Func][]*ContextClone  // callees' clones for one call of a callback (cbclone.go)
	atomicOnly    map[*types.Var]bool              // locals only sync/atomic's methods touch (atomiconly.go); computed on first use
}

// Analyze runs the static stage over one type-checked package.
func Analyze(files []*ast.File, info *types.Info, pkg *types.Package) *Result {
	w := NewWrappers()
	w.Find(files, info, pkg)
	return AnalyzeWith(files, info, pkg, w)
}

// AnalyzeWith is Analyze knowing the wrapper types of the packages
// analysed together (wrappers.go).
func AnalyzeWith(files []*ast.File, info *types.Info, pkg *types.Package, w *Wrappers) *Result {
	res := &Result{
		Forks:     map[ast.Node]*Fork{},
		Decls:     map[*types.Func]*ast.FuncDecl{},
		Clones:    map[*types.Func]bool{},
		Shared:    map[*types.Var]bool{},
		Addressed: map[*types.Var]bool{},

		syncWhy: map[*types.Func]string{},
		calls:   map[*types.Func][]*types.Func{},
	}
	for _, file := range files {
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					res.Decls[fn] = fd
				}
			}
		}
	}
	f := &finder{info: info, pkg: pkg, files: files, res: res, forkOf: res.Forks, why: map[ast.Node]string{}, wraps: w}
	for _, file := range files {
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				f.funcBody(fd.Body)
			}
		}
	}
	f.pruneTakes()
	f.directSyncs(files)
	f.orphans(files)
	f.dropWrapperGoroutines()
	f.noteRefusedWrappers(files)
	findShared(files, info, res.Shared, res.Addressed)
	f.demoteOldRangeVars()
	res.writes = findWrites(files, info)
	res.made = findMade(files, info)
	res.independent = map[*Construct]map[*types.Var]bool{}
	res.heap = map[*Construct]*HeapProof{}
	f.findClones()
	f.findDynamic()
	res.finder = f
	res.findCallbackItems()
	return res
}

// Link joins the results of packages rewritten together: a function of one
// package called from construct code of another gets its clone too, and
// every result's Clones becomes the one set for all of them, so a call from
// one package reaches the clone in the other.
func Link(results []*Result) {
	why := propagateSyncs(results)
	exits := propagateExits(results)
	for _, r := range results {
		r.syncs = why
		r.finder.demoteSyncing(why)
		r.finder.demoteExiting(exits)
	}
	owner := map[*types.Func]*Result{}
	for _, r := range results {
		for fn := range r.Decls {
			owner[fn] = r
		}
	}
	all := map[*types.Func]bool{}
	for _, r := range results {
		for _, fn := range r.dynExternal {
			if o := owner[fn]; o != nil {
				o.finder.valued(fn, 0)
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, r := range results {
			ext := r.external
			r.external = nil
			for _, fn := range ext {
				if o := owner[fn]; o != nil && !o.Clones[fn] {
					o.finder.cloneFrom(fn)
					changed = true
				}
			}
			if len(r.external) > 0 {
				changed = true
			}
		}
	}
	for _, r := range results {
		for fn := range r.Clones {
			all[fn] = true
		}
	}
	for _, r := range results {
		r.Clones = all
	}
	lk := &linkage{results: results, owner: owner}
	for _, r := range results {
		r.link = lk
	}
	linked := linkedSet{}
	for _, r := range results {
		linked[r.finder.pkg.Path()] = true
	}
	for _, r := range results {
		r.linked = linked
	}
	linkPrologues(results, owner, why)
	for _, r := range results {
		r.finder.noteUncheckedCalls()
		r.noteWorkerReach()
	}
}

// orphans notes every goroutine start that belongs to no construct, with
// the reason found when trying to place it.
func (f *finder) orphans(files []*ast.File) {
	for _, file := range files {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
			case *ast.CallExpr:
				if f.goMethod(n) == "" {
					return true
				}
			default:
				return true
			}
			if fk := f.forkOf[n]; fk != nil && fk.Construct != nil {
				return true
			}
			why := f.why[n]
			if why == "" {
				why = "goroutine is not part of a parallel construct"
			}
			f.forkOf[n] = &Fork{Node: n, Section: -1}
			f.res.Notes = append(f.res.Notes, Note{Pos: n.Pos(), Msg: why})
			return true
		})
	}
}

// findClones marks the functions called, transitively, from the code of
// constructs: they get a clone that takes the caller's task.
func (f *finder) findClones() {
	var work []*ast.BlockStmt
	visit := func(fn *types.Func) { f.visitClone(fn, &work) }
	for _, c := range f.res.Constructs {
		for _, s := range c.List[c.First:c.Join] {
			work = append(work, &ast.BlockStmt{List: []ast.Stmt{s}})
		}
		for _, fk := range c.Forks {
			if fk.Callee != nil {
				visit(fk.Callee)
			}
			if fk.Value != nil {
				work = append(work, fk.Value.Body) // a worker held in a variable (taskvar.go)
			}
		}
	}
	f.drain(work)
}

// cloneFrom marks fn, called from another package's construct code, and
// what it calls.
func (f *finder) cloneFrom(fn *types.Func) {
	var work []*ast.BlockStmt
	f.visitClone(fn, &work)
	f.drain(work)
}

// visitClone marks fn for cloning and queues its body, or records it as
// external when another package declares it.
func (f *finder) visitClone(fn *types.Func, work *[]*ast.BlockStmt) {
	if fn.Pkg() != nil && fn.Pkg() != f.pkg {
		f.res.external = append(f.res.external, fn)
		return
	}
	d := f.res.Decls[fn]
	if d == nil || f.res.Clones[fn] || !cloneable(d) || f.wrapMethod(fn) {
		return
	}
	f.res.Clones[fn] = true
	*work = append(*work, d.Body)
}

// drain marks, transitively, the functions called from the queued bodies.
func (f *finder) drain(work []*ast.BlockStmt) {
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		ast.Inspect(b, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if fn := f.callee(call); fn != nil {
					f.visitClone(fn, &work)
				}
			}
			return true
		})
	}
}

// cloneable reports whether a function can get a checked clone: it has a
// body, is not init or main, and carries no //go: directive that a copy
// must not repeat (linkname, nosplit, …).
func cloneable(d *ast.FuncDecl) bool {
	if d.Body == nil || Ignored(d) || (d.Recv == nil && (d.Name.Name == "init" || d.Name.Name == "main")) {
		return false
	}
	if d.Doc != nil {
		for _, c := range d.Doc.List {
			if strings.HasPrefix(c.Text, "//go:") {
				return false
			}
		}
	}
	return true
}

// Ignored reports whether a function carries //goanomaly:ignore: it is
// neither checked nor cloned.
func Ignored(d *ast.FuncDecl) bool {
	if d.Doc == nil {
		return false
	}
	for _, c := range d.Doc.List {
		if strings.HasPrefix(c.Text, "//goanomaly:ignore") {
			return true
		}
	}
	return false
}

// linkedSet is the set of packages rewritten together, by import path: a
// package loaded in two variants (its own and the one its tests compile
// into, distinct *types.Package objects) is rewritten once, and its other
// variant, which the other packages import, is built from the same
// rewritten files (the overlay maps files, not variants).
type linkedSet map[string]bool

// has reports whether p is one of the packages rewritten together.
func (l linkedSet) has(p *types.Package) bool { return p != nil && l[p.Path()] }
