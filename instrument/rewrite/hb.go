package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/plan"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// The -hb rewrite (Config.HB; issue 13, phase 1). Code outside the
// constructs is checked by happens-before between goroutines (rt/api_hb.go):
//
//   - every function and function literal of the package begins with its
//     goroutine's thread, _ga_hb := _ga_rt.HB() (main and test functions:
//     _ga_hb := _ga_rt.HBRoot(); defer _ga_hb.EndRoot()), and its shared
//     accesses are checked with it as construct code is with its task;
//   - a go statement hands the parent's clock to the child:
//     go func(_ga_s *_ga_rt.Spawn, …) { _ga_hb := _ga_s.Start(); defer _ga_hb.Exit(); … }(_ga_hb.Go(), …)
//     or, for a named function, go _ga_rt.Spawned(_ga_hb.Go(), f)(…);
//   - channel operations, WaitGroup, Cond, Once and sync.Map calls get their
//     hooks (mutexes and atomics already have theirs);
//   - a statement that calls code that is not rewritten and may
//     synchronize is preceded by _ga_hb.Foreign().
//
// In construct code the same hooks are made with the construct's task: rt
// applies them to the clock of the thread that entered the construct.

// hbTask is the name of a function's thread task in an -hb build.
const hbTask = "_ga_hb"

// hbSpawnParam is the parameter a go statement's literal gets its parent's
// clock in.
const hbSpawnParam = "_ga_s"

// hooks reports whether synchronization is hooked here: an -hb build, in
// code that has a task.
func (w *walker) hooks() bool { return w.cfg.HB && w.task != "" }

// hbShared reports whether v, a local variable, may be reached by two
// goroutines outside constructs: a function literal captures it or its
// address is taken. Other locals stay in their goroutine.
func (w *walker) hbShared(v *types.Var) bool {
	if w.task != hbTask {
		return false
	}
	if w.fileRewriter.hbVars == nil {
		w.fileRewriter.hbVars = hbSharedVars(w.astFile, w.info)
	}
	return w.fileRewriter.hbVars[v]
}

// hbSharedVars finds the local variables of f that a function literal
// captures or whose address is taken.
func hbSharedVars(f *ast.File, info *types.Info) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	local := func(id *ast.Ident) *types.Var {
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
			return nil
		}
		return v
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			ast.Inspect(x.Body, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok {
					if v := local(id); v != nil && (v.Pos() < x.Pos() || v.Pos() >= x.End()) {
						out[v] = true
					}
				}
				return true
			})
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				if id := addrRoot(x.X, info); id != nil {
					if v := local(id); v != nil {
						out[v] = true
					}
				}
			}
		case *ast.SliceExpr:
			if _, isArray := underlying(info.TypeOf(x.X)).(*types.Array); isArray {
				if id := addrRoot(x.X, info); id != nil {
					if v := local(id); v != nil {
						out[v] = true
					}
				}
			}
		case *ast.SelectorExpr:
			// x.m() with a pointer method on an addressable x takes &x.
			if s := info.Selections[x]; s != nil && s.Kind() == types.MethodVal && !isPointer(info.TypeOf(x.X)) {
				if sig, ok := s.Obj().Type().(*types.Signature); ok && sig.Recv() != nil && isPointer(sig.Recv().Type()) {
					if id := addrRoot(x.X, info); id != nil {
						if v := local(id); v != nil {
							out[v] = true
						}
					}
				}
			}
		}
		return true
	})
	return out
}

// addrRoot returns the variable whose memory &e points into: v of &v,
// &v.f, &v[i] with v an array; nil when e goes through a pointer, a slice
// or a map (then the memory is not the variable's).
func addrRoot(e ast.Expr, info *types.Info) *ast.Ident {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		if s := info.Selections[x]; s != nil && s.Kind() == types.FieldVal && !s.Indirect() && !isPointer(info.TypeOf(x.X)) {
			return addrRoot(x.X, info)
		}
	case *ast.IndexExpr:
		if _, isArray := underlying(info.TypeOf(x.X)).(*types.Array); isArray {
			return addrRoot(x.X, info)
		}
	case *ast.CompositeLit:
		return nil
	}
	return nil
}

// hbEntry begins a function's body with its thread: HBRoot for main and
// test functions, else HB when the body checks anything, and the New of
// its shared parameters.
func (w *walker) hbEntry(body *dst.BlockStmt, root bool, fields ...*ast.FieldList) {
	fresh := w.freshFields(fields...)
	body.List = append(fresh, body.List...)
	var pre []dst.Stmt
	switch {
	case root:
		pre = []dst.Stmt{
			hbDefine(w.rtCall(rtnames.HBRoot)),
			&dst.DeferStmt{Call: &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(hbTask), Sel: dst.NewIdent(rtnames.EndRoot)}}},
		}
	case hbUses(body, hbTask):
		pre = []dst.Stmt{hbDefine(w.rtCall(rtnames.HB))}
	default:
		return
	}
	w.change()
	body.List = append(pre, body.List...)
}

// hbDefine is _ga_hb := e.
func hbDefine(e dst.Expr) dst.Stmt {
	return &dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(hbTask)}, Tok: token.DEFINE, Rhs: []dst.Expr{e}}
}

// hbUses reports whether body names the task name outside the function
// literals that declare their own.
func hbUses(body *dst.BlockStmt, name string) bool {
	found := false
	dst.Inspect(body, func(n dst.Node) bool {
		switch x := n.(type) {
		case *dst.FuncLit:
			if declaresFirst(x.Body, name) {
				return false
			}
		case *dst.Ident:
			found = found || x.Name == name
		}
		return !found
	})
	return found
}

// declaresFirst reports whether body declares name among its top-level
// statements (the entry statement hbEntry or hbGo put there, after the
// prologue of a literal called through its value, if it has one).
func declaresFirst(body *dst.BlockStmt, name string) bool {
	if body == nil {
		return false
	}
	for _, st := range body.List {
		a, ok := st.(*dst.AssignStmt)
		if !ok || a.Tok != token.DEFINE || len(a.Lhs) != 1 {
			continue
		}
		if id, ok := a.Lhs[0].(*dst.Ident); ok && id.Name == name {
			return true
		}
	}
	return false
}

// hbLit rewrites a function literal that is neither a goroutine nor called
// in place: it may run on any goroutine, so it finds its own thread.
func (w *walker) hbLit(x *dst.FuncLit, root bool) {
	v := w.with(hbTask)
	v.block(x.Body)
	a, ok := w.astOf(x).(*ast.FuncLit)
	if !ok {
		return
	}
	// A callback code that is not rewritten runs, on the caller's goroutine
	// (sync.OnceFunc, singleflight.Do) or on one of its own (a worker
	// pool's Submit, an http handler), which is no thread, is a root:
	// HBRoot makes that goroutine a thread for the call, after G, which
	// holds what the caller did before it passed the callback (its
	// Foreign), and EndRoot releases what the callback did to G when it
	// returns, which that code's waiters acquire (testdata/review19/wpuser:
	// a race between two tasks of gammazero/workerpool was missed, the
	// tasks unchecked). On a thread, HBRoot returns the thread and EndRoot
	// only releases. Also when the literal checks nothing itself but
	// calls (the functions it calls find their thread with HB); one that
	// does neither (a pure comparison given to another module's sort)
	// pays nothing.
	v.hbEntry(x.Body, root, a.Type.Params, a.Type.Results)
	if !w.hbCallbacks[a] || root {
		return
	}
	i := 0
	for i < len(x.Body.List) && !isHBDecl(x.Body.List[i]) {
		i++
	}
	if i == len(x.Body.List) && !callsIn(a.Body) {
		return
	}
	w.change()
	entry := []dst.Stmt{
		hbDefine(w.rtCall(rtnames.HBRoot)),
		&dst.DeferStmt{Call: &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(hbTask), Sel: dst.NewIdent(rtnames.EndRoot)}}},
	}
	if i == len(x.Body.List) {
		x.Body.List = append(entry, x.Body.List...)
		return
	}
	x.Body.List = append(x.Body.List[:i], append(entry, x.Body.List[i+1:]...)...)
}

