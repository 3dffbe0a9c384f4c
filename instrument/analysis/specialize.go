package analysis

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// This file proves callbacks with the construct that runs them. Numeric Go
// hands its loop bodies to a helper that forks:
//
//	func rows(from, to, bs int, body func(lo, hi int)) {
//		var g errgroup.Group
//		for lo := from; lo < to; lo += bs {
//			g.Go(func() error { body(lo, min(lo+bs, to)); return nil })
//		}
//		g.Wait()
//	}
//	…
//	rows(1, nx, bs, func(lo, hi int) { … ey[i*ny+j] … })
//
// The literal is a function value, so it runs with a prologue and, on its
// own, fully checked: nothing says who calls it. But when the helper's
// parameter is used once, as the callee of a call in the goroutine body of
// the helper's one construct, and the literal is passed straight to the
// helper, the literal runs only as (a part of) that construct's blocks. The
// call site is in a function declaration's plain body, so the helper that
// runs is the plain one, whose construct always begins a root tree (its
// parent task is nil). The literal's accesses are then proven as the
// construct's body, by the heap pass of the helper's construct walking the
// literal in place where the goroutine calls the parameter, its parameters
// bound to the call's arguments and the helper's parameters to the call
// site's.
//
// The guard, when the proof needs one, is evaluated by the literal at its
// start, each time a block calls it: every name in it must denote, there,
// a local of the calling function that nothing writes while the helper
// runs (the caller is suspended in the call; a closure's write or a taken
// address makes the local not read-only), a constant or a predeclared
// name. So every block computes the same verdict, the one the construct's
// start would.

// Specialization is the proof of a literal's accesses as the body of the
// construct its helper runs it in.
type Specialization struct {
	Helper *Construct // the helper's construct, whose blocks call the literal
	Proof  *HeapProof // the literal's verdicts; its guard is evaluated at the literal's start
}

// specSite is a literal passed straight to a helper: the call, the
// calling function declaration, the helper's parameter and construct.
type specSite struct {
	lit    *ast.FuncLit
	call   *ast.CallExpr
	caller *ast.FuncDecl
	helper *ast.FuncDecl
	param  *types.Var // the helper's parameter the literal is bound to
	c      *Construct
}

// Specialized returns the proof of lit as the body of the construct of the
// helper it is passed to, or nil when lit is no such callback or nothing
// could be proven.
func (r *Result) Specialized(lit *ast.FuncLit) *Specialization {
	if r.specs == nil {
		r.specs = map[*ast.FuncLit]*Specialization{}
		for _, s := range r.specSites() {
			r.specs[s.lit] = r.specialize(s)
		}
	}
	return r.specs[lit]
}

// specSites lists the literals passed straight to a helper of the package
// from a function declaration's own body (not from a literal in it), in a
// call that runs there and then: not the call of a go or defer statement.
// Such a call binds the helper's parameters to the arguments' values at
// the statement, but the helper runs later (at the return, or beside the
// caller), when the caller may have written the locals the guard names
// since: the guard, evaluated at the literal's start, would then test
// other values than the helper's (a hull dst[0:n+9] passing with a
// smaller n while the helper's loop runs to the old one).
func (r *Result) specSites() []*specSite {
	info := r.finder.info
	var out []*specSite
	for _, file := range r.finder.files {
		for _, d := range file.Decls {
			caller, ok := d.(*ast.FuncDecl)
			if !ok || caller.Body == nil {
				continue
			}
			later := map[*ast.CallExpr]bool{} // calls of go and defer statements
			ast.Inspect(caller.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.GoStmt:
					later[x.Call] = true
				case *ast.DeferStmt:
					later[x.Call] = true
				}
				call, ok := n.(*ast.CallExpr)
				if !ok || call.Ellipsis.IsValid() || later[call] {
					return true
				}
				fn := Callee(info, call.Fun)
				if fn == nil || fn.Pkg() != r.finder.pkg {
					return true
				}
				for k, a := range call.Args {
					lit, ok := ast.Unparen(a).(*ast.FuncLit)
					if !ok {
						continue
					}
					if s := r.helperSite(fn, k); s != nil {
						s.lit, s.call, s.caller = lit, call, caller
						out = append(out, s)
					}
				}
				return true
			})
		}
	}
	return out
}

