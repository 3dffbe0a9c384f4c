package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"

	"github.com/dave/dst/dstutil"
	"github.com/goanomaly/goanomaly/instrument/rtnames"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/plan"
)

// construct rewrites the statements of one construct (the forking
// statements, then the join):
//
//	_ga_c1, _ga_t1 := _ga_rt.Begin(task, n, site)
//	for i := range n { … go func(_ga_k1 *_ga_rt.Task) { … }(_ga_c1.Fork(i)) }
//	wg.Wait()
//	_ga_c1.Join()
//
// The parent's own code between the forks is checked with _ga_t1, each
// goroutine's with its _ga_k1.
func (w *walker) construct(c *analysis.Construct, list []dst.Stmt) []dst.Stmt {
	if w.dormantRoot(c, list) {
		return w.dormant(c, list)
	}
	if w.hbVersioned(c, list) {
		return w.hbVersions(c, list) // hbfed.go
	}
	if w.cfg.Dormant && w.outer == nil && w.task == "" && !w.inClone && w.sampled == nil {
		// dormantTail refused it: a label after the join (walk.go)
		w.plan.Notes = append(w.plan.Notes, plan.Note{Pos: plan.PosOf(w.pkg.Fset, c.List[c.First].Pos()), Coarse: true,
			Msg: "runs checked in every run of the dormant binary: it declares names before its join that code after it uses, and a label follows it"})
	}
	return w.rewriteConstruct(c, list)
}

// rewriteConstruct is construct's rewrite of the construct as it always
// runs checked (in a dormant binary, the checked branch).
func (w *walker) rewriteConstruct(c *analysis.Construct, list []dst.Stmt) []dst.Stmt {
	touched, changed := *w.touched, w.fileRewriter.changed
	cName := ""
	if c.Deferred != nil {
		cName = w.constructs[c] // named by deferJoin, right before (deferjoin.go)
	}
	if cName == "" {
		w.nconst++
		cName = "_ga_c" + itoa(w.nconst)
	}
	tName := "_ga_t" + cName[len("_ga_c"):]
	w.constructs[c] = cName
	parent := w.taskExpr()
	if w.outer == nil && (w.task == "" || w.task == hbTask && !w.inClone) {
		w = w.with("")
		w.outer = c // a root construct: nothing outside this function runs in its tree (an -hb thread's construct is a root too, see rt.Enter)
	}
	inner := w.with(tName)
	inner.cur = c
	n := len(list) - 1
	deferred := c.Deferred != nil // list is the rest of the body; the join is deferred
	if deferred {
		n = len(list)
	}
	stmts := list[:n]
	proof := inner.heapProof() // nil unless c is its tree's root, outside clones, pruning
	root := proof != nil
	var guard []analysis.GuardSpan
	if root {
		guard = proof.Guard
	}
	versioned := len(guard) > 0 && movable(stmts) && !deferred
	var plainCopy, checkedCopy []dst.Stmt
	if root && (len(guard) == 0 || versioned) && !deferred { // the deferred Join needs the construct
		plainCopy = w.cloneAll(stmts)
	}
	if versioned {
		checkedCopy = w.cloneAll(stmts)
		if pc := w.planned[c]; pc != nil {
			for _, g := range guard {
				if g.Injective {
					pc.Injective = append(pc.Injective, g.What())
				} else {
					pc.Guard = append(pc.Guard, g.What())
				}
			}
		}
	}
	pruned := *inner
	pruned.guarded = versioned
	for _, s := range stmts {
		w.seen(s)
		pruned.stmt(s)
	}
	var join dst.Stmt
	if !deferred {
		join = list[n]
		w.seen(join)
		w.stmt(join)
	}
	w.change()
	if versioned {
		checked := *inner
		checked.silent = true
		for _, s := range checkedCopy {
			w.seen(s)
			checked.stmt(s)
		}
	}
	// A construct whose goroutines attach their task (calls through values
	// run checked) never runs as written: without Enter nothing is attached.
	if plainCopy != nil && !usesTask(stmts, "_ga_k"+cName[len("_ga_c"):], tName) && !forksNamed(c) && !w.res.Attach(c) {
		if len(guard) == 0 {
			*w.touched, w.fileRewriter.changed = touched, changed // the statements stay as written
		}
		return w.elide(c, plainCopy, checkedCopy, guard, join, parent)
	}
	body := stmts
	if versioned {
		body = []dst.Stmt{&dst.IfStmt{Cond: w.guardExpr(guard), Body: &dst.BlockStmt{List: stmts}, Else: &dst.BlockStmt{List: checkedCopy}}}
	}

	if deferred {
		return append(w.enterStmts(c, cName, tName, parent, token.ASSIGN), body...)
	}
	tok := token.DEFINE
	if w.sampled == c {
		tok = token.ASSIGN // declared before the dormant branch (dormant.go)
	}
	out := append(w.enterStmts(c, cName, tName, parent, tok), body...)
	return append(out, w.joined(c, join, cName)...)
}