// isHBDecl reports whether st is _ga_hb := ….
func isHBDecl(st dst.Stmt) bool {
	a, ok := st.(*dst.AssignStmt)
	if !ok || a.Tok != token.DEFINE || len(a.Lhs) != 1 {
		return false
	}
	id, ok := a.Lhs[0].(*dst.Ident)
	return ok && id.Name == hbTask
}

// callsIn reports whether body calls a function (a conversion counts: it
// is cheaper to tell apart where it matters) outside the function
// literals it makes.
func callsIn(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr, *ast.GoStmt:
			found = true
		}
		return !found
	})
	return found
}

// hbCallbacksOf marks the function literals among the arguments of a call
// into code that is not rewritten (hbLit).
//
// Only -hb is asked for, not a task in scope: the literal finds its own
// thread, and a package variable's initializer, which has no task, is
// where sync.OnceFunc and sync.OnceValue are most often called
// (testdata/review19/oncevar: without the release, what the function
// wrote looked racy to every later caller but the first).
func (w *walker) hbCallbacksOf(a *ast.CallExpr) {
	if !w.cfg.HB || !w.foreignCall(a) || hbLaterCallee(analysis.Callee(w.info, a.Fun)) != "" {
		return // a callback hbLaterArg wraps publishes nothing when it returns
	}
	for _, arg := range a.Args {
		if lit, ok := ast.Unparen(arg).(*ast.FuncLit); ok {
			if w.hbCallbacks == nil {
				w.hbCallbacks = map[*ast.FuncLit]bool{}
			}
			w.hbCallbacks[lit] = true
		}
	}
}

// hbConvertedCallback marks a function literal converted to a named
// function type of a package that is not rewritten (http.HandlerFunc(func
// …)) as a callback of that code (hbLit), as one passed to it as an
// argument is: the type's method (ServeHTTP) calls it where that code
// decides, on goroutines of its own (testdata/review19/planted, case
// handler: a race between two requests' handlers was missed).
func (w *walker) hbConvertedCallback(a *ast.CallExpr, t types.Type) {
	if len(a.Args) != 1 {
		return
	}
	lit, ok := ast.Unparen(a.Args[0]).(*ast.FuncLit)
	if !ok {
		return
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return
	}
	if path := n.Obj().Pkg().Path(); w.cfg.hbRewritten[path] || n.Obj().Pkg() == w.pkg.Types {
		return
	}
	if _, isFunc := n.Underlying().(*types.Signature); !isFunc {
		return
	}
	if w.hbCallbacks == nil {
		w.hbCallbacks = map[*ast.FuncLit]bool{}
	}
	w.hbCallbacks[lit] = true
}

// plainLit rewrites a function literal that may run anywhere, outside
// any construct: unchecked, or with its own thread in an -hb build.
func (w *walker) plainLit(x *dst.FuncLit) {
	if w.cfg.HB {
		a, _ := w.astOf(x).(*ast.FuncLit)
		w.hbLit(x, a != nil && w.hbRoots[a]) // a subtest's literal may also be called through its value
		return
	}
	w.funcLit(x, "")
}

// isRoot reports whether the function declared by fd begins a thread of
// its own: main, init, and the functions the testing package runs.
func (fr *fileRewriter) isRoot(fd *ast.FuncDecl) bool {
	if fd.Recv != nil {
		return false
	}
	name := fd.Name.Name
	if name == "main" && fr.pkg.Name == "main" || name == "init" {
		return true // an init is a root too: a goroutine it starts runs beside the rest of the initialization and main
	}
	if !strings.HasSuffix(fr.name, "_test.go") {
		return false
	}
	for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// hbGo rewrites a go statement that is not a construct's fork, and reports
// whether it did. When it cannot (a builtin, a generic function whose
// type arguments are inferred), the statement stays as written, and
// foreignIn makes it release to the global clock.
func (w *walker) hbGo(s *dst.GoStmt) bool {
	if !w.hooks() || !w.spawnable(s) {
		return false
	}
	w.change()
	a := w.astOf(s).(*ast.GoStmt) // spawnable: it has one
	w.hbNoted(a.Pos())
	spawn := w.spawnCall(a.Pos())
	if lit, ok := s.Call.Fun.(*dst.FuncLit); ok {
		w.rvals(s.Call.Args)
		param := &dst.Field{
			Names: []*dst.Ident{dst.NewIdent(hbSpawnParam)},
			Type:  &dst.StarExpr{X: &dst.SelectorExpr{X: dst.NewIdent(rtAlias), Sel: dst.NewIdent(rtnames.Spawn)}},
		}
		// The parent's clock is taken after the arguments are evaluated
		// (they may receive: go func(v int){…}(<-ch)), so the spawn is the
		// last argument; a variadic literal has no place after its last
		// parameter, and keeps it first.
		if ps := lit.Type.Params.List; w.variadic(a.Call) {
			lit.Type.Params.List = append([]*dst.Field{param}, ps...)
			s.Call.Args = append([]dst.Expr{spawn}, s.Call.Args...)
		} else {
			lit.Type.Params.List = append(ps, param)
			s.Call.Args = append(s.Call.Args, spawn)
		}
		v := w.with(hbTask)
		v.block(lit.Body)
		var fresh []dst.Stmt
		if a, ok := w.astOf(lit).(*ast.FuncLit); ok {
			fresh = v.freshFields(a.Type.Params, a.Type.Results)
		}
		start := &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(hbSpawnParam), Sel: dst.NewIdent(rtnames.Start)}}
		exit := &dst.DeferStmt{Call: &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(hbTask), Sel: dst.NewIdent(rtnames.Exit)}}}
		lit.Body.List = append(append([]dst.Stmt{hbDefine(start), exit}, fresh...), lit.Body.List...)
		return true
	}
	w.rvals(s.Call.Args)
	fun := s.Call.Fun
	if sel, ok := fun.(*dst.SelectorExpr); ok && w.isMethodVal(sel) {
		sel.X = w.recv(sel)
	} else {
		fun = w.rval(fun)
	}
	if typed := w.spawnedFor(a.Call); typed != rtnames.Spawned {
		// Typed: the spawn is the last argument, taken after the others
		// (go use(<-ch) receives before the parent's clock is copied).
		s.Call.Fun = w.rtCall(typed, fun)
		s.Call.Args = append(s.Call.Args, spawn)
		return true
	}
	s.Call.Fun = w.rtCall(rtnames.Spawned, spawn, fun)
	return true
}

// variadic reports whether call's function is variadic.
func (w *walker) variadic(call *ast.CallExpr) bool {
	sig, ok := w.info.TypeOf(call.Fun).Underlying().(*types.Signature)
	return ok && sig.Variadic()
}

// spawnedFor returns the Spawned that starts call's function: a typed one
// (rt/hb_spawned.go) for up to four parameters and at most one result,
// not variadic; Spawned, through reflect for any other signature, else.
func (w *walker) spawnedFor(call *ast.CallExpr) string {
	sig, ok := w.info.TypeOf(call.Fun).Underlying().(*types.Signature)
	if !ok || sig.Variadic() {
		return rtnames.Spawned
	}
	switch n, r := sig.Params().Len(), sig.Results().Len(); {
	case n > 4 || r > 1 || n == 0 && r == 0:
		return rtnames.Spawned // func() has Spawned's own fast path
	case r == 1:
		return [...]string{rtnames.Spawned0R, rtnames.Spawned1R, rtnames.Spawned2R, rtnames.Spawned3R, rtnames.Spawned4R}[n]
	default:
		return [...]string{"", rtnames.Spawned1, rtnames.Spawned2, rtnames.Spawned3, rtnames.Spawned4}[n]
	}
}

