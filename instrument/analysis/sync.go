package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// goMethod reports whether call is wg.Go(f) ("wg") or an errgroup's
// g.Go(f) ("errgroup").
func (f *finder) goMethod(call *ast.CallExpr) string {
	switch f.methodName(call) {
	case "(*sync.WaitGroup).Go":
		return "wg"
	case "(*golang.org/x/sync/errgroup.Group).Go":
		return "errgroup"
	}
	return f.wrapGo(call) // wrapfinder.go
}

// methodName is the full name of the function or method call calls, or "".
func (f *finder) methodName(call *ast.CallExpr) string {
	if fn := f.callee(call); fn != nil {
		return fn.FullName()
	}
	return ""
}

// callee is the statically known function or method of call, or nil.
func (f *finder) callee(call *ast.CallExpr) *types.Func { return Callee(f.info, call.Fun) }

func (f *finder) calleeOf(e ast.Expr) *types.Func { return Callee(f.info, e) }

// Callee is the function or method that calling fun statically calls: a
// function, possibly instantiated (f[T]), or a method of a concrete type.
// It is nil for interface methods, function values and method expressions
// (T.M, whose receiver is an argument).
func Callee(info *types.Info, fun ast.Expr) *types.Func {
	fun = ast.Unparen(fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	var id *ast.Ident
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		if s := info.Selections[f]; s != nil && s.Kind() != types.MethodVal {
			return nil
		}
		id = f.Sel
	default:
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	if fn != nil {
		if sig := fn.Type().(*types.Signature); sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
			return nil // dynamic
		}
		fn = fn.Origin() // a method of an instantiated type: its declaration's, as a generic function's identifier already gives
	}
	return fn
}

// recvText is the text of the receiver of a method call, without & and parens.
func recvText(call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	return exprText(sel.X)
}

func exprText(e ast.Expr) string {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	return types.ExprString(e)
}

// syncOf finds how the goroutine started by n signals its end.
func (f *finder) syncOf(n ast.Node) (syncObj, string) {
	switch n := n.(type) {
	case *ast.CallExpr:
		return syncObj{kind: f.goMethod(n), expr: recvText(n)}, ""
	case *ast.GoStmt:
		body, args := f.goBody(n.Call)
		if body == nil {
			return syncObj{}, f.opaqueGo(n.Call)
		}
		if o, why, ok := f.signals(body, args); ok {
			return o, why
		}
		it := "it"
		if _, ok := ast.Unparen(n.Call.Fun).(*ast.Ident); ok && f.callee(n.Call) == nil {
			it = types.ExprString(n.Call.Fun) + ", the function literal it runs," // taskvar.go
		}
		if ch := f.feeds(body); ch != "" {
			return syncObj{}, "goroutine is not joined: " + it + " signals no WaitGroup, errgroup or join channel, and feeds channel " + ch + " (a pipe, ordered by the channel, which the model does not follow)"
		}
		if ch, callee := f.handsChannel(body); ch != "" {
			return syncObj{}, "goroutine is not joined: " + it + " signals no WaitGroup, errgroup or join channel, and passes channel " + ch + " to " + callee + " (a pipe, ordered by the channel, which the model does not follow)"
		}
		return syncObj{}, "goroutine is never joined (" + it + " signals no WaitGroup, errgroup or join channel)"
	}
	return syncObj{}, "internal error: not a fork"
}

// opaqueGo says why the body a go statement's call runs cannot be seen.
func (f *finder) opaqueGo(call *ast.CallExpr) string {
	const tail = "; its join cannot be seen"
	fn := f.callee(call)
	switch {
	case fn == nil:
		if lit, why := f.taskLit(call.Fun); why != "" {
			return "goroutine runs a function value, " + types.ExprString(call.Fun) + ": " + why + tail
		} else if lit != nil && len(call.Args) > 0 {
			return "goroutine runs " + types.ExprString(call.Fun) + ", a function value started with arguments, which are not followed" + tail
		}
		return "goroutine runs a function value, " + types.ExprString(call.Fun) + tail
	case fn.Pkg() != f.pkg:
		return "goroutine runs " + fn.FullName() + ", declared in another package" + tail
	}
	return "goroutine runs " + fn.Name() + ", whose body is not analysed (no body, or a file left as is)" + tail
}

// feeds returns the text of a channel the goroutine body sends on or
// closes (outside nested goroutines), or "".
func (f *finder) feeds(body *ast.BlockStmt) string {
	ch := ""
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			return false
		case *ast.SendStmt:
			ch = exprText(n.Chan)
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "close" && len(n.Args) == 1 {
				if _, ok := f.info.Uses[id].(*types.Builtin); ok {
					ch = exprText(n.Args[0])
				}
			}
		}
		return ch == ""
	})
	return ch
}