// forksNamed reports whether a fork of c starts a named function or a
// function value (go put(buf, i), wg.Go(f)): its goroutine runs a checked
// clone, or a callee the construct's task is handed to, through the
// construct variable, which usesTask does not look for.
func forksNamed(c *analysis.Construct) bool {
	for _, fk := range c.Forks {
		if fk.Body == nil {
			return true
		}
	}
	return false
}

// enter is the statement starting construct c's tree node:
// _ga_c1 := _ga_rt.Enter(task, n, site), or _ga_c1, _ga_t1 := _ga_rt.Begin(…)
// when the parent's code in the construct is checked with _ga_t1; tok is
// := or =.
func (w *walker) enter(c *analysis.Construct, cName, tName string, parent dst.Expr, tok token.Token) dst.Stmt {
	count := dst.Expr(&dst.BasicLit{Kind: token.INT, Value: "-1"})
	if c.Counted != nil && w.predeclaredAt(c.List[c.First].Pos(), "int", "len") { // a local named len or int: the count stays unknown
		count = &dst.CallExpr{Fun: dst.NewIdent("int"), Args: []dst.Expr{exprFromAST(c.Counted)}}
	} else if c.Kind == analysis.Sections {
		count = &dst.BasicLit{Kind: token.INT, Value: itoa(len(c.Forks))}
	}
	site := siteLit(w.site(c.List[c.First].Pos(), string(c.Kind)))
	begin, enter := rtnames.Begin, rtnames.Enter
	if w.fed {
		begin, enter = rtnames.BeginFed, rtnames.EnterFed // hbfed.go
	}
	if w.used[tName] {
		return &dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(cName), dst.NewIdent(tName)}, Tok: tok,
			Rhs: []dst.Expr{w.rtCall(begin, parent, count, site)}}
	}
	return &dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(cName)}, Tok: tok,
		Rhs: []dst.Expr{w.rtCall(enter, parent, count, site)}}
}

// joined returns the join statement followed by _ga_c1.Join(), or with
// g.Wait() inside it wrapped as _ga_c1.JoinErr(g.Wait()).
func (w *walker) joined(c *analysis.Construct, join dst.Stmt, cName string) []dst.Stmt {
	joinCall := &dst.ExprStmt{X: &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(cName), Sel: dst.NewIdent(rtnames.Join)}}}
	if c.JoinCall != nil && analysis.RepanicsAfterWait(w.info, c.JoinCall) {
		if es, ok := join.(*dst.ExprStmt); ok && w.astOf(es.X) == c.JoinCall {
			if call, ok := es.X.(*dst.CallExpr); ok {
				if w.info.TypeOf(c.JoinCall) != nil && !isVoid(w.info.TypeOf(c.JoinCall)) {
					es.X = w.joinedCall(call, c.JoinCall, cName) // results discarded
				} else {
					es.X = w.rtCall(rtnames.Waited, dst.NewIdent(cName), call.Fun) // p.Wait(): joined also when it re-panics
				}
				return []dst.Stmt{join}
			}
		}
	}
	if c.JoinCall == nil || !w.wrapJoin(join, c, cName) {
		return []dst.Stmt{join, joinCall}
	}
	return []dst.Stmt{join}
}

// wrapJoin replaces g.Wait() inside the join statement (an assignment, a
// return, an if's init) by _ga_c1.JoinErr(g.Wait()); a plain wg.Wait()
// statement is left for Join to follow.
func (w *walker) wrapJoin(join dst.Stmt, c *analysis.Construct, cName string) bool {
	if es, ok := join.(*dst.ExprStmt); ok && w.astOf(es.X) == c.JoinCall {
		return false
	}
	found := false
	dstApply(join, func(e dst.Expr) dst.Expr {
		if call, ok := e.(*dst.CallExpr); ok && w.astOf(call) == c.JoinCall {
			found = true
			return w.joinedCall(call, c.JoinCall, cName)
		}
		return e
	})
	return found
}