// spawnable reports whether go f(…) can start _ga_rt.Spawned(…, f): f is
// a function literal, or a function value that can be written as an
// operand (not a builtin, not a generic function whose type arguments are
// inferred).
func (w *walker) spawnable(s *dst.GoStmt) bool {
	a, _ := w.astOf(s).(*ast.GoStmt)
	return a != nil && w.spawnableCall(a)
}

func (w *walker) spawnableCall(g *ast.GoStmt) bool {
	fun := ast.Unparen(g.Call.Fun)
	if _, ok := fun.(*ast.FuncLit); ok {
		// A variadic literal takes the spawn first, before its arguments:
		// one that may synchronize would then be ordered after the
		// parent's clock was copied (a false report), so such a go
		// statement stays as written, noted and not checked.
		return !w.variadic(g.Call) || !w.argsMaySync(g.Call)
	}
	if tv, ok := w.info.Types[fun]; !ok || tv.IsBuiltin() || tv.IsType() {
		return false
	}
	explicit := 0 // type arguments written: f[T] or f[T, U]
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun, explicit = f.X, 1
	case *ast.IndexListExpr:
		fun, explicit = f.X, len(f.Indices)
	}
	var id *ast.Ident
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	if id != nil {
		if inst, generic := w.info.Instances[id]; generic && explicit < inst.TypeArgs.Len() {
			return false // f or f[T] with type arguments inferred: not a value
		}
	}
	// Spawned (through reflect) takes the spawn before the arguments, as
	// a variadic literal does: the same rule.
	return w.spawnedFor(g.Call) != rtnames.Spawned || !w.argsMaySync(g.Call)
}

