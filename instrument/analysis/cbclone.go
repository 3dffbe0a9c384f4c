package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
)

// Context clones: a callee's checked copy made for one call of a callback
// (cbreads.go). A function has one checked clone, shared by every caller,
// so it checks everything any caller may give it: imaging's scanner.scan
// copies pixels into dst, which blur's callback binds to scratch of its
// own (scanLine := make(…), lent to src.scan) while Clone binds it to the
// shared dst.Pix. In the callback, scan's writes of dst and its reads of
// the source image were checked byte by byte: 46% of blur's time.
//
// A call of the callback's own body, in the copy that CallbackReads
// proves (the literal made in a plain body, passed straight to its
// helper), gets a clone of its own, made for that call alone:
//
//	src.scan(x, 0, x+1, src.h, scanLine)   →   src._ga_scan_ga_ctx1(_ga_d, x, 0, x+1, src.h, scanLine)
//
// and in that clone
//
//   - the accesses of what the callback lent (the parameters bound to its
//     own scratch, and the windows the callee slices from them) carry no
//     check: the callee keeps the object as the callback does (only
//     indexes, slices into its own names, copies, ranges over it; never
//     stores, returns or passes it on), so only the call's goroutine ever
//     reaches it;
//   - a read through a pointer or a slice carries no check when no
//     checked write of the helper's tree may touch its memory, by the
//     walk and the overlap rules of cbreads.go. The tree's walk follows
//     this call into this clone, where the lent scratch's writes are
//     private; any other call of the callee in the tree is walked as
//     written, with all its writes.
//
// Every other caller keeps the shared clone and all its checks, and a
// clone of the literal (in its caller's tree) calls the shared clone too.
//
// The callee must be a function or method of the literal's package with a
// body, no type parameters, not variadic, with no function literal, go or
// defer statement (a closure could carry the scratch away), called in the
// literal's own body (not in a literal inside it).

// ContextClone is a checked copy of a function made for one call in a
// callback's body.
type ContextClone struct {
	Callee *types.Func
	Decl   *ast.FuncDecl
	Name   string     // the copy's name: _ga_<name>_ga_ctx<k>
	Proof  *HeapProof // what needs no check in the copy
	call   *ast.CallExpr
	owned  *workerOwnership // the callee's names for the lent scratch, and what it allocates and keeps
}

// ContextClone returns the clone that the call, in the code p proves,
// runs instead of its callee's shared clone, or nil.
func (p *HeapProof) ContextClone(call *ast.CallExpr) *ContextClone {
	if p == nil {
		return nil
	}
	return p.ctx[call]
}

// ContextClones returns the context clones of fn, a function of r's
// package, in the order of their calls.
func (r *Result) ContextClones(fn *types.Func) []*ContextClone {
	r.CallbackReads(nil)
	return r.ctxClones[fn]
}

// siteScratch returns what the callback s.lit owns when it may lend its
// scratch to context clones, and those clones (without proofs yet).
func (r *Result) siteScratch(s *specSite) (*workerOwnership, []*ContextClone) {
	info := r.finder.info
	calls := map[*ast.CallExpr]bool{}
	ast.Inspect(s.lit.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok && r.ctxCallee(call) != nil {
			calls[call] = true
		}
		return true
	})
	lend := func(call *ast.CallExpr, arg *ast.Ident) bool {
		if builtinName(call, info) == "copy" {
			return true
		}
		if !calls[call] {
			return false
		}
		return r.calleeKeeps(call, map[int]bool{argIndex(call, arg): true}) != nil
	}
	loop, _ := r.callbackRange(s.lit)
	o := &workerOwnership{vars: map[*types.Var]bool{}, until: map[*types.Var]token.Pos{}}
	r.ownedVars(&Fork{Body: s.lit, Items: loop}, o, lend)
	for v := range o.until {
		delete(o.vars, v) // handed over after the items: not the call's alone
	}
	var out []*ContextClone
	for call := range calls {
		lent := map[int]bool{}
		for k, a := range call.Args {
			if o.ownedVar(ast.Unparen(a), info) {
				lent[k] = true
			}
		}
		if len(lent) == 0 {
			continue
		}
		owned := r.calleeKeeps(call, lent)
		if owned == nil {
			panic("internal error: a callee keeps each lent object alone but not all of them")
		}
		fn := r.ctxCallee(call)
		out = append(out, &ContextClone{Callee: fn, Decl: r.Decls[fn], call: call, owned: owned})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].call.Pos() < out[j].call.Pos() })
	return o, out
}

// argIndex is the position of arg among call's arguments, or -1.
func argIndex(call *ast.CallExpr, arg ast.Expr) int {
	for k, a := range call.Args {
		if ast.Unparen(a) == arg {
			return k
		}
	}
	return -1
}

// ctxCallee returns the callee of call when it can have a context clone:
// a function or method of r's package with a body and a shared clone, no
// type parameters, not variadic, no function literal, go or defer
// statement in its body; or nil.
func (r *Result) ctxCallee(call *ast.CallExpr) *types.Func {
	fn := r.finder.callee(call)
	if fn == nil || fn.Pkg() != r.finder.pkg || call.Ellipsis.IsValid() || !r.Clones[fn] {
		return nil
	}
	d := r.Decls[fn]
	if d == nil || d.Body == nil || d.Type.TypeParams != nil || !cloneable(d) {
		return nil
	}
	if d.Recv != nil {
		if rt := d.Recv.List[0].Type; isGenericRecv(rt) {
			return nil
		}
	}
	if sig, ok := fn.Type().(*types.Signature); !ok || sig.Variadic() || sig.Params().Len() != len(call.Args) {
		return nil
	}
	closed := true
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			closed = false
		}
		return closed
	})
	if !closed {
		return nil
	}
	return fn
}