// joinedCall wraps the Wait call whose result is used: c.JoinErr(g.Wait())
// for an error, rt.Joined(c, p.Wait()) for another single result (conc's
// ResultPool), rt.Joined2(c, p.Wait) for two (ResultErrorPool).
//
// A pool's Wait that re-panics a task's panic after waiting
// (analysis.RepanicsAfterWait) is called by rt.Waited1 or rt.Waited2
// instead, which join also when it panics.
func (w *walker) joinedCall(call *dst.CallExpr, a *ast.CallExpr, cName string) dst.Expr {
	t := w.info.TypeOf(a)
	if analysis.RepanicsAfterWait(w.info, a) {
		if tup, ok := t.(*types.Tuple); ok && tup.Len() == 2 {
			return w.rtCall(rtnames.Waited2, dst.NewIdent(cName), call.Fun)
		}
		return w.rtCall(rtnames.Waited1, dst.NewIdent(cName), call.Fun)
	}
	if tup, ok := t.(*types.Tuple); ok && tup.Len() == 2 {
		return w.rtCall(rtnames.Joined2, dst.NewIdent(cName), call.Fun)
	}
	if t != nil && !types.Identical(t, types.Universe.Lookup("error").Type()) {
		return w.rtCall(rtnames.Joined, dst.NewIdent(cName), call)
	}
	return &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(cName), Sel: dst.NewIdent(rtnames.JoinErr)}, Args: []dst.Expr{call}}
}

// typedTask reports whether fk's function literal is neither func() nor
// func() error (a task of conc's ContextPool or ResultPool), which
// rt.Bind and rt.BindErr cannot take.
func typedTask(fk *analysis.Fork) bool {
	t := fk.Body.Type
	return t.Params.NumFields() > 0 || (t.Results.NumFields() > 0 && !fk.ErrGroup)
}

// bindTyped binds a typed task literal to its child's task by a literal
// called at once, in the parent, where rt.Bind would fork:
//
//	p.Go(func(ctx context.Context) (T, error) { … })
//
// becomes
//
//	p.Go(func(_ga_k1 *_ga_rt.Task) func(ctx context.Context) (T, error) {
//		return func(ctx context.Context) (T, error) { _ga_rt.Attach(_ga_k1); defer _ga_rt.Detach(); … }
//	}(_ga_c1.Fork(i)))
//
// so whichever worker runs it attaches the task, as rt.Bind's wrapper does.
func (w *walker) bindTyped(lit *dst.FuncLit, fk *analysis.Fork) dst.Expr {
	k := w.childName(fk)
	typ := dst.Clone(lit.Type).(*dst.FuncType)
	typ.Decs = dst.FuncTypeDecorations{}
	w.child(lit, k, fk)
	lit.Body.List = append(attachStmts(k), lit.Body.List...)
	outer := &dst.FuncLit{
		Type: &dst.FuncType{Func: true, Params: &dst.FieldList{List: []*dst.Field{taskParam(k)}}, Results: &dst.FieldList{List: []*dst.Field{{Type: typ}}}},
		Body: &dst.BlockStmt{List: []dst.Stmt{&dst.ReturnStmt{Results: []dst.Expr{lit}}}},
	}
	return &dst.CallExpr{Fun: outer, Args: []dst.Expr{w.forkCall(fk)}}
}

// forkIndex is the index expression the runtime names the child by.
func (w *walker) forkIndex(fk *analysis.Fork) dst.Expr {
	if fk.Section >= 0 {
		return &dst.BasicLit{Kind: token.INT, Value: itoa(fk.Section)}
	}
	if v := fk.Construct.Index; v != nil && v.Name() != "_" && isInteger(v.Type()) {
		return &dst.CallExpr{Fun: dst.NewIdent("int"), Args: []dst.Expr{dst.NewIdent(v.Name())}}
	}
	return &dst.BasicLit{Kind: token.INT, Value: "-1"}
}