// argsMaySync reports whether an argument of call may synchronize: it
// receives, or calls a function (not a conversion or a builtin).
func (w *walker) argsMaySync(call *ast.CallExpr) bool {
	found := false
	for _, arg := range call.Args {
		ast.Inspect(arg, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false // not run by the argument's evaluation
			case *ast.UnaryExpr:
				found = found || x.Op == token.ARROW
			case *ast.CallExpr:
				if tv, ok := w.info.Types[ast.Unparen(x.Fun)]; !ok || !tv.IsType() && !tv.IsBuiltin() {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// chanOp wraps the channel operand of a receive (fn rtnames.RecvOp), a
// close (CloseOp) or a send (SendOp): _ga_rt.RecvOp(task, ch).
func (w *walker) chanOp(fn string, ch dst.Expr) dst.Expr {
	w.change()
	return w.rtCall(fn, w.taskExpr(), ch)
}

// hbSend hooks a send statement: ch <- _ga_rt.Sender(task, ch, site).V(v), so the
// release follows the value's computation; when ch cannot be evaluated a
// second time, _ga_rt.ChanOp(task, ch) <- v.
func (w *walker) hbSend(s *dst.SendStmt) {
	a, _ := w.astOf(s).(*ast.SendStmt)
	if a == nil {
		s.Chan = w.chanOp(rtnames.ChanOp, s.Chan) // no position for a site: hooked both ways, not checked
		return
	}
	site := siteLit(w.site(a.Pos(), "send on "+types.ExprString(a.Chan)))
	ct, _ := underlying(w.info.TypeOf(a.Chan)).(*types.Chan)
	if ct == nil || !duplicable(a.Chan) || hasIndexCall(a.Chan) {
		w.change()
		s.Chan = w.rtCall(rtnames.SendOp, w.taskExpr(), s.Chan, site)
		return
	}
	fn := rtnames.Sender
	if ct.Dir() == types.SendOnly {
		fn = rtnames.SendOnlySender
	}
	w.change()
	// ch <- _ga_rt.Sender(t, ch, site).V(v): the element type comes from
	// the channel alone, so v converts as in the send (an untyped constant,
	// a concrete value on a chan error, a named slice on a chan []int)
	sender := w.rtCall(fn, w.taskExpr(), exprFromAST(a.Chan), site)
	s.Value = &dst.CallExpr{Fun: &dst.SelectorExpr{X: sender, Sel: dst.NewIdent("V")}, Args: []dst.Expr{s.Value}}
}

// hasIndexCall reports whether e has a call inside (duplicable allows
// none, but an index may be a conversion).
func hasIndexCall(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		_, call := n.(*ast.CallExpr)
		found = found || call
		return !found
	})
	return found
}

// hbRangeChan hooks a range over a channel: the channel operand (the
// first receive) and, first thing in the body, every later one.
func (w *walker) hbRangeChan(a *ast.RangeStmt, s *dst.RangeStmt) {
	if a == nil {
		return
	}
	if _, ok := underlying(w.info.TypeOf(a.X)).(*types.Chan); !ok {
		return
	}
	s.X = w.chanOp(rtnames.RecvOp, s.X)
	if !pure(a.X) {
		return
	}
	if root := rootIdent(a.X); root != nil {
		for _, e := range []ast.Expr{a.Key, a.Value} {
			if id, ok := e.(*ast.Ident); ok && id.Name == root.Name {
				return // the body's name is the loop's variable
			}
		}
	}
	hook := &dst.ExprStmt{X: &dst.CallExpr{Fun: &dst.SelectorExpr{X: w.taskExpr(), Sel: dst.NewIdent(rtnames.ChanRecv)}, Args: []dst.Expr{exprFromAST(a.X)}}}
	s.Body.List = append([]dst.Stmt{hook}, s.Body.List...)
}

// hbSyncCall hooks the sync calls other than mutexes: WaitGroup, Cond,
// sync.Map (Sync on the object, through _ga_rt.ChanOp's twin for any
// pointer) and Once.Do (its function, through Task.Once). It returns nil
// for other calls.
func (w *walker) hbSyncCall(x *dst.CallExpr, a *ast.CallExpr, fn *types.Func) dst.Expr {
	if fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return nil
	}
	sel, ok := x.Fun.(*dst.SelectorExpr)
	if !ok || !w.isMethodVal(sel) {
		return nil
	}
	selAST := ast.Unparen(a.Fun).(*ast.SelectorExpr)
	recvAST := selAST.X
	if len(w.info.Selections[selAST].Index()) > 1 {
		if lockMethod(fn) {
			// g.Lock() with g embedding a mutex: the embedded mutex's
			// hand-off, which syncCall's lockCall hooks as it hooks
			// g.Mutex.Lock(). Hooked as another sync object, it kept a
			// clock of its own, and a section entered the other way
			// missed its releases: a false report
			// (testdata/review17/embmutex).
			return nil
		}
		// a method promoted from an embedded WaitGroup, Once…: hooked on
		// the embedded object itself, which other calls name directly
		if !duplicable(recvAST) || hasIndexCall(recvAST) {
			return nil // foreignCall treats it as foreign
		}
		return w.hbPromoted(x, sel, selAST, fn)
	}
	switch name := fn.FullName(); name {
	case "(*sync.Once).Do":
		if !duplicable(recvAST) || len(x.Args) != 1 {
			return nil
		}
		w.change()
		ptr := w.addrOf(sel.X, recvAST)
		sel.X = exprFromAST(recvAST)
		x.Args[0] = &dst.CallExpr{Fun: &dst.SelectorExpr{X: w.taskExpr(), Sel: dst.NewIdent(rtnames.Once)}, Args: []dst.Expr{ptr, w.rval(x.Args[0])}}
		return x
	case "(*sync.WaitGroup).Go":
		w.change()
		sel.X = w.rtCall(rtnames.ReleaseOp, w.taskExpr(), w.addrOf(sel.X, recvAST))
		if len(x.Args) == 1 {
			spawn := w.spawnCall(a.Pos())
			arg := x.Args[0]
			if lit, ok := arg.(*dst.FuncLit); ok {
				w.with(hbTask).hbLit(lit, false)
			} else {
				arg = w.rval(arg)
			}
			x.Args[0] = w.rtCall(rtnames.SpawnedJoined, spawn, arg)
		}
		return x
	}
	switch named := recvNamed(fn); named {
	case "WaitGroup", "Cond", "Map":
		if w.deferred == x {
			return nil // defer wg.Done(): hooked where it runs, see hbDeferred
		}
		op := rtnames.SyncOp // sync.Map: both ways
		switch fn.Name() {
		case "Add", "Done", "Signal", "Broadcast":
			op = rtnames.ReleaseOp
		case "Wait":
			op = rtnames.AcquireOp
			if named == "Cond" {
				op = rtnames.CondOp
			}
		}
		w.change()
		sel.X = w.rtCall(op, w.taskExpr(), w.addrOf(sel.X, recvAST))
		w.rvals(x.Args)
		return x
	}
	return nil
}

// recvNamed is the name of the type whose method fn is.
func recvNamed(fn *types.Func) string {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// hbDeferred hooks a deferred WaitGroup, Cond or sync.Map call where it
// runs: defer wg.Done() becomes defer _ga_rt.SyncCall(task, &wg, wg.Done),
// whose arguments are evaluated at the defer, as the receiver was.
func (w *walker) hbDeferred(d *dst.DeferStmt) bool {
	if !w.hooks() {
		return false
	}
	a, _ := w.astOf(d.Call).(*ast.CallExpr)
	if a == nil {
		return false
	}
	if w.deferLater(d, a) {
		return true
	}
	if len(a.Args) != 0 {
		return false
	}
	fn := analysis.Callee(w.info, a.Fun)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return false
	}
	switch recvNamed(fn) {
	case "WaitGroup", "Cond":
	default:
		return false
	}
	call := rtnames.SyncCall
	switch fn.Name() {
	case "Done", "Signal", "Broadcast":
	case "Wait":
		if recvNamed(fn) == "Cond" {
			return false
		}
		call = rtnames.WaitCall
	default:
		return false
	}
	sel, ok := d.Call.Fun.(*dst.SelectorExpr)
	if !ok {
		return false
	}
	selAST := ast.Unparen(a.Fun).(*ast.SelectorExpr)
	recvAST := selAST.X
	if !duplicable(recvAST) || hasIndexCall(recvAST) {
		return false // foreignCall: through G
	}
	if len(w.info.Selections[selAST].Index()) > 1 { // promoted: on the embedded object
		path, ptr, ok := w.embeddedSync(selAST)
		if !ok {
			return false
		}
		w.change()
		d.Call = w.rtCall(call, w.taskExpr(), ptr, &dst.SelectorExpr{X: path, Sel: dst.NewIdent(sel.Sel.Name)})
		return true
	}
	w.change()
	ptr := w.addrOf(sel.X, recvAST)
	d.Call = w.rtCall(call, w.taskExpr(), ptr, &dst.SelectorExpr{X: exprFromAST(recvAST), Sel: dst.NewIdent(sel.Sel.Name)})
	return true
}

// deferLater hooks, where it runs, a deferred call whose hook a defer
// statement would otherwise evaluate with its arguments, before the
// function's work: defer close(ch) becomes defer _ga_rt.CloseLater(t, ch,
// site); a deferred call into code that is not rewritten with no
// arguments (defer cancel(), defer g.Wait()) among a construct's own
// statements defer _ga_rt.ForeignLater(t, cancel) (one of a statement
// list is followed by ForeignNext instead); a typed atomic's deferred Store defer _ga_rt.StoreLater(t,
// &done, site, done.Store, v). Their operands are evaluated at the defer,
// as written. It reports whether it rewrote d.
func (w *walker) deferLater(d *dst.DeferStmt, a *ast.CallExpr) bool {
	if id, ok := ast.Unparen(a.Fun).(*ast.Ident); ok {
		if b, ok := w.info.Uses[id].(*types.Builtin); ok && b.Name() == "close" && len(a.Args) == 1 {
			ct, _ := underlying(w.info.TypeOf(a.Args[0])).(*types.Chan)
			if ct == nil {
				return false
			}
			fn := rtnames.CloseLater
			if ct.Dir() == types.SendOnly {
				fn = rtnames.CloseLaterSendOnly
			}
			w.change()
			d.Call = w.rtCall(fn, w.taskExpr(), w.rval(d.Call.Args[0]), siteLit(w.site(a.Pos(), types.ExprString(a))))
			return true
		}
	}
	fn := analysis.Callee(w.info, a.Fun)
	if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" && fn.Name() == "Store" && len(a.Args) == 1 {
		sel, ok := ast.Unparen(a.Fun).(*ast.SelectorExpr)
		if !ok || !duplicable(sel.X) || hasIndexCall(sel.X) || len(w.info.Selections[sel].Index()) > 1 {
			return false
		}
		ptr := exprFromAST(sel.X)
		if !isPointer(w.info.TypeOf(sel.X)) {
			ptr = &dst.UnaryExpr{Op: token.AND, X: ptr}
		}
		w.change()
		d.Call = w.rtCall(rtnames.StoreLater, w.taskExpr(), ptr, siteLit(w.site(a.Pos(), types.ExprString(a.Fun))),
			&dst.SelectorExpr{X: exprFromAST(sel.X), Sel: dst.NewIdent("Store")}, w.rval(d.Call.Args[0]))
		return true
	}
	later := w.foreignLater(a)
	if later == "" || w.isType(d.Call.Fun) || a == w.listed {
		return false // one of a statement list: foreignNext, which leaves the call as written
	}
	fun := d.Call.Fun
	if sel, ok := fun.(*dst.SelectorExpr); ok && w.isMethodVal(sel) {
		sel.X = w.recv(sel)
	} else {
		fun = w.rval(fun)
	}
	w.change()
	d.Call = w.rtCall(later, w.taskExpr(), fun)
	return true
}

// foreignLater returns ForeignLater or ForeignLaterErr when a, a deferred
// call, is a call into code that is not rewritten that one of them takes
// (no arguments; no result, or an error), or "".
func (w *walker) foreignLater(a *ast.CallExpr) string {
	if len(a.Args) != 0 || !w.foreignCall(a) {
		return ""
	}
	sig, _ := underlying(w.info.TypeOf(a.Fun)).(*types.Signature)
	if sig == nil || sig.Params().Len() != 0 {
		return ""
	}
	switch {
	case sig.Results().Len() == 0:
		return rtnames.ForeignLater
	case sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type()):
		return rtnames.ForeignLaterErr
	}
	return ""
}

// foreignNext is `defer _ga_rt.ForeignNext(task)`, which goes right after
// d, of a statement list, when d defers a call into code that is not
// rewritten (defer dep.Unlock(&mu), defer cancel()): it runs right before
// that call, whose operands are evaluated as written and which a recover()
// in it still stops the panic from (ForeignLater's wrapper, left for a
// construct's own statements, does not).
func (w *walker) foreignNext(d *ast.DeferStmt) []dst.Stmt {
	if !w.foreignCall(d.Call) {
		return nil
	}
	return []dst.Stmt{&dst.DeferStmt{Call: w.rtCall(rtnames.ForeignNext, w.taskExpr())}}
}

// foreignHook is _ga_hb.Foreign() (with the walker's task).
func (w *walker) foreignHook() dst.Stmt {
	w.change()
	return &dst.ExprStmt{X: &dst.CallExpr{Fun: &dst.SelectorExpr{X: w.taskExpr(), Sel: dst.NewIdent(rtnames.Foreign)}}}
}