// helperSite returns, for the k-th parameter of fn, the helper's
// construct that is its only user, or nil: fn is a function or method of
// this package (no type parameters, not variadic, never called through a
// value) with one construct, a
// parallel loop in its own body, and the parameter, never assigned, is
// named once, as the callee of a call in the construct's goroutine
// literal. A method's receiver is not bound to the call's: the proof
// reads it as any parameter the helper never assigns, an invariant it
// knows nothing of, and a guard that names it cannot be evaluated at the
// literal's start, so it refuses.
func (r *Result) helperSite(fn *types.Func, k int) *specSite {
	d := r.Decls[fn]
	if d == nil || d.Type.TypeParams != nil || fn.Origin() != fn || d.Recv != nil && !r.unassignedRecv(d) {
		return nil
	}
	if r.Prologue[fn] {
		// Called through a value, the helper jumps to its clone whenever
		// its goroutine has a task, also from a plain body that runs on an
		// attached goroutine (a function that cannot be cloned, called from
		// a construct): its construct is then nested in the caller's tree,
		// whose other blocks the proof does not see.
		return nil
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Variadic() || k >= sig.Params().Len() {
		return nil
	}
	ps := params(d.Type.Params, r.finder.info)
	if k >= len(ps) || ps[k] == nil {
		return nil
	}
	p := ps[k]
	if w := r.writes[p]; w != nil && (w.elsewhere || len(w.at) > 0) {
		return nil
	}
	var c *Construct
	for _, x := range r.Constructs {
		if within(x.List[x.First].Pos(), d) {
			if c != nil {
				return nil // two constructs: which one calls it is not one question
			}
			c = x
		}
	}
	if c == nil || r.enclosingFuncLit(c.List[c.First]) != nil {
		return nil
	}
	fk := onlyFork(c)
	if fk == nil || fk.Body == nil {
		return nil
	}
	uses := 0
	called := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			if r.finder.info.Uses[x] == p {
				uses++
			}
		case *ast.CallExpr:
			if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && r.finder.info.Uses[id] == p && within(x.Pos(), fk.Body) && !x.Ellipsis.IsValid() {
				called = true
			}
		}
		return true
	})
	if uses != 1 || !called {
		return nil
	}
	return &specSite{helper: d, param: p, c: c}
}

// specialize runs the heap pass of the helper's construct with the literal
// walked in place, and keeps the proof when its guard can be evaluated at
// the literal's start.
func (r *Result) specialize(s *specSite) *Specialization {
	if !selfContained(s.lit.Body, r.finder.info) {
		return nil
	}
	h, p, _ := heapRounds(func() (*heapPass, string) {
		h, why := r.newHeapPass(s.c)
		if h == nil {
			return nil, why
		}
		h.spec = s
		h.collectDefs(s.caller)
		sig, _ := r.finder.info.TypeOf(s.call.Fun).(*types.Signature)
		hps := params(s.helper.Type.Params, h.info)
		if sig == nil || len(hps) != len(s.call.Args) {
			return nil, "the call does not match the helper's parameters"
		}
		for k, v := range hps {
			arg := ast.Unparen(s.call.Args[k])
			if v == nil || v == s.param || !h.immutable(v) || !pure(arg, h.info) || !h.localsOnly(arg) {
				continue
			}
			h.bind[v] = arg
		}
		h.recordLoops(s.lit.Body) // its loops count as the goroutine's
		return h, ""
	})
	if p == nil || !h.specWalked {
		return nil
	}
	for _, g := range p.Guard {
		exprs := []ast.Expr{g.Cond}
		if g.Cond == nil {
			exprs = []ast.Expr{g.Path, g.Sel, g.Lo, g.Hi}
		}
		for _, e := range exprs {
			if e != nil && !h.evaluableAtLit(e) {
				return nil
			}
		}
	}
	// Only the literal's own verdicts are the specialization's.
	for e := range p.verdicts {
		if !within(e.Pos(), s.lit.Body) {
			delete(p.verdicts, e)
		}
	}
	for c := range p.calls {
		if !within(c.Pos(), s.lit.Body) {
			delete(p.calls, c)
		}
	}
	if len(p.verdicts) == 0 && len(p.calls) == 0 {
		return nil
	}
	return &Specialization{Helper: s.c, Proof: p}
}

// bindLit walks the literal in place of call, the goroutine body's call
// of the helper's parameter, its parameters bound to the call's
// arguments, as bindCall walks a callee. It reports whether it did.
func (h *heapPass) bindLit(call *ast.CallExpr, emit func(access)) bool {
	s := h.spec
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if s == nil || !ok || h.info.Uses[id] != s.param || h.specWalked {
		return false
	}
	ps := params(s.lit.Type.Params, h.info)
	if len(ps) != len(call.Args) {
		return false
	}
	for k, v := range ps {
		if v == nil {
			continue
		}
		if !h.immutable(v) || !pure(call.Args[k], h.info) {
			return false
		}
		h.bind[v] = call.Args[k]
	}
	h.inCallee = append(h.inCallee, s.lit)
	cw := &accessWalker{r: h.r, info: h.info, emit: emit}
	cw.inPlace = func(call *ast.CallExpr, fn *types.Func) bool { return h.bindCall(call, fn, cw.emit) }
	cw.callees = func(*types.Func) { cw.fail("calls a function it cannot walk in place") }
	cw.lits = func(*ast.FuncLit) { cw.fail("has a function literal") }
	cw.walk(s.lit.Body)
	if cw.opaque != "" {
		return false
	}
	h.specWalked = true
	return true
}