func (w *walker) forkCall(fk *analysis.Fork) dst.Expr {
	if caps := fk.Construct.RuntimeCap; len(caps) > 0 || fk.Construct.PoolLimit != nil {
		// _ga_rt.ForkIf(_ga_c1, i, cap(sem) > 1): see analysis/semaphore.go;
		// _ga_rt.ForkIf(_ga_c1, i, p.MaxGoroutines() != 1): analysis/knownpools.go
		var cond dst.Expr
		if p := fk.Construct.PoolLimit; p != nil {
			cond = &dst.BinaryExpr{X: &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(p.Name()), Sel: dst.NewIdent("MaxGoroutines")}}, Op: token.NEQ, Y: &dst.BasicLit{Kind: token.INT, Value: "1"}}
		}
		for _, v := range caps {
			c := &dst.BinaryExpr{X: &dst.CallExpr{Fun: dst.NewIdent("cap"), Args: []dst.Expr{dst.NewIdent(v.Name())}}, Op: token.GTR, Y: &dst.BasicLit{Kind: token.INT, Value: "1"}}
			if cond == nil {
				cond = c
			} else {
				cond = &dst.BinaryExpr{X: cond, Op: token.LAND, Y: c}
			}
		}
		return w.rtCall(rtnames.ForkIf, dst.NewIdent(w.constructs[fk.Construct]), w.forkIndex(fk), cond)
	}
	return &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(w.constructs[fk.Construct]), Sel: dst.NewIdent(rtnames.Fork)}, Args: []dst.Expr{w.forkIndex(fk)}}
}

// childName is the task variable of a construct's goroutines.
func (w *walker) childName(fk *analysis.Fork) string {
	return "_ga_k" + w.constructs[fk.Construct][len("_ga_c"):]
}

func taskParam(name string) *dst.Field {
	return &dst.Field{Names: []*dst.Ident{dst.NewIdent(name)}, Type: &dst.StarExpr{X: &dst.SelectorExpr{X: dst.NewIdent(rtAlias), Sel: dst.NewIdent(rtnames.Task)}}}
}

// goStmt rewrites a go statement: a fork of a construct passes the child's
// task into the goroutine; an unstructured goroutine starts a new root.
func (w *walker) goStmt(s *dst.GoStmt) {
	a, _ := w.astOf(s).(*ast.GoStmt)
	fk := w.res.Forks[a]
	w.rvals(s.Call.Args)
	if fk == nil || fk.Construct == nil || w.constructs[fk.Construct] == "" {
		if w.hbGo(s) {
			return
		}
		if lit, ok := s.Call.Fun.(*dst.FuncLit); ok {
			w.funcLit(lit, "") // a root of its own
		}
		return
	}
	w.change()
	switch {
	case fk.Body != nil:
		lit := s.Call.Fun.(*dst.FuncLit)
		k := w.childName(fk)
		lit.Type.Params.List = append([]*dst.Field{taskParam(k)}, lit.Type.Params.List...)
		s.Call.Args = append([]dst.Expr{w.forkCall(fk)}, s.Call.Args...)
		w.child(lit, k, fk)
		if w.res.Attach(fk.Construct) {
			lit.Body.List = append(attachStmts(k), lit.Body.List...)
		}
	case fk.Callee != nil && w.res.Clones[fk.Callee] && !(w.res.Attach(fk.Construct) && w.res.Prologue[fk.Callee.Origin()]):
		s.Call.Args = append([]dst.Expr{w.forkCall(fk)}, s.Call.Args...)
		renameFunc(s.Call.Fun)
	default:
		s.Call.Fun = w.rtCall(rtnames.Forked, w.forkCall(fk), w.rval(s.Call.Fun))
	}
}

// attachStmts are the first statements of a construct's goroutine that
// may reach a call through a value: _ga_rt.Attach(k); defer _ga_rt.Detach().
// A goroutine that starts a named function attaches in rt.Forked instead,
// and one started by wg.Go or g.Go in rt.Bind.
func attachStmts(k string) []dst.Stmt {
	call := func(name string, args ...dst.Expr) *dst.CallExpr {
		return &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(rtAlias), Sel: dst.NewIdent(name)}, Args: args}
	}
	return []dst.Stmt{&dst.ExprStmt{X: call(rtnames.Attach, dst.NewIdent(k))}, &dst.DeferStmt{Call: call(rtnames.Detach)}}
}