// foreignIn reports whether the statement s, outside the blocks and
// function literals it holds, calls code that is not rewritten and may
// synchronize, or starts a goroutine hbGo cannot follow.
func (w *walker) foreignIn(s dst.Stmt) (found bool, escapes []escaped) {
	if !w.hooks() {
		return false, nil
	}
	a, _ := w.astOf(s).(ast.Stmt)
	if a == nil {
		return false, nil
	}
	inline := w.inlineValueCall(a) // hooked where it is called (hb_values.go)
	if inline != nil {
		if w.hbInline == nil {
			w.hbInline = map[*ast.CallExpr]bool{}
		}
		w.hbInline[inline] = true
	}
	escape := func(call *ast.CallExpr) {
		// sync's own functions (NewCond) are modelled: a Cond's Wait
		// is hooked as its mutex's Unlock and Lock (CondWait)
		fn := analysis.Callee(w.info, call.Fun)
		syncPkg := fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "sync"
		for _, arg := range call.Args {
			t := w.info.TypeOf(arg)
			if _, isChan := underlying(t).(*types.Chan); isChan && pure(arg) {
				escapes = append(escapes, escaped{x: arg})
			}
			if !syncPkg && mutexRef(t) && (pure(arg) || addrOfPure(arg)) {
				escapes = append(escapes, escaped{x: arg}) // a mutex code not rewritten may take (rt's escapeLock)
			}
			if !syncPkg && (pure(arg) || addrOfPure(arg)) {
				escapes = append(escapes, w.mutexFieldsOf(arg, t)...) // dep.Lock(&s), s holding a mutex
			}
		}
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit, *ast.BlockStmt:
			return false
		case *ast.CaseClause:
			for _, e := range x.List {
				ast.Inspect(e, visit)
			}
			return false
		case *ast.CommClause:
			if x.Comm != nil {
				ast.Inspect(x.Comm, visit)
			}
			return false
		case *ast.GoStmt:
			// the statement started: a goroutine hbGo cannot follow, or a
			// function not rewritten, runs with what the parent released
			if !w.goFollowed(x) || w.foreignCall(x.Call) {
				found = true
				escape(x.Call)
			}
			for _, arg := range x.Call.Args {
				ast.Inspect(arg, visit)
			}
			return false
		case *ast.CallExpr:
			if w.foreignCall(x) {
				found = found || x != inline
				escape(x)
			}
		}
		return true
	}
	switch x := a.(type) {
	case *ast.BlockStmt, *ast.LabeledStmt:
		return false, nil
	case *ast.DeferStmt:
		// the call runs at the function's end: hooked there (deferLater,
		// foreignNext); only its operands run here. A mutex it gets is
		// escaped here, before: earlier is as good.
		if w.foreignCall(x.Call) {
			escape(x.Call)
		}
		for _, arg := range x.Call.Args {
			ast.Inspect(arg, visit)
		}
	case *ast.IfStmt:
		for _, n := range []ast.Node{x.Init, x.Cond} {
			if n != nil {
				ast.Inspect(n, visit)
			}
		}
	case *ast.ForStmt:
		for _, n := range []ast.Node{x.Init, x.Cond, x.Post} {
			if n != nil {
				ast.Inspect(n, visit)
			}
		}
	case *ast.RangeStmt:
		ast.Inspect(x.X, visit)
	case *ast.SwitchStmt:
		for _, n := range []ast.Node{x.Init, x.Tag} {
			if n != nil {
				ast.Inspect(n, visit)
			}
		}
		for _, c := range x.Body.List {
			visit(c)
		}
	case *ast.TypeSwitchStmt:
		for _, n := range []ast.Node{x.Init, x.Assign} {
			if n != nil {
				ast.Inspect(n, visit)
			}
		}
	case *ast.SelectStmt:
		for _, c := range x.Body.List {
			visit(c)
		}
	default:
		ast.Inspect(a, visit)
	}
	return found, escapes
}

// goFollowed reports whether the go statement g is a construct's fork or
// one hbGo rewrites.
func (w *walker) goFollowed(g *ast.GoStmt) bool {
	if fk := w.res.Forks[g]; fk != nil && fk.Construct != nil && w.constructs[fk.Construct] != "" {
		return true
	}
	return w.spawnableCall(g)
}

// foreignCall reports whether the call x runs code that is not rewritten
// and may synchronize: a function of a package this build does not
// rewrite (but the quiet parts of the standard library, and the sync calls
// hooked on their own), a function value, or an interface method.
func (w *walker) foreignCall(x *ast.CallExpr) bool {
	tv, ok := w.info.Types[x.Fun]
	if ok && (tv.IsType() || tv.IsBuiltin()) {
		return false
	}
	if _, lit := ast.Unparen(x.Fun).(*ast.FuncLit); lit {
		return false // called in place: rewritten with the rest
	}
	if w.lockerMethod(x) != "" {
		return false // hooked by lockerCall
	}
	fn := analysis.Callee(w.info, x.Fun)
	if fn == nil {
		if w.rewrittenMethod(x) {
			return false // every implementation is rewritten (hb_values.go)
		}
		if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && len(x.Args) == 0 && (sel.Sel.Name == "Error" || sel.Sel.Name == "String") {
			return false // error and Stringer methods: formatting, not synchronization
		}
		return true
	}
	if fn.Pkg() == nil {
		return false
	}
	path := fn.Pkg().Path()
	if w.cfg.hbRewritten[path] || path == w.pkg.Types.Path() {
		return false
	}
	if path == "sync" {
		if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
			if s := w.info.Selections[sel]; s != nil && len(s.Index()) > 1 && (!duplicable(sel.X) || hasIndexCall(sel.X) || fn.FullName() == "(*sync.WaitGroup).Go") {
				return true // promoted and not hooked (hbPromoted)
			}
		}
		if fn.FullName() == "(*sync.Once).Do" {
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			return !ok || !duplicable(sel.X) // hbSyncCall hooks it on a receiver it can write again
		}
		switch fn.Name() {
		case "TryLock", "TryRLock":
			return false // hooked by tryLockCall
		}
		switch recvNamed(fn) {
		case "Mutex", "RWMutex", "WaitGroup", "Map", "Once":
			return false // hooked by lockCall and hbSyncCall
		case "Cond":
			return false // hooked by hbSyncCall (CondOp brackets Wait's unlock and lock)
		}
		return true
	}
	if path == "sync/atomic" {
		return false
	}
	return !quietCall(path, fn)
}

