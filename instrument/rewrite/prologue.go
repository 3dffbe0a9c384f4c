package rewrite

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// A function that may be called through a value (analysis.Result.Prologue)
// begins with a prologue that runs its checked clone when the calling
// goroutine is attached to a task (a construct's goroutine, see
// analysis/dynamic.go):
//
//	func (s *S) M(x int, ys ...int) (n int) {
//		if _ga_rt.Attached() {
//			if _ga_t := _ga_rt.Current(); _ga_t != nil {
//				return s.M_ga_(_ga_t, x, ys...)
//			}
//		}
//		… as written …
//	}
//
// A function literal has no clone to call; it runs a checked copy of its
// body nested in itself, which keeps its captures, labels, named results
// and defers:
//
//	func(i int) (err error) {
//		if _ga_rt.Attached() {
//			if _ga_d := _ga_rt.Current(); _ga_d != nil {
//				return func(_ga_d *_ga_rt.Task) (err error) { … checked … }(_ga_d)
//			}
//		}
//		… as written …
//	}
//
// Attached is the gate (rt/current.go): one load and a branch while no
// goroutine is attached anywhere, which is always the case in a dormant
// binary with checks off and outside constructs in a checked one. It is
// false only when Current would return nil, so the gate changes no
// decision; it saves the compiler's making a nil and testing it.
//
// A function whose checked copy makes no check and calls no clone gets no
// prologue (sameAsPlain): the prologue would choose between two copies of
// the same code, and it costs a small function its frame. A leaf called
// through a value (a comparator, a pixel op, bench/callbacks' xorshift)
// had no frame and no stack check; with the prologue's call it has both,
// which is what a dormant binary with checks off paid per call.

// sameAsPlain reports whether body, a checked clone's or copy's body after
// rewriting, is the plain body again: every name the rewrite introduces
// (the task, a check, a construct, a clone or its call, a temporary) starts
// with _ga_, and body names none.
func sameAsPlain(body *dst.BlockStmt) bool {
	same := true
	dst.Inspect(body, func(n dst.Node) bool {
		if id, ok := n.(*dst.Ident); ok && strings.HasPrefix(id.Name, "_ga_") {
			same = false
		}
		return same
	})
	return same
}

// prologue puts the prologue at the start of d, the declaration of fd,
// whose body was rewritten (plain) by w.
func (w *walker) prologue(d *dst.FuncDecl, fd *ast.FuncDecl) {
	args := []dst.Expr{dst.NewIdent("_ga_t")}
	var fun dst.Expr = dst.NewIdent(cloneName(fd.Name.Name))
	if d.Recv != nil {
		recv := nameFields(d.Recv, "_ga_r")
		fun = &dst.SelectorExpr{X: dst.NewIdent(recv[0]), Sel: dst.NewIdent(cloneName(fd.Name.Name))}
	}
	if tp := d.Type.TypeParams; tp != nil {
		var targs []dst.Expr
		for _, f := range tp.List {
			for _, n := range f.Names {
				targs = append(targs, dst.NewIdent(n.Name))
			}
		}
		fun = &dst.IndexListExpr{X: fun, Indices: targs}
	}
	for _, n := range nameFields(d.Type.Params, "_ga_p") {
		args = append(args, dst.NewIdent(n))
	}
	call := &dst.CallExpr{Fun: fun, Args: args, Ellipsis: fd.Type.Params != nil && isVariadic(fd.Type.Params)}
	d.Body.List = append([]dst.Stmt{w.ifAttached("_ga_t", call, fd.Type.Results != nil && len(fd.Type.Results.List) > 0, fd.Type.Func)}, d.Body.List...)
	w.change()
}

