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
		r.cbItemsWhy = map[*ast.FuncLit]string{}
		var ctx []*ContextClone
		for _, s := range r.specSites() {
			p, why := r.callbackReads(s)
			r.cbReads[s.lit], r.cbReadsWhy[s.lit] = p, why
			for _, cc := range p.ctxList() {
				ctx = append(ctx, cc)
			}
		}
		r.nameCtx(ctx)
	}
	if lit == nil {
		return nil
	}
	return r.cbReads[lit]
}

// callbackReads proves what it can of the reads of s.lit, or says why
// nothing.
func (r *Result) callbackReads(s *specSite) (*HeapProof, string) {
	if r.link == nil {
		return nil, "the packages rewritten together are not known"
	}
	for _, o := range r.link.results {
		if why := o.Views(); why != "" {
			return nil, why
		}
	}
	own, ctx := r.siteScratch(s)
	t := &treeWalk{link: r.link, site: s, fns: map[*types.Func]bool{}, lits: map[*ast.FuncLit]bool{}, own: own, ctx: map[*ast.CallExpr]*ContextClone{}}
	for _, cc := range ctx {
		t.ctx[cc.call] = cc
	}
	t.fresh = r.freshOutputs(s)
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
	p := &HeapProof{verdicts: map[ast.Expr]HeapVerdict{}, lent: map[ast.Expr]bool{}, ctx: t.ctx}
	lent := &workerOwnership{vars: map[*types.Var]bool{}}
	for v := range own.vars {
		if !r.callbackOwned[v] {
			lent.vars[v] = true // scratch the callback owns only because its callees keep it
		}
	}
	r.proveReads(p, s.lit.Body, lent, t.writes)
	r.proveCtx(ctx, t.writes)
	// The items' writes of the outputs (cbitems.go). The guard reads fields
	// the helper's statements before its construct may write too.
	pre := *t
	pre.writes = nil
	for _, st := range c.List[:c.First] {
		pre.walk(r, st)
	}
	if pre.why != "" {
		r.cbItemsWhy[s.lit] = pre.why
	} else {
		r.cbItemsWhy[s.lit] = r.itemWrites(s, t.fresh, p, append(append([]treeWrite{}, t.writes...), pre.writes...))
	}
	if len(p.verdicts) == 0 && len(ctx) == 0 {
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

// reportCallbackReads reports, for -dynamic, what CallbackReads proved of
// each callback passed straight to a helper, or why nothing, and with
// -accesses each read it proved.
func reportCallbackReads(pass *analysis.Pass, res *Result) {
	for _, s := range res.specSites() {
		p := res.CallbackReads(s.lit)
		if p == nil {
			pass.Reportf(s.lit.Pos(), "callback reads: none proven unwritten in its helper's tree: %s", res.cbReadsWhy[s.lit])
			if why := res.cbItemsWhy[s.lit]; why != "" {
				pass.Reportf(s.lit.Pos(), "callback item writes: none proven: %s", why)
			}
			continue
		}
		items := 0
		var when string
		for e, v := range p.verdicts {
			if v.Independent && !p.lent[e] {
				items++
				when = v.Why
			}
		}
		if n := len(p.verdicts) - len(p.lent) - items; n > 0 {
			pass.Reportf(s.lit.Pos(), "callback reads: %d read(s) of memory nothing in its helper's tree writes, not checked", n)
		} else {
			pass.Reportf(s.lit.Pos(), "callback reads: none proven unwritten in its helper's tree: every read may meet a write of its type")
		}
		if items > 0 {
			pass.Reportf(s.lit.Pos(), "callback item writes: %d access(es) of the output not checked: %s", items, when)
		} else if why := res.cbItemsWhy[s.lit]; why != "" {
			pass.Reportf(s.lit.Pos(), "callback item writes: none proven: %s", why)
		}
		reportVerdicts(pass, p)
		for _, cc := range p.ctxList() {
			pass.Reportf(cc.call.Pos(), "context clone: this call runs %s, %d access(es) of the scratch it lends and %d read(s) nothing in the helper's tree writes not checked", cc.Name, len(cc.Proof.lent), len(cc.Proof.verdicts)-len(cc.Proof.lent))
			reportVerdicts(pass, cc.Proof)
		}
	}
}

// reportVerdicts reports, with -accesses, each access p leaves unchecked.
func reportVerdicts(pass *analysis.Pass, p *HeapProof) {
	if !accesses {
		return
	}
	for e, v := range p.verdicts {
		switch {
		case p.lent[e]:
			pass.Reportf(e.Pos(), "%s: private: %s", types.ExprString(e), v.Why)
		case v.Independent:
			pass.Reportf(e.Pos(), "%s: independent: %s", types.ExprString(e), v.Why)
		default:
			pass.Reportf(e.Pos(), "%s: read-only: %s", types.ExprString(e), v.Why)
		}
	}
}