// quietCall reports whether fn, of the standard library package path, is
// known not to synchronize goroutines of the program: formatting, strings,
// numbers, sorting, time (but its timers), testing (but Run and Parallel).
// Writes to a file (fmt.Println) synchronize only through the kernel,
// which -race does not follow either.
func quietCall(path string, fn *types.Func) bool {
	switch path {
	case "time":
		// A timer's channel is sent on by the runtime after the timer is
		// made or reset: the release the receive's acquire of G follows.
		switch fn.Name() {
		case "AfterFunc", "NewTimer", "NewTicker", "After", "Tick", "Reset":
			return false
		}
		return true
	case "testing":
		switch fn.Name() {
		case "Run", "Parallel", "RunParallel", "Fuzz":
			return false
		}
		return true
	case "runtime":
		switch fn.Name() {
		case "SetFinalizer", "AddCleanup", "Goexit":
			return false
		}
		return true
	case "fmt":
		// Fprint* and Fscan* write to and read from any writer or reader,
		// an io.Pipe among them
		return !strings.HasPrefix(fn.Name(), "Fprint") && !strings.HasPrefix(fn.Name(), "Fscan")
	case "reflect":
		switch fn.Name() {
		case "Send", "Recv", "TrySend", "TryRecv", "Close", "Call", "CallSlice", "Select", "MakeFunc":
			return false // channel operations and calls through reflection
		}
		return true
	}
	if quietPkgs[path] {
		return true
	}
	for _, p := range []string{"encoding/", "text/"} {
		if strings.HasPrefix(path, p) {
			// Marshal and Unmarshal are quiet; an Encoder's, Decoder's or
			// template's methods write to and read from any writer or reader
			sig, _ := fn.Type().(*types.Signature)
			return sig == nil || sig.Recv() == nil
		}
	}
	for _, p := range []string{"math/", "unicode/", "crypto/", "hash/", "container/", "go/"} {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// quietPkgs are the standard library packages none of whose functions
// synchronize goroutines of the program.
// bufio is not among them: its readers and writers wrap any io.Reader and
// io.Writer, an io.Pipe among them. log is (its output is a file, rarely a
// pipe another goroutine reads; -race orders two log calls through the
// logger's mutex, which hides races between goroutines that log).
var quietPkgs = map[string]bool{
	"strings": true, "strconv": true, "math": true, "sort": true, "slices": true,
	"maps": true, "bytes": true, "unicode": true, "errors": true, "regexp": true,
	"path": true, "path/filepath": true, "cmp": true, "iter": true, "hash": true, "log": true,
	"html": true, "unsafe": true, "encoding": true,
}

// hbRunRoot marks the function literal t.Run (b.Run) runs as a root: the
// testing package runs it on a goroutine of its own.
func (w *walker) hbRunRoot(a *ast.CallExpr, fn *types.Func) {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "testing" || fn.Name() != "Run" || len(a.Args) != 2 {
		return
	}
	if lit, ok := ast.Unparen(a.Args[1]).(*ast.FuncLit); ok {
		if w.hbRoots == nil {
			w.hbRoots = map[*ast.FuncLit]bool{}
		}
		w.hbRoots[lit] = true
	}
}

// hbSpawnArg rewrites wg.Go(f) or g.Go(f) that is no construct's fork:
// f becomes _ga_rt.Spawned(task.Go(), f), and a WaitGroup's Go is hooked
// as its other calls are.
func (w *walker) hbSpawnArg(x *dst.CallExpr) {
	w.change()
	pos := token.NoPos
	if a, ok := w.astOf(x).(*ast.CallExpr); ok {
		w.hbNoted(a.Pos())
		w.hbNoted(a.Fun.(*ast.SelectorExpr).Sel.Pos())
		pos = a.Pos()
	}
	spawn := w.spawnCall(pos)
	arg := x.Args[0]
	if lit, ok := arg.(*dst.FuncLit); ok {
		w.hbLit(lit, false)
	} else {
		arg = w.rval(arg)
	}
	x.Args[0] = w.rtCall(rtnames.SpawnedJoined, spawn, arg)
	a, _ := w.astOf(x).(*ast.CallExpr)
	sel, ok := x.Fun.(*dst.SelectorExpr)
	if a == nil || !ok {
		return
	}
	if fn := analysis.Callee(w.info, a.Fun); fn != nil && fn.FullName() == "(*sync.WaitGroup).Go" {
		recvAST := ast.Unparen(a.Fun).(*ast.SelectorExpr).X
		if !duplicable(recvAST) || hasIndexCall(recvAST) {
			return
		}
		ptr := exprFromAST(recvAST)
		if !isPointer(w.info.TypeOf(recvAST)) {
			ptr = &dst.UnaryExpr{Op: token.AND, X: ptr}
		}
		sel.X = w.rtCall(rtnames.ReleaseOp, w.taskExpr(), ptr)
	}
}

// hbEscapeArgs escapes, where the call evaluates them, the channel
// arguments that hbBefore cannot name before the statement: those of a
// call into code that is not rewritten that are no variable or field path
// (lib.Relay(chans[i]), lib.Relay(newCh())), and every channel given to
// reflect.ValueOf, which is quiet itself but hands the channel to
// reflection's Send, Recv and Select, whose receives then follow its
// sends only through G (testdata/review19/fanin: a reflect.Select fan-in
// reported every item the producers filled). x.Args are rewritten.
func (w *walker) hbEscapeArgs(x *dst.CallExpr, a *ast.CallExpr, fn *types.Func) {
	if !w.hooks() || len(x.Args) != len(a.Args) {
		return
	}
	valueOf := fn != nil && fn.FullName() == "reflect.ValueOf"
	foreign := !valueOf && w.foreignCall(a)
	if !valueOf && !foreign {
		return
	}
	for i, arg := range a.Args {
		t := w.info.TypeOf(arg)
		if foreign && holdsChan(t, 3) {
			// a struct with a channel in it (testdata/review19/relaystruct)
			w.change()
			x.Args[i] = w.rtCall(rtnames.EscapedIn, w.taskExpr(), x.Args[i])
			continue
		}
		if _, isChan := underlying(t).(*types.Chan); !isChan || (foreign && pure(arg)) {
			continue // not a channel, or escaped by hbBefore
		}
		w.change()
		x.Args[i] = w.rtCall(rtnames.Escaped, w.taskExpr(), x.Args[i])
	}
}

// holdsChan reports whether a value of type t, not itself a channel, holds
// one in its fields (of structs and arrays, through pointers to them,
// depth pointers deep), where EscapedIn finds it.
func holdsChan(t types.Type, depth int) bool {
	switch u := underlying(t).(type) {
	case *types.Struct:
		for i := range u.NumFields() {
			ft := u.Field(i).Type()
			if _, isChan := underlying(ft).(*types.Chan); isChan || holdsChan(ft, depth) {
				return true
			}
		}
	case *types.Array:
		_, isChan := underlying(u.Elem()).(*types.Chan)
		return isChan || holdsChan(u.Elem(), depth)
	case *types.Pointer:
		return depth > 0 && holdsChan(u.Elem(), depth-1)
	}
	return false
}

// hbNoted marks the notes at pos (a goroutine the static stage left out of
// every construct) as checked by happens-before: the -hb build follows
// the goroutine hbGo or hbSpawnArg just rewrote.
func (w *walker) hbNoted(pos token.Pos) {
	p := plan.PosOf(w.pkg.Fset, pos)
	for i := range w.plan.Notes {
		if w.plan.Notes[i].Pos == p && !w.plan.Notes[i].Coarse {
			w.plan.Notes[i].HB = true
		}
	}
}

// mutexRef reports whether a value of type t may point to a mutex that
// code given it can take: a *sync.Mutex, a *sync.RWMutex or a
// sync.Locker.
func mutexRef(t types.Type) bool {
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == "Locker" {
		return true
	}
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && (n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex")
}

// addrOfPure reports whether e is &x with x pure (a variable or a field
// path).
func addrOfPure(e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	return ok && u.Op == token.AND && pure(u.X)
}

// hbBefore returns the hooks that go right before the statement s: Escape
// of the channels a call into code that is not rewritten gets, and
// Foreign.
func (w *walker) hbBefore(s dst.Stmt) []dst.Stmt {
	found, escapes := w.foreignIn(s)
	var out []dst.Stmt
	for _, e := range escapes {
		var st dst.Stmt = &dst.ExprStmt{X: &dst.CallExpr{Fun: &dst.SelectorExpr{X: w.taskExpr(), Sel: dst.NewIdent(rtnames.Escape)}, Args: []dst.Expr{exprFromAST(e.x)}}} // &mu as well: exprFromAST copies unary expressions
		if e.nonNil != nil {
			st = &dst.IfStmt{Cond: &dst.BinaryExpr{X: exprFromAST(e.nonNil), Op: token.NEQ, Y: dst.NewIdent("nil")}, Body: &dst.BlockStmt{List: []dst.Stmt{st}}}
		}
		out = append(out, st)
	}
	if !found {
		return append(out, w.unseenBefore(s)...) // hb_unseen.go; escapes only of a deferred call's operands
	}
	return append(out, w.foreignHook())
}

// hbAfter returns the hooks that go right after the statement s: After,
// when s is a simple statement that may have waited (a receive, a send, a
// Wait, an atomic load, a call into code that is not rewritten), so its
// acquire is taken where it returned; and, after a range over a channel,
// a Chan of the channel, whose last receive (the one that saw it closed)
// has no body to hook.
func (w *walker) hbAfter(s dst.Stmt) []dst.Stmt {
	if !w.hooks() {
		return nil
	}
	a, _ := w.astOf(s).(ast.Stmt)
	for {
		l, ok := a.(*ast.LabeledStmt)
		if !ok {
			break
		}
		a = l.Stmt
	}
	switch x := a.(type) {
	case *ast.DeferStmt:
		return w.foreignNext(x)
	case *ast.RangeStmt:
		if _, isChan := underlying(w.info.TypeOf(x.X)).(*types.Chan); isChan && pure(x.X) {
			return []dst.Stmt{&dst.ExprStmt{X: &dst.CallExpr{Fun: &dst.SelectorExpr{X: w.taskExpr(), Sel: dst.NewIdent(rtnames.ChanRecv)}, Args: []dst.Expr{exprFromAST(x.X)}}}}
		}
	case *ast.AssignStmt, *ast.ExprStmt, *ast.SendStmt, *ast.IncDecStmt, *ast.DeclStmt:
		if es, ok := x.(*ast.ExprStmt); ok && w.isPanic(es.X) {
			return nil // a terminating statement: nothing runs after it (and a function may end with it)
		}
		if w.waits(x) {
			if w.hbQuiesces(x) {
				return []dst.Stmt{w.afterHook(), w.acquireAllHook()}
			}
			return []dst.Stmt{w.afterHook()}
		}
	}
	return nil
}

// waits reports whether n, outside function literals, receives, sends,
// waits on a sync object, loads atomically or calls code that is not
// rewritten.
func (w *walker) waits(n ast.Node) bool { return w.waitsBut(n, nil) }

// waitsBut is waits, the call skip (its operands still) left out.
func (w *walker) waitsBut(n ast.Node, skip *ast.CallExpr) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		switch x := m.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SendStmt:
			found = true
		case *ast.UnaryExpr:
			found = found || x.Op == token.ARROW
		case *ast.CallExpr:
			if x == skip {
				break
			}
			if fn := analysis.Callee(w.info, x.Fun); fn != nil && fn.Pkg() != nil {
				switch fn.Pkg().Path() {
				case "sync/atomic":
					found = true
				case "sync":
					found = found || fn.Name() == "Wait" || fn.Name() == "Do" || recvNamed(fn) == "Map"
				}
			}
			found = found || w.foreignCall(x)
		}
		return !found
	})
	return found
}