// ifAttached is the prologue's statement: if _ga_rt.Attached() { if name
// := _ga_rt.Current(); name != nil { return call } } (or call; return),
// anchored to pos's line.
func (w *walker) ifAttached(name string, call dst.Expr, results bool, pos token.Pos) dst.Stmt {
	var body []dst.Stmt
	if results {
		body = []dst.Stmt{&dst.ReturnStmt{Results: []dst.Expr{call}}}
	} else {
		body = []dst.Stmt{&dst.ExprStmt{X: call}, &dst.ReturnStmt{}}
	}
	s := &dst.IfStmt{
		Init: &dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(name)}, Tok: token.DEFINE, Rhs: []dst.Expr{w.rtCall(rtnames.Current)}},
		Cond: &dst.BinaryExpr{X: dst.NewIdent(name), Op: token.NEQ, Y: dst.NewIdent("nil")},
		Body: &dst.BlockStmt{List: body},
	}
	return w.gated(s, pos)
}

// gated wraps s, a prologue's test of Current, in the gate
// if _ga_rt.Attached() { s }, anchored to pos's line.
func (w *walker) gated(s dst.Stmt, pos token.Pos) dst.Stmt {
	g := &dst.IfStmt{Cond: w.rtCall(rtnames.Attached), Body: &dst.BlockStmt{List: []dst.Stmt{s}}}
	p := w.pkg.Fset.Position(pos)
	g.Decs.Before = dst.NewLine
	g.Decs.Start.Append(lineDirective(p, true))
	return g
}

// nameFields gives every unnamed or blank parameter of l a name (prefix
// and its index), so a prologue can pass it on, and returns the names.
func nameFields(l *dst.FieldList, prefix string) []string {
	var names []string
	if l == nil {
		return nil
	}
	for i, f := range l.List {
		if len(f.Names) == 0 {
			f.Names = []*dst.Ident{dst.NewIdent(prefix + itoa(i))}
		}
		for j, n := range f.Names {
			if n.Name == "_" {
				n.Name = prefix + itoa(i) + "_" + itoa(j)
			}
			names = append(names, n.Name)
		}
	}
	return names
}

func isVariadic(l *ast.FieldList) bool {
	if len(l.List) == 0 {
		return false
	}
	_, ok := l.List[len(l.List)-1].Type.(*ast.Ellipsis)
	return ok
}

// dynLit rewrites a function literal that may be called through its value:
// its body as written (plain: it may run outside any construct), after a
// prologue that runs a checked copy when the goroutine has a task.
func (w *walker) dynLit(x *dst.FuncLit, a *ast.FuncLit) {
	copyBody := w.cloneMapped(x.Body).(*dst.BlockStmt)
	if sp := w.specialization(a); sp != nil && w.res.ValueWorker(a) == nil {
		prunedBody := w.cloneMapped(x.Body).(*dst.BlockStmt)
		w.plainLit(x)
		w.specLit(x, a, sp, copyBody, prunedBody)
		return
	}
	spec := w.callbackReads(a)
	var guardedBody *dst.BlockStmt
	if spec != nil && len(spec.Guard) > 0 {
		guardedBody = w.cloneMapped(x.Body).(*dst.BlockStmt) // its items' writes, proven under the guard
	}
	w.plainLit(x)
	// vet counts the copy's checks among the code constructs call only when
	// the literal is made in checked code; one made in plain code (passed to
	// a helper that forks) is counted nowhere.
	// A construct's worker held in a variable (analysis/taskvar.go) is
	// counted where its function is written as it is, once.
	fk := w.res.ValueWorker(a)
	checked := func(body *dst.BlockStmt, guarded bool) []dst.Stmt {
		v := w.with("_ga_d")
		v.inClone, v.cur, v.outer, v.coal = true, nil, nil, nil
		v.silent = w.silent || w.task == "" && fk == nil || w.inClone && fk != nil
		v.spec, v.guarded = spec, guarded
		v.block(body)
		if fk != nil {
			v.itemBlocks(body, "_ga_d", fk) // a pool's item loop: a block per item
		} else {
			v.callbackItems(body, "_ga_d", a) // a block per item if its goroutine drains the channel
		}
		// The copy's marks of its parameters as fresh memory are part of it:
		// a parameter whose address the copy hands to a call through a value
		// (h(&a)) names nothing _ga_ in the copy, but the callee's checked
		// accesses of it need the memory marked as this task's, or memory a
		// finished sibling's parameter held reports a race.
		return v.freshFields(a.Type.Params, a.Type.Results)
	}
	fresh := checked(copyBody, false)
	if len(fresh) == 0 && sameAsPlain(copyBody) {
		return // the copy would be the body again: no prologue
	}
	copyBody.List = append(fresh, copyBody.List...)
	results := a.Type.Results != nil && len(a.Type.Results.List) > 0
	run := func(body *dst.BlockStmt) dst.Expr {
		ft := &dst.FuncType{Func: true, Params: &dst.FieldList{List: []*dst.Field{taskParam("_ga_d")}}}
		if x.Type.Results != nil {
			ft.Results = dst.Clone(x.Type.Results).(*dst.FieldList)
		}
		return &dst.CallExpr{Fun: &dst.FuncLit{Type: ft, Body: body}, Args: []dst.Expr{dst.NewIdent("_ga_d")}}
	}
	pro := w.ifAttached("_ga_d", run(copyBody), results, a.Type.Func)
	if guardedBody != nil {
		guardedBody.List = append(checked(guardedBody, true), guardedBody.List...)
		w.guardFirst(pro, run(guardedBody), spec.Guard, results)
	}
	x.Body.List = append([]dst.Stmt{pro}, x.Body.List...)
	w.change()
}