// handsChannel returns the text of a channel the goroutine body passes to
// a call (outside nested goroutines), and the callee's text, or "".
func (f *finder) handsChannel(body *ast.BlockStmt) (ch, callee string) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			return false
		case *ast.CallExpr:
			for _, a := range n.Args {
				if isChan(f.info.TypeOf(a)) && ch == "" {
					ch, callee = exprText(a), types.ExprString(n.Fun)
				}
			}
		}
		return ch == ""
	})
	return ch, callee
}

// goBody returns the body run by a go statement's call and, for a named
// function, a map from its parameters to the call's argument texts.
func (f *finder) goBody(call *ast.CallExpr) (*ast.BlockStmt, map[types.Object]string) {
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		return lit.Body, nil
	}
	if lit, _ := f.taskLit(call.Fun); lit != nil && len(call.Args) == 0 {
		return lit.Body, nil // a variable holding a literal (taskvar.go)
	}
	fn := f.callee(call)
	decl := f.res.Decls[fn]
	if decl == nil || decl.Body == nil {
		return nil, nil
	}
	args := map[types.Object]string{}
	i := 0
	for _, field := range decl.Type.Params.List {
		for _, name := range field.Names {
			if i < len(call.Args) {
				args[f.info.Defs[name]] = exprText(call.Args[i])
			}
			i++
		}
	}
	return decl.Body, args
}

// signals finds wg.Done() or a send on a channel in body: what the goroutine
// signals at its end. args maps a named function's parameters to the caller's
// expressions. When the signal is found but is not the goroutine's last
// action, why says so (lastSignal).
func (f *finder) signals(body *ast.BlockStmt, args map[types.Object]string) (o syncObj, why string, ok bool) {
	text := func(e ast.Expr) string {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok && args != nil {
			if s, ok := args[f.info.Uses[id]]; ok {
				return s
			}
		}
		return exprText(e)
	}
	var dones []*ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			return false
		case *ast.CallExpr:
			if f.methodName(n) == "(*sync.WaitGroup).Done" {
				sel := ast.Unparen(n.Fun).(*ast.SelectorExpr)
				if len(dones) == 0 {
					o = syncObj{kind: "wg", expr: text(sel.X)}
				}
				if text(sel.X) == o.expr { // another WaitGroup's Done is a siblings' barrier (siblings.go)
					dones = append(dones, n)
				}
			}
		}
		return true
	})
	if o.kind != "" {
		return o, f.lastSignal(body, dones), true
	}
	if len(body.List) > 0 {
		if send, ok := body.List[len(body.List)-1].(*ast.SendStmt); ok {
			o = syncObj{kind: "chan", expr: text(send.Chan)}
			if hasDefer(body) {
				return o, "the goroutine sends on its join channel before its deferred calls run; the join does not wait for them", true
			}
			return o, "", true
		}
	}
	return o, "", false
}

// lastSignal explains why the WaitGroup's Done calls in body are not the
// goroutine's last action, or returns "". A goroutine is finished at the
// join only if its one Done runs after everything else it does: a `defer
// wg.Done()` standing at the top level of the body with no defer before it
// (deferred calls run last-in first-out, so it runs last), or a final
// top-level `wg.Done()` in a body that defers nothing (any deferred call
// would run after it).
func (f *finder) lastSignal(body *ast.BlockStmt, dones []*ast.CallExpr) string {
	const outlives = "; the join does not wait for what runs after it"
	if len(dones) != 1 {
		return "the goroutine calls Done more than once" + outlives
	}
	done := dones[0]
	for i, s := range body.List {
		if d, ok := s.(*ast.DeferStmt); ok && (d.Call == done || f.endsWith(d.Call, done)) {
			if f.hasImpureDefer(&ast.BlockStmt{List: body.List[:i]}) {
				return "the goroutine defers Done after other calls, so Done runs before them (deferred calls run last-in first-out)" + outlives
			}
			return ""
		}
	}
	k := len(body.List) - 1
	for k > 0 && f.tailRelease(body.List[k]) {
		k-- // a semaphore's release may follow Done (semaphore.go)
	}
	if e, ok := body.List[k].(*ast.ExprStmt); ok && ast.Unparen(e.X) == done {
		if f.hasImpureDefer(body) {
			return "the goroutine calls Done before its deferred calls run" + outlives
		}
		return ""
	}
	return "the goroutine calls Done before its last statement (or inside other code)" + outlives
}