// afterHook is task.After().
func (w *walker) afterHook() dst.Stmt {
	w.change()
	return &dst.ExprStmt{X: &dst.CallExpr{Fun: &dst.SelectorExpr{X: w.taskExpr(), Sel: dst.NewIdent(rtnames.After)}}}
}

// spawnCall is task.GoAt(site), the site being the go statement (or the
// Go call) at pos: reports say where each goroutine was started.
func (w *walker) spawnCall(pos token.Pos) dst.Expr {
	site := uint32(0)
	if pos.IsValid() {
		site = w.site(pos, "go statement")
	}
	return &dst.CallExpr{Fun: &dst.SelectorExpr{X: w.taskExpr(), Sel: dst.NewIdent(rtnames.GoHB)}, Args: []dst.Expr{siteLit(site)}}
}

// lockMethod reports whether fn is a method that takes or releases a
// Mutex or an RWMutex (syncCall hooks them with lockCall).
func lockMethod(fn *types.Func) bool {
	switch fn.FullName() {
	case "(*sync.Mutex).Lock", "(*sync.Mutex).Unlock", "(*sync.Mutex).TryLock",
		"(*sync.RWMutex).Lock", "(*sync.RWMutex).Unlock", "(*sync.RWMutex).TryLock",
		"(*sync.RWMutex).RLock", "(*sync.RWMutex).RUnlock", "(*sync.RWMutex).TryRLock":
		return true
	}
	return false
}

// hbPromoted hooks a call of a sync method promoted from an embedded field
// (s.Wait() with s embedding a WaitGroup) on the embedded object: the
// hooks key objects by address, and s.WaitGroup.Done() elsewhere names it.
func (w *walker) hbPromoted(x *dst.CallExpr, sel *dst.SelectorExpr, a *ast.SelectorExpr, fn *types.Func) dst.Expr {
	if w.deferred == x {
		return nil // hbDeferred
	}
	_, ptr, ok := w.embeddedSync(a)
	if !ok {
		return nil
	}
	w.change()
	switch fn.FullName() {
	case "(*sync.Once).Do":
		if len(x.Args) != 1 {
			return nil
		}
		x.Args[0] = &dst.CallExpr{Fun: &dst.SelectorExpr{X: w.taskExpr(), Sel: dst.NewIdent(rtnames.Once)}, Args: []dst.Expr{ptr, w.rval(x.Args[0])}}
		return x
	case "(*sync.WaitGroup).Go":
		return nil // foreignCall: rare enough to synchronize through G
	}
	op := rtnames.SyncOp
	switch fn.Name() {
	case "Add", "Done", "Signal", "Broadcast":
		op = rtnames.ReleaseOp
	case "Wait":
		op = rtnames.AcquireOp
		if recvNamed(fn) == "Cond" {
			op = rtnames.CondOp
		}
	}
	sel.X = w.rtCall(op, w.taskExpr(), ptr)
	sel.Sel = dst.NewIdent(fn.Name())
	w.rvals(x.Args)
	return x
}

// embeddedSync returns, for the selector a of a method promoted from an
// embedded sync object (s.Wait), the path to that object (s.WaitGroup)
// and a pointer to it; a.X must be duplicable.
func (w *walker) embeddedSync(a *ast.SelectorExpr) (path, ptr dst.Expr, ok bool) {
	path = exprFromAST(a.X)
	t := w.info.TypeOf(a.X)
	idx := w.info.Selections[a].Index()
	for _, i := range idx[:len(idx)-1] {
		st, _ := derefStruct(t)
		if st == nil {
			return nil, nil, false
		}
		f := st.Field(i)
		path = &dst.SelectorExpr{X: path, Sel: dst.NewIdent(f.Name())}
		t = f.Type()
	}
	ptr = path
	if !isPointer(t) {
		ptr = &dst.UnaryExpr{Op: token.AND, X: exprFromAST(a.X)}
		ptr.(*dst.UnaryExpr).X = dst.Clone(path).(dst.Expr)
	}
	return path, ptr, true
}

// isPanic reports whether e is a call of the builtin panic.
func (w *walker) isPanic(e ast.Expr) bool { return analysis.BuiltinCall(w.info, e, "panic") }

