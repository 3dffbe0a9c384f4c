package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
)

// Work items received inside a callback. imaging's pool hands its channel
// to a function value, so the item loop is in the callback, not in the
// goroutine the construct starts:
//
//	go func() { defer wg.Done(); fn(c) }()            // the pool (utils.go)
//	parallel(0, h, func(ys <-chan int) {               // a callback
//		scanLine := make([]uint8, w*4)
//		for y := range ys { … }
//	})
//
// The two halves are written apart and meet only at run time, so each is
// decided alone and the run time joins them:
//
//   - the pool (Drains): a parallel loop of one goroutine literal that
//     calls fn(c), fn a function value and c a local channel filled and
//     closed before the construct, neither written while it runs, after
//     only defers and simple statements (no branch that could skip it):
//     every worker runs the same function on the same channel of
//     independent items. Its goroutine marks its task as draining c (rt
//     Task.Drains);
//   - the callback (CallbackItems): a literal with a prologue whose
//     parameter p is a channel it ranges over at the top level of its body.
//     Its checked copy calls Task.ItemOf(p) at each receive and
//     EndItemsOf(p) after the range, which start items only when the task
//     drains that very channel: a callback called from anywhere else runs as
//     one block, as before.
//
// An item may run in any worker, so what one worker keeps across its items
// must not be checked per item: a variable of the callback declared outside
// its range and used by the items is either free of pointers and neither
// captured nor addressed (never checked), or holds only memory the callback
// allocates and never lets go (workerowned.go; private in every build). Any
// other such variable, for example scratch lent to a method, keeps the
// callback's range one block per worker, with a note.

// findCallbackItems decides, for every literal and function with a
// prologue, whether its receives are work items.
func (r *Result) findCallbackItems() {
	r.callbackLoops = map[ast.Node]*ast.RangeStmt{}
	r.callbackOwned = map[*types.Var]bool{}
	var fns []ast.Node
	for lit := range r.PrologueLits {
		fns = append(fns, lit)
	}
	for fn, d := range r.Decls {
		if r.Prologue[fn] && !r.Detach[fn] {
			fns = append(fns, d)
		}
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Pos() < fns[j].Pos() })
	for _, n := range fns {
		lit, recv := asLit(n)
		loop, p := r.callbackRange(lit)
		o := &workerOwnership{vars: map[*types.Var]bool{}, until: map[*types.Var]token.Pos{}}
		r.ownedVars(&Fork{Body: lit, Items: loop}, o, nil)
		// What the callback allocates and never lets go is its own in any
		// case: each call makes its own, which only that call reaches.
		for v := range o.vars {
			if _, handed := o.until[v]; !handed {
				r.callbackOwned[v] = true
			}
		}
		if loop == nil {
			continue
		}
		if why := r.workerState(lit, recv, loop, p, o); why != "" {
			r.Notes = append(r.Notes, Note{Pos: loop.Pos(), Callee: true, Coarse: true,
				Msg: "each receive from " + p.Name() + " as a work item of its own: " + why + "; the range runs as one block per worker"})
			continue
		}
		r.callbackLoops[n] = loop
	}
}

// CallbackOwned reports whether v, a variable of a function or literal
// with a prologue, holds only memory its call allocates and never lets
// go: its accesses are private.
func (r *Result) CallbackOwned(v *types.Var) bool { return r.callbackOwned[v] }

// asLit is n, a literal or a declaration, as a literal (its type and body)
// with the declaration's receiver.
func asLit(n ast.Node) (*ast.FuncLit, *ast.FieldList) {
	if d, ok := n.(*ast.FuncDecl); ok {
		return &ast.FuncLit{Type: d.Type, Body: d.Body}, d.Recv
	}
	return n.(*ast.FuncLit), nil
}

// CallbackItems is the range of the callback lit whose receives start work
// items when its goroutine drains the channel (ItemOf), or nil.
func (r *Result) CallbackItems(lit *ast.FuncLit) *ast.RangeStmt {
	return r.callbackLoops[lit]
}

// CallbackItemsDecl is CallbackItems of a function or method, whose
// checked clone takes the items.
func (r *Result) CallbackItemsDecl(fd *ast.FuncDecl) *ast.RangeStmt {
	return r.callbackLoops[fd]
}