// endsWith reports whether call calls a function literal whose last
// statement is done, but for semaphore releases after it, and which
// defers nothing: `defer func() { …; wg.Done(); <-sem }()`.
func (f *finder) endsWith(call *ast.CallExpr, done *ast.CallExpr) bool {
	lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit)
	if !ok || len(lit.Body.List) == 0 || hasDefer(lit.Body) {
		return false
	}
	k := len(lit.Body.List) - 1
	for k > 0 && f.tailRelease(lit.Body.List[k]) {
		k--
	}
	e, ok := lit.Body.List[k].(*ast.ExprStmt)
	return ok && ast.Unparen(e.X) == done
}

// tailRelease reports whether s, after a goroutine's Done, may be a
// semaphore's release: `<-ch` on a variable, not the join receive of a
// construct the goroutine runs. If ch is no semaphore of the construct,
// the receive still counts as communication (bodySyncs), so accepting it
// here only lets semaphores through.
func (f *finder) tailRelease(s ast.Stmt) bool {
	if !isRelease(s, nil, f.info) {
		return false
	}
	return !f.joinOps[ast.Unparen(s.(*ast.ExprStmt).X)]
}

// hasImpureDefer reports whether b defers anything but semaphore
// releases and Done (pureDefer), outside function literals.
func (f *finder) hasImpureDefer(b *ast.BlockStmt) bool {
	found := false
	inspectNoLit(b, func(n ast.Node, _ []ast.Node) {
		if d, ok := n.(*ast.DeferStmt); ok && !f.pureRelease(d) {
			found = true
		}
	})
	return found
}

// pureRelease reports whether d defers a literal made only of semaphore
// releases (tailRelease).
func (f *finder) pureRelease(d *ast.DeferStmt) bool {
	lit, ok := ast.Unparen(d.Call.Fun).(*ast.FuncLit)
	if !ok || len(d.Call.Args) > 0 || len(lit.Body.List) == 0 {
		return false
	}
	for _, s := range lit.Body.List {
		if !f.tailRelease(s) {
			return false
		}
	}
	return true
}

// hasDefer reports whether a defer statement stands in b outside function
// literals.
func hasDefer(b *ast.BlockStmt) bool {
	found := false
	inspectNoLit(b, func(n ast.Node, _ []ast.Node) {
		if _, ok := n.(*ast.DeferStmt); ok {
			found = true
		}
	})
	return found
}

// joins returns the Wait call of obj in s (wg.Wait(), g.Wait() as a statement,
// in an assignment, a return or an if's init), or nil.
func (f *finder) joins(s ast.Stmt, obj syncObj) *ast.CallExpr {
	var exprs []ast.Expr
	switch s := s.(type) {
	case *ast.ExprStmt:
		exprs = []ast.Expr{s.X}
	case *ast.AssignStmt:
		exprs = s.Rhs
	case *ast.ReturnStmt:
		exprs = s.Results
	case *ast.IfStmt:
		if s.Init != nil {
			return f.joins(s.Init, obj)
		}
		exprs = []ast.Expr{s.Cond}
	}
	want := map[string]string{"wg": "(*sync.WaitGroup).Wait", "errgroup": "(*golang.org/x/sync/errgroup.Group).Wait"}[obj.kind]
	for _, e := range exprs {
		if call, ok := ast.Unparen(e).(*ast.CallExpr); ok && want != "" && f.methodName(call) == want && recvText(call) == obj.expr {
			return call
		}
		if call := f.wrapJoins(e, obj, isExprStmt(s)); call != nil {
			return call
		}
	}
	return nil
}

// chanJoins reports whether s receives from the join channel: `<-ch`, or a
// loop whose body only receives from it.
func (f *finder) chanJoins(s ast.Stmt, obj syncObj) bool {
	switch s := s.(type) {
	case *ast.ExprStmt:
		return isRecv(s.X, obj.expr)
	case *ast.AssignStmt:
		return len(s.Rhs) == 1 && isRecv(s.Rhs[0], obj.expr)
	case *ast.ForStmt:
		return onlyRecv(s.Body, obj.expr)
	case *ast.RangeStmt:
		return onlyRecv(s.Body, obj.expr)
	}
	return false
}

func isRecv(e ast.Expr, ch string) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	return ok && u.Op == token.ARROW && exprText(u.X) == ch
}

func onlyRecv(b *ast.BlockStmt, ch string) bool {
	if len(b.List) != 1 {
		return false
	}
	s := b.List[0]
	switch s := s.(type) {
	case *ast.ExprStmt:
		return isRecv(s.X, ch)
	case *ast.AssignStmt:
		return len(s.Rhs) == 1 && isRecv(s.Rhs[0], ch)
	}
	return false
}