// freshResult reports whether the call a, of fn, returns memory that code
// this build does not rewrite may just have allocated: a function of
// another package (not rewritten with this one) with one result, a slice,
// pointer or map. Its result goes through _ga_rt.Fresh.
func (w *walker) freshResult(a *ast.CallExpr, fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || w.cfg.hbRewritten[fn.Pkg().Path()] || fn.Pkg() == w.pkg.Types {
		return false
	}
	if p := fn.Pkg().Path(); p == "sync" || p == "sync/atomic" || p == "unsafe" {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Results().Len() != 1 {
		return false
	}
	switch underlying(sig.Results().At(0).Type()).(type) {
	case *types.Slice, *types.Pointer, *types.Map:
		return !analysis.SpreadsResults(w.info, a)
	}
	return false
}

// lockerMethod returns "Lock" or "Unlock" when a is l.Lock() or l.Unlock()
// with l a sync.Locker (a call through the interface), else "".
func (w *walker) lockerMethod(a *ast.CallExpr) string {
	sel, ok := ast.Unparen(a.Fun).(*ast.SelectorExpr)
	if !ok || len(a.Args) != 0 {
		return ""
	}
	n, ok := types.Unalias(w.info.TypeOf(sel.X)).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync" || n.Obj().Name() != "Locker" {
		return ""
	}
	if name := sel.Sel.Name; name == "Lock" || name == "Unlock" {
		return name
	}
	return ""
}

// lockerCall rewrites l.Lock() and l.Unlock() through a sync.Locker as
// task.Acquire(l) and task.Release(l): the lock orders as a direct one
// does, on the same object (the interface holds the mutex's pointer).
func (w *walker) lockerCall(x *dst.CallExpr, method string) dst.Expr {
	sel, ok := x.Fun.(*dst.SelectorExpr)
	if !ok {
		return nil
	}
	name := rtnames.Acquire
	if method == "Unlock" {
		name = rtnames.Release
	}
	w.change()
	return &dst.CallExpr{Fun: &dst.SelectorExpr{X: w.taskExpr(), Sel: dst.NewIdent(name)}, Args: []dst.Expr{w.rval(sel.X)}}
}

// syncValue rewrites a method value of a WaitGroup or a mutex used as a
// value (wait := wg.Wait) so that its call is hooked where it happens
// (rt.SyncValue); other values are left (a call through them is foreign).
// It returns nil when x is none of those.
func (w *walker) syncValue(x *dst.SelectorExpr) dst.Expr {
	if !w.hooks() {
		return nil
	}
	a, _ := w.astOf(x).(*ast.SelectorExpr)
	if a == nil || !duplicable(a.X) || hasIndexCall(a.X) {
		return nil
	}
	s := w.info.Selections[a]
	if s == nil || s.Kind() != types.MethodVal || len(s.Index()) != 1 {
		return nil
	}
	fn, _ := s.Obj().(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return nil
	}
	acquire := false
	switch fn.FullName() {
	case "(*sync.WaitGroup).Wait", "(*sync.Mutex).Lock", "(*sync.RWMutex).Lock":
		acquire = true
	case "(*sync.WaitGroup).Done", "(*sync.Mutex).Unlock", "(*sync.RWMutex).Unlock":
	default:
		return nil
	}
	ptr := exprFromAST(a.X)
	if !isPointer(w.info.TypeOf(a.X)) {
		ptr = &dst.UnaryExpr{Op: token.AND, X: ptr}
	}
	w.change()
	kind := "false"
	if acquire {
		kind = "true"
	}
	return w.rtCall(rtnames.SyncValue, ptr, x, dst.NewIdent(kind))
}

// hbInitRoots makes each initializer of vs that calls a function a root,
// as init functions are: package variables are initialized before any
// init function, outside every root, so a goroutine that the called
// function started was no thread and its races with the rest of the
// program went unchecked (testdata/review16b/hbvarinit):
//
//	var x = f()  →  var x = _ga_rt.InitVar(_ga_rt.HBRoot(), f())
//
// HBRoot is evaluated before f (calls are evaluated left to right), and
// InitVar ends the root, releasing to the global clock that the init
// functions' and main's roots begin after. A declared type instantiates
// InitVar, so that untyped operands take it as before (var x int64 =
// 1 << n()). A multi-valued initializer is hbInitCall's.
func (w *walker) hbInitRoots(vs *dst.ValueSpec) {
	if len(vs.Values) == 1 && len(vs.Names) > 1 {
		w.hbInitCall(vs)
		return
	}
	if len(vs.Values) != len(vs.Names) {
		return
	}
	for i, v := range vs.Values {
		a, ok := w.astOf(v).(ast.Expr)
		if !ok || !w.callsAtInit(a) {
			continue
		}
		var fun dst.Expr = &dst.SelectorExpr{X: dst.NewIdent(rtAlias), Sel: dst.NewIdent(rtnames.InitVar)}
		if vs.Type != nil {
			fun = &dst.IndexExpr{X: fun, Index: dst.Clone(vs.Type).(dst.Expr)}
		}
		vs.Values[i] = &dst.CallExpr{Fun: fun, Args: []dst.Expr{w.rtCall(rtnames.HBRoot), v}}
		w.change()
	}
}

// hbInitCall makes a multi-valued initializer a root (hbInitRoots), as
//
//	var a, b = f(x)  →  var a, b = _ga_rt.InitVars2(_ga_rt.InitCall(_ga_rt.HBRoot(), f)(x))
//
// InitCall returns f once HBRoot began the root; f's value is evaluated
// before its arguments, as before (both are evaluated left to right). Only
// a function named by an identifier or a package-qualified one, or a
// function literal, is wrapped: a method value would evaluate its receiver
// at another point than the call does, and a generic function whose type
// arguments are inferred from the call's arguments has no value without
// them. The comma-ok forms (v, ok = m[k], x.(T), <-ch) and calls of more
// than four results stay as written, and so unchecked if they start a
// goroutine (README).
func (w *walker) hbInitCall(vs *dst.ValueSpec) {
	call, ok := vs.Values[0].(*dst.CallExpr)
	a, _ := w.astOf(vs.Values[0]).(*ast.CallExpr)
	if !ok || a == nil || len(vs.Names) > 4 || !w.initCallable(a.Fun) {
		return
	}
	begin := &dst.CallExpr{
		Fun:  &dst.SelectorExpr{X: dst.NewIdent(rtAlias), Sel: dst.NewIdent(rtnames.InitCall)},
		Args: []dst.Expr{w.rtCall(rtnames.HBRoot), call.Fun},
	}
	call.Fun = begin
	end := map[int]string{2: rtnames.InitVars2, 3: rtnames.InitVars3, 4: rtnames.InitVars4}[len(vs.Names)]
	vs.Values[0] = &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(rtAlias), Sel: dst.NewIdent(end)}, Args: []dst.Expr{call}}
	w.change()
}

// initCallable reports whether fun, the function of a multi-valued
// initializer's call, can be passed to InitCall with the same effect as
// calling it: a function literal, or a function (not a method, not a
// generic one left to inference) named by an identifier or a
// package-qualified identifier, or one of those instantiated explicitly.
func (w *walker) initCallable(fun ast.Expr) bool {
	fun = ast.Unparen(fun)
	if _, ok := fun.(*ast.FuncLit); ok {
		return true
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok {
			if _, ok := w.info.Uses[x].(*types.PkgName); ok {
				id = f.Sel
			}
		}
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true // g[int], or a function held in a slice or map: a value, evaluated before the arguments either way
	}
	if id == nil {
		return false
	}
	fn, ok := w.info.Uses[id].(*types.Func)
	if !ok || fn.Signature().Recv() != nil {
		return false
	}
	_, inferred := w.info.Instances[id] // without an index: inferred
	return !inferred
}

// callsAtInit reports whether evaluating x calls a function (not a
// builtin, not a conversion); the bodies of function literals that x
// only makes do not run.
func (w *walker) callsAtInit(x ast.Expr) bool {
	if tv, ok := w.info.Types[x]; ok && tv.Value != nil {
		return false // a constant
	}
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if tv, ok := w.info.Types[n.Fun]; !ok || !tv.IsType() && !tv.IsBuiltin() {
				found = true
			}
		}
		return !found
	})
	return found
}