// goMethod rewrites wg.Go(f) and g.Go(f).
func (w *walker) goMethod(x *dst.CallExpr, fk *analysis.Fork) dst.Expr {
	sel := x.Fun.(*dst.SelectorExpr)
	sel.X = w.addr(sel.X)
	if fk.Construct == nil || w.constructs[fk.Construct] == "" || len(x.Args) != 1 {
		if w.hooks() && len(x.Args) == 1 {
			w.hbSpawnArg(x)
			return x
		}
		if lit, ok := x.Args[0].(*dst.FuncLit); ok {
			w.funcLit(lit, "")
		}
		return x
	}
	w.change()
	bind := rtnames.Bind
	if fk.ErrGroup {
		bind = rtnames.BindErr
	}
	c := dst.NewIdent(w.constructs[fk.Construct])
	switch {
	case fk.Body != nil && (typedTask(fk) || fk.Construct.PoolLimit != nil):
		x.Args[0] = w.bindTyped(x.Args[0].(*dst.FuncLit), fk)
	case fk.Body != nil:
		lit := x.Args[0].(*dst.FuncLit)
		k := w.childName(fk)
		lit.Type.Params.List = append([]*dst.Field{taskParam(k)}, lit.Type.Params.List...)
		w.child(lit, k, fk)
		x.Args[0] = w.rtCall(bind, c, w.forkIndex(fk), lit)
	case fk.Callee != nil && w.res.Clones[fk.Callee]:
		f := w.rval(x.Args[0])
		renameFunc(f)
		x.Args[0] = w.rtCall(bind, c, w.forkIndex(fk), f)
	default:
		x.Args[0] = w.rtCall(rtnames.Forked, w.forkCall(fk), w.rval(x.Args[0]))
	}
	return x
}

// child rewrites a goroutine body with its task k; a worker's item loop
// (a range over the pool's channel, or a loop taking a counter's indices)
// starts a block per item.
func (w *walker) child(lit *dst.FuncLit, k string, fk *analysis.Fork) {
	body := lit.Body
	v := w.with(k)
	v.block(body)
	if a, ok := w.astOf(lit).(*ast.FuncLit); ok {
		body.List = append(v.freshFields(a.Type.Params, a.Type.Results), body.List...)
	}
	v.itemBlocks(body, k, fk)
	v.drains(body, k, fk)
}

// itemBlocks starts a block per item in the item loop of worker fk, a
// statement of body (a range over the pool's channel, or a loop taking a
// counter's indices), and returns the worker to its own block after it.
func (w *walker) itemBlocks(body *dst.BlockStmt, k string, fk *analysis.Fork) {
	v := w
	loop := fk.ItemLoop()
	if loop == nil {
		return
	}
	for i, s := range body.List {
		if v.astOf(s) != loop {
			continue
		}
		var lb *dst.BlockStmt
		switch r := s.(type) {
		case *dst.RangeStmt:
			lb = r.Body
		case *dst.ForStmt:
			lb = r.Body
		default:
			continue
		}
		lb.List = append([]dst.Stmt{&dst.ExprStmt{X: &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(k), Sel: dst.NewIdent(rtnames.Item)}}}}, lb.List...)
		end := &dst.ExprStmt{X: &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(k), Sel: dst.NewIdent(rtnames.EndItems)}}}
		body.List = append(body.List[:i+1], append([]dst.Stmt{end}, body.List[i+1:]...)...)
		return
	}
}

func renameFunc(f dst.Expr) {
	switch f := f.(type) {
	case *dst.Ident:
		f.Name = cloneName(f.Name)
	case *dst.SelectorExpr:
		f.Sel.Name = cloneName(f.Sel.Name)
	case *dst.IndexExpr:
		renameFunc(f.X)
	case *dst.IndexListExpr:
		renameFunc(f.X)
	case *dst.ParenExpr:
		renameFunc(f.X)
	}
}

// dstApply replaces the expressions in n, bottom-up, with f's results; it
// does not enter function literals.
func dstApply(n dst.Node, f func(dst.Expr) dst.Expr) {
	dstutil.Apply(n, func(c *dstutil.Cursor) bool {
		_, lit := c.Node().(*dst.FuncLit)
		return !lit
	}, func(c *dstutil.Cursor) bool {
		if e, ok := c.Node().(dst.Expr); ok {
			if r := f(e); r != e {
				c.Replace(r)
			}
		}
		return true
	})
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// isVoid reports whether t is the type of a call without results.
func isVoid(t types.Type) bool {
	tup, ok := t.(*types.Tuple)
	return ok && tup.Len() == 0
}