// byChannel is syncIn's answer for channel operations.
const byChannel = "communicates by channel"

// syncIn returns how the code under root synchronizes in ways the model does
// not order (byChannel, or syncWhy's reason), or "". Nodes in allowed are
// not counted (a join's send, a worker pool's channel operand), nor the
// operations on recognised constructs' own join channels (joinOps); stop
// says which subtrees not to enter.
func (f *finder) syncIn(root ast.Node, allowed map[ast.Node]bool, stop func(ast.Node) bool) string {
	why := ""
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil || allowed[n] || f.joinOps[n] || f.sems[n] || stop(n) {
			return false
		}
		switch n := n.(type) {
		case *ast.SendStmt, *ast.SelectStmt:
			why = byChannel
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				why = byChannel
			}
		case *ast.RangeStmt:
			if isChan(f.info.TypeOf(n.X)) && !allowed[n.X] {
				why = byChannel
			}
		case *ast.CallExpr:
			why = f.syncWhy(n)
		}
		return why == ""
	})
	if why == "" {
		why = f.coordinates(root, stop)
	}
	return why
}

func isFuncLit(n ast.Node) bool { _, ok := n.(*ast.FuncLit); return ok }
func isGoStmt(n ast.Node) bool  { _, ok := n.(*ast.GoStmt); return ok }

// parentSyncs explains why the parent's code between the first fork and the
// join synchronizes with the goroutines in ways the model does not cover, or
// returns "".
func (f *finder) parentSyncs(stmts []ast.Stmt, obj syncObj) string {
	for _, s := range stmts {
		switch why := f.syncIn(s, nil, isFuncLit); why {
		case "":
		case byChannel:
			return "the parent communicates by channel while the goroutines run"
		default:
			return why
		}
	}
	if len(stmts) > 0 { // a critical section can span the parent's statements
		block := &ast.BlockStmt{Lbrace: stmts[0].Pos(), List: stmts, Rbrace: stmts[len(stmts)-1].End()}
		return f.coordinates(block, isFuncLit)
	}
	return ""
}

// bodySyncs explains why a goroutine body synchronizes in ways the model
// does not cover, or returns "". The final send on a join channel and the
// range over a worker pool's channel are allowed.
func (f *finder) bodySyncs(body *ast.BlockStmt, obj syncObj, items *ast.RangeStmt) string {
	allowed := map[ast.Node]bool{}
	if n := len(body.List); n > 0 && obj.kind == "chan" {
		allowed[body.List[n-1]] = true
	}
	if items != nil {
		allowed[items.X] = true
	}
	why := f.syncIn(body, allowed, isGoStmt)
	if why == byChannel {
		return "goroutines of the construct communicate by channel"
	}
	return why
}