// guardFirst puts, first in the body of the prologue pro (an Attached
// gate around the test of Current, ifAttached's), the run of the copy
// proven under guard when the guard holds, evaluated by the first block
// of the helper's construct instance and read by the others (rt.GuardMemo,
// as specLit's):
//
//	if _ga_m := _ga_rt.GuardMemo(_ga_d); _ga_m > 0 || _ga_m < 0 && _ga_rt.GuardStore(_ga_d, guard) {
//		return func(_ga_d *_ga_rt.Task) { … proven … }(_ga_d)
//	}
func (w *walker) guardFirst(pro dst.Stmt, call dst.Expr, guard []analysis.GuardSpan, results bool) {
	inner := pro.(*dst.IfStmt).Body.List[0].(*dst.IfStmt) // if _ga_d := Current(); _ga_d != nil { … }
	var body []dst.Stmt
	if results {
		body = []dst.Stmt{&dst.ReturnStmt{Results: []dst.Expr{call}}}
	} else {
		body = []dst.Stmt{&dst.ExprStmt{X: call}, &dst.ReturnStmt{}}
	}
	inner.Body.List = append([]dst.Stmt{w.memoGuard(guard, body)}, inner.Body.List...)
}

// detachFirst puts at the start of body the prologue of a function that
// may be called through a value but must run as written (it calls recover
// or synchronizes, see analysis.Result.Detach): its goroutine is detached
// until it returns, so what it reaches runs as written too, and a lock it
// takes untracked never leaves checked accesses looking unordered:
//
//	if _ga_rt.Attached() {
//		if _ga_t := _ga_rt.Current(); _ga_t != nil { _ga_rt.Detach(); defer _ga_rt.Attach(_ga_t) }
//	}
//
// It adds no frame, so a recover in the body still works (the defer runs
// when the function returns: an if block is not a frame).
func (w *walker) detachFirst(body *dst.BlockStmt, pos token.Pos) {
	rt := func(name string, args ...dst.Expr) *dst.CallExpr { return w.rtCall(name, args...) }
	s := &dst.IfStmt{
		Init: &dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent("_ga_t")}, Tok: token.DEFINE, Rhs: []dst.Expr{rt(rtnames.Current)}},
		Cond: &dst.BinaryExpr{X: dst.NewIdent("_ga_t"), Op: token.NEQ, Y: dst.NewIdent("nil")},
		Body: &dst.BlockStmt{List: []dst.Stmt{
			&dst.ExprStmt{X: rt(rtnames.Detach)},
			&dst.DeferStmt{Call: rt(rtnames.Attach, dst.NewIdent("_ga_t"))},
		}},
	}
	body.List = append([]dst.Stmt{w.gated(s, pos)}, body.List...)
	w.change()
}