// callbackRange is lit's range over its one parameter p, a channel never
// written, at the top level of its body; or nil.
func (r *Result) callbackRange(lit *ast.FuncLit) (*ast.RangeStmt, *types.Var) {
	info := r.finder.info
	ps := lit.Type.Params.List
	if len(ps) != 1 || len(ps[0].Names) != 1 {
		return nil, nil
	}
	p, _ := info.Defs[ps[0].Names[0]].(*types.Var)
	if p == nil || !isChan(p.Type()) {
		return nil, nil
	}
	if w := r.writes[p]; w != nil && (len(w.at) > 0 || w.elsewhere) {
		return nil, nil // ItemOf(p) must name the channel the range receives from
	}
	for _, s := range lit.Body.List {
		if rs, ok := s.(*ast.RangeStmt); ok {
			if id, ok := ast.Unparen(rs.X).(*ast.Ident); ok && info.Uses[id] == p && !names(rs.Key, p) && !names(rs.Value, p) {
				return rs, p // (ItemOf(p) in the body must not see a loop variable named p)
			}
		}
	}
	return nil, nil
}

// workerState says why a variable lit keeps across the items of loop could
// be checked per item (a false report between two items of one worker), or
// "": every variable of lit declared outside loop and used inside it is
// free of pointers and private, or owned (o).
func (r *Result) workerState(lit *ast.FuncLit, recv *ast.FieldList, loop *ast.RangeStmt, p *types.Var, o *workerOwnership) string {
	info := r.finder.info
	// A pointer receiver is bound by the caller, as a capture is; a value
	// receiver is the call's own copy, a variable like the others.
	isRecv := map[*types.Var]bool{}
	if recv != nil {
		for _, f := range recv.List {
			for _, id := range f.Names {
				if v, ok := info.Defs[id].(*types.Var); ok && isPtr(v.Type()) {
					isRecv[v] = true
				}
			}
		}
	}
	why := ""
	ast.Inspect(loop.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || why != "" {
			return why == ""
		}
		v, _ := info.Uses[id].(*types.Var)
		if v == nil || v.IsField() || !within(v.Pos(), lit) || within(v.Pos(), loop) || isRecv[v] {
			return true
		}
		switch {
		case v == p:
			// the channel itself: a receive from it is one more item
		case r.Shared[v]:
			why = v.Name() + ", declared before the range, is captured or its address taken"
		case o.vars[v]:
			if _, handed := o.until[v]; handed {
				why = v.Name() + ", made before the range, is handed over after it"
			}
		case !pointerFree(v.Type()):
			why = v.Name() + ", declared before the range, may reach memory kept across items that is not proven the worker's (only fresh memory, only indexed, never passed on, is)"
		}
		return why == ""
	})
	return why
}

// Drains is the channel that fork fk's goroutine hands to a function
// value, the pool's work channel (see findCallbackItems), or nil.
func (r *Result) Drains(fk *Fork) *ast.Ident {
	c := fk.Construct
	if c == nil || c.Kind != Loop || len(c.Forks) != 1 || fk.Body == nil || fk.ItemLoop() != nil || fk.Producer {
		return nil
	}
	info := r.finder.info
	for _, s := range fk.Body.Body.List {
		es, ok := s.(*ast.ExprStmt)
		if !ok {
			if !straight(s) {
				return nil // some worker might not reach the call: its items would be one goroutine's
			}
			continue
		}
		call, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
			continue
		}
		fn, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			continue
		}
		fv, _ := info.Uses[fn].(*types.Var)
		ch, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
		if !ok || fv == nil {
			continue
		}
		cv, _ := info.Uses[ch].(*types.Var)
		if cv == nil || !isChan(cv.Type()) || within(cv.Pos(), fk.Body) || within(fv.Pos(), fk.Body) {
			continue
		}
		// One function on one channel for every worker: neither is written
		// while the construct runs (nor anywhere but by their function),
		// and the channel was closed before it, so no one sends meanwhile.
		if r.ReadOnly(fv, c) && r.ReadOnly(cv, c) && r.finder.closedBefore(c.List[:c.First], ch) {
			return ch
		}
		if !straight(s) {
			return nil
		}
	}
	return nil
}

// straight reports whether the statement s, before a worker's call of the
// callback, always lets the worker go on to it (unless it panics): a
// defer, an assignment, a declaration or an expression.
func straight(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.DeferStmt, *ast.AssignStmt, *ast.DeclStmt, *ast.ExprStmt, *ast.IncDecStmt, *ast.EmptyStmt:
		return true
	}
	return false
}

// names reports whether e is an identifier spelled as v's name.
func names(e ast.Expr, v *types.Var) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == v.Name()
}