// syncWhy names synchronization the model does not order: sync.Cond,
// sync.Once, closing channels.
func (f *finder) syncWhy(call *ast.CallExpr) string {
	name := f.methodName(call)
	switch {
	case strings.HasPrefix(name, "(*sync.Cond)."):
		return "uses sync.Cond"
	case strings.HasPrefix(name, "(*sync.Once)."), name == "sync.OnceFunc", name == "sync.OnceValue", name == "sync.OnceValues":
		return "uses sync.Once"
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "close" {
		if _, ok := f.info.Uses[id].(*types.Builtin); ok {
			return "closes a channel while the goroutines run"
		}
	}
	return ""
}

func isChan(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

// fork describes the goroutine started by n, one of the construct's
// statements stmts, or notes why it is unstructured.
func (f *finder) fork(n ast.Node, obj syncObj, stmts []ast.Stmt) *Fork {
	fk := &Fork{Node: n}
	var body *ast.BlockStmt
	switch n := n.(type) {
	case *ast.GoStmt:
		if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
			fk.Body = lit
		} else {
			fk.Callee = f.callee(n.Call)
		}
		body, _ = f.goBody(n.Call)
		if fk.Body == nil && fk.Callee == nil && body != nil {
			fk.Value, _ = f.taskLit(n.Call.Fun)
			fk.ValueVar = f.info.Uses[ast.Unparen(n.Call.Fun).(*ast.Ident)].(*types.Var)
			if why := f.valueWorkerWhy(fk, obj, stmts); why != "" {
				f.unstructured([]ast.Node{n}, "goroutine runs "+fk.ValueVar.Name()+", a function value: "+why)
				return nil
			}
		}
	case *ast.CallExpr:
		fk.ErrGroup = f.goMethod(n) == "errgroup" || f.wrapGoErr(n)
		if len(n.Args) == 1 {
			switch a := ast.Unparen(n.Args[0]).(type) {
			case *ast.FuncLit:
				fk.Body = a
				body = a.Body
			default:
				fk.Callee = f.calleeOf(a)
				if d := f.res.Decls[fk.Callee]; d != nil {
					body = d.Body
				}
				if fk.Callee == nil {
					// A function value: run through its prologue, followed
					// as the worker when it is a literal held by a variable
					// (taskvar.go).
					lit, why := f.taskLit(a)
					if lit != nil {
						fk.Value, fk.ValueVar = lit, f.info.Uses[a.(*ast.Ident)].(*types.Var)
						why = f.valueWorkerWhy(fk, obj, stmts)
					}
					if why != "" {
						fk.Value, fk.ValueVar, fk.ValueWhy = nil, nil, types.ExprString(a)+", a function value: "+why
					} else if lit != nil {
						body = lit.Body
					}
				}
			}
		}
	}
	if body != nil {
		fk.Items = itemsLoop(body, f.info)
		if fk.Items == nil && fk.Lit() != nil {
			fk.Counter, fk.CounterVar = f.counterLoop(body) // counter.go
		}
		if why := f.bodySyncs(body, obj, fk.Items); why != "" {
			f.unstructured([]ast.Node{n}, why)
			return nil
		}
	}
	return fk
}

// itemsLoop finds a worker's `for x := range ch` at the top level of its body.
func itemsLoop(body *ast.BlockStmt, info *types.Info) *ast.RangeStmt {
	for _, s := range body.List {
		if r, ok := s.(*ast.RangeStmt); ok && isChan(info.TypeOf(r.X)) {
			return r
		}
	}
	return nil
}

// closedBefore reports whether close(ch) is called in stmts.
func (f *finder) closedBefore(stmts []ast.Stmt, ch ast.Expr) bool {
	want, found := exprText(ch), false
	for _, s := range stmts {
		ast.Inspect(s, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "close" && len(call.Args) == 1 && exprText(call.Args[0]) == want {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// loopIndex returns a loop's index variable and, when cheap and without side
// effects, the expression counting its iterations (for i := 0; i < n; i++).
func (f *finder) loopIndex(loop ast.Stmt) (*types.Var, ast.Expr) {
	switch l := loop.(type) {
	case *ast.RangeStmt:
		var v *types.Var
		if id, ok := l.Key.(*ast.Ident); ok && l.Tok == token.DEFINE {
			v, _ = f.info.Defs[id].(*types.Var)
		}
		t := f.info.TypeOf(l.X)
		if t == nil || !simple(l.X) {
			return v, nil
		}
		if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			return v, l.X
		}
		switch t.Underlying().(type) {
		case *types.Slice, *types.Array:
			return v, &ast.CallExpr{Fun: ast.NewIdent("len"), Args: []ast.Expr{l.X}}
		}
		return v, nil
	case *ast.ForStmt:
		as, ok := l.Init.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || as.Tok != token.DEFINE {
			return nil, nil
		}
		v, _ := f.info.Defs[as.Lhs[0].(*ast.Ident)].(*types.Var)
		cond, ok := l.Cond.(*ast.BinaryExpr)
		// Only a loop of v++ runs cond.Y times: a stepped one (lo += bs)
		// runs fewer, and its bound can be far more than the run time may
		// reserve for it (lo < 1<<40 in blocks of 1<<36).
		inc, isInc := l.Post.(*ast.IncDecStmt)
		if isInc && inc.Tok == token.INC {
			if id, isID := ast.Unparen(inc.X).(*ast.Ident); !isID || f.info.Uses[id] != v {
				isInc = false
			}
		}
		if lit, isLit := as.Rhs[0].(*ast.BasicLit); ok && isLit && isInc && inc.Tok == token.INC && lit.Value == "0" && cond.Op == token.LSS && simple(cond.Y) {
			if id, ok := cond.X.(*ast.Ident); ok && f.info.Uses[id] == v {
				return v, cond.Y
			}
		}
		return v, nil
	}
	return nil, nil
}

// simple reports whether e can be evaluated again without side effects:
// identifiers, literals, selectors of those, len of those.
func simple(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.SelectorExpr:
		return simple(e.X)
	case *ast.CallExpr:
		id, ok := e.Fun.(*ast.Ident)
		return ok && id.Name == "len" && len(e.Args) == 1 && simple(e.Args[0])
	}
	return false
}