// isGenericRecv reports whether a receiver's type expression names type
// parameters (func (s *set[T]) …).
func isGenericRecv(e ast.Expr) bool {
	if st, ok := e.(*ast.StarExpr); ok {
		e = st.X
	}
	switch e.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// calleeKeeps returns what the callee of call owns when its parameters at
// the positions lent are bound to objects only the caller reaches: those
// parameters, the windows it slices from them and what it allocates and
// never lets go, by the rules of ownedVars with copy as the only call that
// may be given them; or nil when a lent parameter lets its object go.
func (r *Result) calleeKeeps(call *ast.CallExpr, lent map[int]bool) *workerOwnership {
	fn := r.ctxCallee(call)
	if fn == nil {
		return nil
	}
	d := r.Decls[fn]
	info := r.finder.info
	var params []*types.Var
	for _, f := range d.Type.Params.List {
		if len(f.Names) == 0 {
			params = append(params, nil)
		}
		for _, n := range f.Names {
			v, _ := info.Defs[n].(*types.Var)
			params = append(params, v)
		}
	}
	var seed []*types.Var
	for k := range lent {
		if k < 0 || k >= len(params) {
			return nil
		}
		p := params[k]
		if p == nil || r.Shared[p] || r.Addressed[p] {
			return nil
		}
		switch p.Type().Underlying().(type) {
		case *types.Pointer, *types.Slice, *types.Map:
		default:
			return nil
		}
		seed = append(seed, p)
	}
	o := &workerOwnership{vars: map[*types.Var]bool{}, until: map[*types.Var]token.Pos{}}
	copies := func(call *ast.CallExpr, _ *ast.Ident) bool { return builtinName(call, info) == "copy" }
	r.ownedVars(&Fork{Body: &ast.FuncLit{Type: d.Type, Body: d.Body}}, o, copies, seed...)
	for _, p := range seed {
		if !o.vars[p] {
			return nil
		}
	}
	return o
}

// owns reports whether the access a touches only objects o's variables
// hold (see WorkerOwned and WorkerOwnedElems).
func (o *workerOwnership) owns(a access, info *types.Info) bool {
	if !a.elems {
		return o.ownsLoc(a.e, info)
	}
	x := ast.Unparen(a.e)
	for {
		s, ok := x.(*ast.SliceExpr)
		if !ok {
			break
		}
		x = ast.Unparen(s.X)
	}
	return o.ownedVar(x, info) && !isMapOrString(info.TypeOf(x))
}

// proveCtx fills the proof of each context clone of a callback whose tree
// makes the writes ws.
func (r *Result) proveCtx(ctx []*ContextClone, ws []treeWrite) {
	for _, cc := range ctx {
		cc.Proof = &HeapProof{verdicts: map[ast.Expr]HeapVerdict{}, lent: map[ast.Expr]bool{}}
		r.proveReads(cc.Proof, cc.Decl.Body, cc.owned, ws)
	}
}

// proveReads records in p the accesses of body that need no check: those
// of objects own holds (private), and the reads through a pointer or a
// slice that no write of ws may touch.
func (r *Result) proveReads(p *HeapProof, body ast.Node, own *workerOwnership, ws []treeWrite) {
	info := r.finder.info
	aw := &accessWalker{r: r, info: info, callees: func(*types.Func) {}, lits: func(*ast.FuncLit) {}}
	aw.viaValue = func(*ast.CallExpr) bool { return true }
	aw.emit = func(a access) {
		key := a.e
		if a.key != nil {
			key = a.key
		}
		key = ast.Unparen(key)
		if own != nil && len(own.vars) > 0 && !a.sync && own.owns(a, info) {
			p.verdicts[key] = HeapVerdict{Independent: true, Why: "the callback's own scratch, which only its call reaches"}
			p.lent[key] = true
			return
		}
		if a.mode != read || a.sync || !heapRead(a, info) {
			return
		}
		l := readOf(a, info)
		for _, w := range ws {
			if w.meets(l) {
				return
			}
		}
		if _, done := p.verdicts[key]; !done {
			p.verdicts[key] = HeapVerdict{Why: "nothing the helper's tree runs writes it"}
		}
	}
	aw.walk(body)
}

// nameCtx names the context clones of r's package in the order of their
// calls: _ga_<name>_ga_ctx<k>, which no clone of a user's function can be
// (those are _ga_<name> and <Name>_ga_, and user names hold no _ga_).
func (r *Result) nameCtx(all []*ContextClone) {
	sort.Slice(all, func(i, j int) bool { return all[i].call.Pos() < all[j].call.Pos() })
	r.ctxClones = map[*types.Func][]*ContextClone{}
	for k, cc := range all {
		cc.Name = "_ga_" + cc.Callee.Name() + "_ga_ctx" + strconv.Itoa(k+1)
		r.ctxClones[cc.Callee] = append(r.ctxClones[cc.Callee], cc)
	}
}

// ctxList is p's context clones, or none when p is nil.
func (p *HeapProof) ctxList() []*ContextClone {
	if p == nil {
		return nil
	}
	var out []*ContextClone
	for _, cc := range p.ctx {
		out = append(out, cc)
	}
	return out
}