// specVisible reports whether the local v may be named in a guard the
// literal evaluates at its start: a local of the calling function (not of
// the literal), declared before the call, that nothing writes while the
// helper runs, and that its name denotes at the literal's start.
func (h *heapPass) specVisible(v *types.Var) bool {
	s := h.spec
	if !within(v.Pos(), s.caller) || within(v.Pos(), s.lit) || v.Pos() >= s.call.Pos() || !h.r.ReadOnly(v, h.c) {
		return false
	}
	return h.lookupAtLit(v.Name()) == types.Object(v)
}

// lookupAtLit is the object name denotes at the start of the literal's
// body, or nil.
func (h *heapPass) lookupAtLit(name string) types.Object {
	at := h.spec.lit.Body.Lbrace + 1
	scope := h.r.finder.pkg.Scope().Innermost(at)
	if scope == nil {
		return nil
	}
	_, obj := scope.LookupParent(name, at)
	return obj
}

// evaluableAtLit reports whether every name in e denotes at the literal's
// start what the guard means: a local specVisible allows, a constant, a
// type or a builtin. A name the proof made (atStart's) has no object of
// its own; the name's object at the literal's start must then be one of
// those.
func (h *heapPass) evaluableAtLit(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			sel := h.info.Selections[x]
			if _, isVar := h.info.Uses[x.Sel].(*types.Var); isVar && sel == nil {
				ok = false // another package's variable: anything may write it
				return false
			}
			if sel != nil && (sel.Indirect() || isPtr(h.info.TypeOf(x.X))) {
				ok = false // through a pointer: memory the helper's own statements may write first
				return false
			}
			ast.Inspect(x.X, func(m ast.Node) bool { // the field name is not looked up
				if id, isID := m.(*ast.Ident); isID && !h.nameAtLit(id) {
					ok = false
				}
				return ok
			})
			return false
		case *ast.StarExpr:
			ok = false // memory the helper's own statements may write first
		case *ast.Ident:
			ok = ok && h.nameAtLit(x)
		}
		return ok
	})
	return ok
}

// nameAtLit is evaluableAtLit for one name.
func (h *heapPass) nameAtLit(id *ast.Ident) bool {
	obj := h.info.Uses[id]
	at := h.lookupAtLit(id.Name)
	if obj != nil && at != obj {
		return false
	}
	if u := types.Universe.Lookup(id.Name); obj == nil && u != nil && at != u {
		return false // a builtin the proof named (min, len, int): a caller's local of that name hides it
	}
	switch o := at.(type) {
	case *types.Var:
		return !o.IsField() && h.specVisible(o)
	case *types.Const, *types.TypeName, *types.Builtin, *types.Nil:
		return true
	}
	return false
}

// Proven counts the literal's accesses the proof leaves unchecked, by
// verdict.
func (s *Specialization) Proven() (independent, readOnly int) {
	for _, v := range s.Proof.verdicts {
		if v.Independent {
			independent++
		} else {
			readOnly++
		}
	}
	return independent, readOnly
}

// reportSpecialized reports, for -decisions, each callback proven as the
// body of its helper's construct, with what its guard assumes.
func reportSpecialized(pass *analysis.Pass, res *Result) {
	for _, file := range pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.FuncLit)
			if !ok {
				return true
			}
			s := res.Specialized(lit)
			if s == nil {
				return true
			}
			ind, ro := s.Proven()
			var when []string
			for _, g := range s.Proof.Guard {
				when = append(when, g.What())
			}
			msg := fmt.Sprintf("callback: runs only in the blocks of the %s at line %d: %d independent, %d read-only",
				s.Helper.Kind, pass.Fset.Position(s.Helper.List[s.Helper.First].Pos()).Line, ind, ro)
			if len(when) > 0 {
				msg += " (when " + strings.Join(when, "; ") + ")"
			}
			pass.Reportf(lit.Pos(), "%s", msg)
			return true
		})
	}
}

// localsOnly reports whether e reads no memory but the calling function's
// locals: the helper's own statements, which run before its construct,
// cannot change its value then, so a helper's parameter bound to it keeps
// it (a field or element could be written by them first).
func (h *heapPass) localsOnly(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr, *ast.StarExpr, *ast.IndexExpr, *ast.IndexListExpr:
			ok = false
		case *ast.Ident:
			if v, isVar := h.info.Uses[x].(*types.Var); isVar && !within(v.Pos(), h.spec.caller) {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// unassignedRecv reports whether the method d never assigns its receiver
// (a pointer receiver's target may change; the pointer may not).
func (r *Result) unassignedRecv(d *ast.FuncDecl) bool {
	v := declared(d.Recv, r.finder.info)
	if v == nil {
		return len(d.Recv.List) == 1 && len(d.Recv.List[0].Names) == 0 // unnamed: nothing can assign it
	}
	w := r.writes[v]
	return w == nil || !w.elsewhere && len(w.at) == 0
}
