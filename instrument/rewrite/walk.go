package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"

	"github.com/dave/dst/decorator"
	"github.com/goanomaly/goanomaly/instrument/rtnames"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/plan"
)

// walker rewrites the statements and expressions of one function body.
// task is the name of the task variable in scope, or "" where code runs
// outside any construct and nothing is checked.
type walker struct {
	*fileRewriter
	dec        *decorator.Decorator
	task       string
	outer      *analysis.Construct            // outermost construct of this function being rewritten, nil in clones
	cur        *analysis.Construct            // innermost construct whose code this is, nil in clones
	inClone    bool                           // rewriting a checked clone: its constructs are the original's, already in the plan
	guarded    bool                           // in the version of a construct that runs when its guard holds
	silent     bool                           // in the fully checked copy of a versioned construct: recorded by the other version
	constructs map[*analysis.Construct]string // construct → its variable name
	used       map[string]bool                // task variables referenced
	stmtsSeen  *[]dst.Stmt                    // original statements, for line directives
	coal       *coalescing                    // the loop whose checks may move before it, see coalesce.go
	deferred   *dst.CallExpr                  // the call of the defer statement being rewritten (plaincall.go)
	listed     *ast.CallExpr                  // the call of the defer statement the enclosing stmts is rewriting, which it hooks around (plainBracket, foreignNext)
	touched    *bool                          // the function changed
	sampled    *analysis.Construct            // the root construct being rewritten as a dormant binary's checked branch (dormant.go)
	fed        bool                           // in the version of an -hb thread's construct fed to the happens-before engine: everything checked (hbfed.go)
	// spec is the proof of the callback whose pruned copy this is, and
	// callback its entry in the plan (specialize.go).
	spec     *analysis.HeapProof
	callback *plan.Construct
	// privateVars are variables whose accesses here need no check: a
	// loop's new copy in its header (loopvars.go).
	privateVars map[*types.Var]bool
	// inComm: rewriting a select case's send or receive, which must keep
	// its form (x = <-c is not wrapped as a Set; its left side is
	// evaluated after the receive anyway).
	inComm bool
}

func (fr *fileRewriter) walker(dec *decorator.Decorator, task string) *walker {
	touched := false
	return &walker{fileRewriter: fr, dec: dec, task: task, constructs: map[*analysis.Construct]string{}, used: map[string]bool{}, touched: &touched, stmtsSeen: new([]dst.Stmt)}
}

// with returns a walker for a nested region whose checks use task.
func (w *walker) with(task string) *walker {
	v := *w
	v.task = task
	return &v
}

func (w *walker) astOf(n dst.Node) ast.Node { return w.dec.Ast.Nodes[n] }

// changed records a rewrite in the current function.
func (w *walker) change() {
	*w.touched = true
	w.fileRewriter.changed = true
}

// taskExpr is the task to pass: the variable in scope, or nil.
func (w *walker) taskExpr() dst.Expr {
	if w.task == "" {
		return dst.NewIdent("nil")
	}
	w.used[w.task] = true
	return dst.NewIdent(w.task)
}

// anchor puts a /*line file:line:col*/ directive before every original
// statement seen, so the lines that rewriting adds shift nothing.
func (w *walker) anchor() {
	for _, s := range *w.stmtsSeen {
		a := w.astOf(s)
		if a == nil {
			continue
		}
		p := w.pkg.Fset.Position(a.Pos())
		s.Decorations().Before = dst.NewLine // the directive must sit right before the statement
		s.Decorations().Start.Append(lineDirective(p, true))
	}
}

func (w *walker) block(b *dst.BlockStmt) {
	if b != nil {
		b.List = w.stmts(b.List)
	}
}

// stmts rewrites a statement list, including the constructs that start in it.
func (w *walker) stmts(list []dst.Stmt) []dst.Stmt {
	var out []dst.Stmt
	decls := map[*analysis.Construct]*dst.GenDecl{} // constructs joined by defer wg.Wait(), see deferjoin.go
	for i := 0; i < len(list); i++ {
		if c := w.deferredOf(list[i]); c != nil {
			pre, decl := w.deferJoin(c)
			decls[c] = decl
			out = append(out, pre...)
		}
		if c := w.constructAt(list[i]); c != nil && c.Deferred != nil {
			out = append(out, w.construct(c, list[i:])...) // the rest of the body
			w.declareTask(c, decls[c])
			break
		}
		if c := w.constructAt(list[i]); c != nil && w.dormantTail(c, list[i:i+c.Join-c.First+1], list[i+c.Join-c.First+1:]) {
			n := c.Join - c.First
			out = append(out, w.dormantWithTail(c, list[i:i+n+1], list[i+n+1:])...) // the rest of the list too
			break
		}
		if c := w.constructAt(list[i]); c != nil {
			n := c.Join - c.First
			out = append(out, w.construct(c, list[i:i+n+1])...)
			i += n
			continue
		}
		out = append(out, w.hbBefore(list[i])...)
		out = append(out, w.hbBareReturn(list[i])...)
		hoisted := w.hoistRange(list[i])
		w.seen(list[i])
		c := w.coalesceStart(list[i])
		slow := w.coalesceSlow(c, list[i])
		after := w.hbAfter(list[i]) // before stmt rewrites it: read from the original
		plainAfter, plainBefore := w.plainBracket(list[i])
		listed := w.listed
		w.listed = analysis.ListedDefer(w.astOf(list[i]))
		w.stmt(list[i])
		w.listed = listed
		out = append(out, plainAfter...)
		out = append(out, w.scopeTemp(hoisted, w.coalesceEnd(c, list[i], slow))...)
		out = append(out, plainBefore...)
		out = append(out, after...)
		out = append(out, w.redeclaredChecks(list[i])...)
		out = append(out, w.freshVars(list[i])...)
	}
	if len(w.gotoLabels()) > 0 {
		out = declareFirst(out)
	}
	return out
}

func (w *walker) constructAt(s dst.Stmt) *analysis.Construct {
	a, _ := w.astOf(s).(ast.Stmt)
	if a == nil {
		return nil
	}
	for _, c := range w.res.Constructs {
		if c.List[c.First] == a {
			return c
		}
	}
	return nil
}

// seen records a statement of a statement list, to anchor to its line.
func (w *walker) seen(s dst.Stmt) {
	if w.astOf(s) != nil {
		*w.stmtsSeen = append(*w.stmtsSeen, s)
	}
}

func (w *walker) stmt(s dst.Stmt) {
	switch s := s.(type) {
	case *dst.AssignStmt:
		w.assign(s)
	case *dst.IncDecStmt:
		s.X = w.lval(s.X, opRW)
	case *dst.ExprStmt:
		s.X = w.rval(s.X)
	case *dst.GoStmt:
		w.goStmt(s)
	case *dst.DeferStmt:
		if w.hbDeferred(s) {
			break
		}
		w.deferred = s.Call
		s.Call = w.call(s.Call).(*dst.CallExpr)
		w.deferred = nil
	case *dst.ReturnStmt:
		w.rvals(s.Results)
	case *dst.SendStmt:
		s.Chan, s.Value = w.rval(s.Chan), w.rval(s.Value)
		if w.hooks() {
			w.hbSend(s)
		}
	case *dst.DeclStmt:
		if g, ok := s.Decl.(*dst.GenDecl); ok {
			for _, sp := range g.Specs {
				if vs, ok := sp.(*dst.ValueSpec); ok {
					w.rvals(vs.Values)
				}
			}
		}
	case *dst.LabeledStmt:
		w.stmt(s.Stmt)
	case *dst.BlockStmt:
		w.block(s)
	case *dst.IfStmt:
		w.optStmt(s.Init)
		s.Cond = w.rval(s.Cond)
		w.block(s.Body)
		w.optStmt(s.Else)
	case *dst.ForStmt:
		w.forStmt(s)
	case *dst.RangeStmt:
		w.rangeStmt(s)
	case *dst.SwitchStmt:
		w.optStmt(s.Init)
		if s.Tag != nil {
			s.Tag = w.rval(s.Tag)
		}
		w.clauses(s.Body)
	case *dst.TypeSwitchStmt:
		w.optStmt(s.Init)
		w.optStmt(s.Assign)
		w.clauses(s.Body)
	case *dst.SelectStmt:
		w.clauses(s.Body)
	}
}

func (w *walker) optStmt(s dst.Stmt) {
	if s != nil {
		w.stmt(s)
	}
}

func (w *walker) clauses(b *dst.BlockStmt) {
	for _, c := range b.List {
		switch c := c.(type) {
		case *dst.CaseClause:
			w.rvals(c.List)
			c.Body = w.stmts(c.Body)
		case *dst.CommClause:
			comm := *w
			comm.inComm = true // a case stays a send or a receive
			comm.optStmt(c.Comm)
			c.Body = w.stmts(c.Body)
			if w.hooks() {
				c.Body = append([]dst.Stmt{w.afterHook()}, c.Body...) // the case's receive or send returned
			}
		}
	}
}

func (w *walker) assign(s *dst.AssignStmt) {
	if s.Tok == token.ASSIGN && !w.inComm && w.setAfter(s) {
		return
	}
	w.rvals(s.Rhs)
	switch s.Tok {
	case token.DEFINE:
		// A variable redeclared in a := keeps its name on the left (nothing
		// else is legal there); redeclaredChecks checks its write after.
	case token.ASSIGN:
		for i, l := range s.Lhs {
			s.Lhs[i] = w.lval(l, opW)
		}
	default: // op-assign
		s.Lhs[0] = w.lval(s.Lhs[0], opRW)
	}
}

// rangeStmt rewrites a range loop. A shared slice or pointer to an array
// ranged over with a value variable is read element by element: the loop
// body starts with a check of X[key]. What X itself reads: rangelen.go.
func (w *walker) rangeStmt(s *dst.RangeStmt) {
	a, _ := w.astOf(s).(*ast.RangeStmt)
	if s.Tok == token.ASSIGN {
		if s.Key != nil {
			s.Key = w.lval(s.Key, opW)
		}
		if s.Value != nil {
			s.Value = w.lval(s.Value, opW)
		}
	}
	var elem dst.Stmt
	if w.task != "" && a != nil && rangeValue(a) != nil && s.Tok == token.DEFINE {
		elem = w.rangeElemCheck(a, s)
	}
	if !w.rangeUnevaluated(a) { // else nothing of X is read (rangelen.go)
		s.X = w.rangeX(s.X)
	}
	w.block(s.Body)
	if w.hooks() {
		w.hbRangeChan(a, s)
	}
	if a != nil && s.Tok == token.DEFINE && w.task != "" {
		var ids []*ast.Ident
		for _, e := range []ast.Expr{a.Key, a.Value} {
			if id, ok := e.(*ast.Ident); ok {
				ids = append(ids, id)
			}
		}
		s.Body.List = append(w.freshIdents(ids), s.Body.List...)
	}
	if elem != nil {
		if rebind := rebindShadowed(a, s); rebind != nil {
			// The body in a block of its own: it may declare the loop's
			// names again (for _, e := range e.Elts { e := e.(*T) }).
			s.Body.List = []dst.Stmt{elem, rebind, &dst.BlockStmt{List: s.Body.List}}
		} else {
			s.Body.List = append([]dst.Stmt{elem}, s.Body.List...)
		}
		w.change()
	}
}

// rebindShadowed handles `for _, v := range v` (the variadic v ...string
// ranged over under its own name): the check of X[key] at the start of the
// body would see the loop's v, not the slice. The loop's variables that
// shadow the root of X are declared as _ga_k, _ga_v, and the body starts,
// after the check, with `k, v := _ga_k, _ga_v`, so X names the slice where
// the check reads it and the body, in a block of its own, sees its
// variables as written.
func rebindShadowed(a *ast.RangeStmt, s *dst.RangeStmt) dst.Stmt {
	root := rootIdent(a.X)
	if root == nil {
		return nil
	}
	var lhs, rhs []dst.Expr
	for _, p := range []struct {
		e    *dst.Expr
		a    ast.Expr
		name string
	}{{&s.Key, a.Key, "_ga_k"}, {&s.Value, a.Value, "_ga_v"}} {
		id, ok := p.a.(*ast.Ident)
		if !ok || id.Name != root.Name || id.Name == "_" {
			continue
		}
		*p.e = dst.NewIdent(p.name)
		lhs = append(lhs, dst.NewIdent(id.Name))
		rhs = append(rhs, dst.NewIdent(p.name))
	}
	if lhs == nil {
		return nil
	}
	return &dst.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: rhs}
}

// rootIdent returns the variable an expression of identifiers and
// selectors starts with: s of s.items.
func rootIdent(e ast.Expr) *ast.Ident {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return rootIdent(x.X)
	}
	return nil
}

// freshVars returns, for a statement declaring shared variables in checked
// code, the statements _ga_rt.New(task, &v) that forget the shadow of the
// new variables' memory (see rt.New).
func (w *walker) freshVars(s dst.Stmt) []dst.Stmt {
	if w.task == "" {
		return nil
	}
	var ids []*ast.Ident
	switch a := w.astOf(s).(type) {
	case *ast.AssignStmt:
		if a.Tok == token.DEFINE {
			for _, l := range a.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					ids = append(ids, id)
				}
			}
		}
	case *ast.DeclStmt:
		if g, ok := a.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, sp := range g.Specs {
				ids = append(ids, sp.(*ast.ValueSpec).Names...)
			}
		}
	}
	return w.freshIdents(ids)
}

// freshFields returns, in checked code, the statements _ga_rt.New(task, &v)
// for the shared parameters, receiver and named results in lists, to run
// first in the function's body. Like a declared variable, a parameter whose
// address reaches checked code must live on the heap and start with no
// history (see rt.New): on the goroutine's stack its memory held a
// finished sibling's objects, or will when the stack moves.
func (w *walker) freshFields(lists ...*ast.FieldList) []dst.Stmt {
	if w.task == "" {
		return nil
	}
	var ids []*ast.Ident
	for _, l := range lists {
		if l == nil {
			continue
		}
		for _, f := range l.List {
			ids = append(ids, f.Names...)
		}
	}
	return w.freshIdents(ids)
}

// freshIdents returns the statements _ga_rt.New(task, &v) for the shared
// variables among ids.
func (w *walker) freshIdents(ids []*ast.Ident) []dst.Stmt {
	var out []dst.Stmt
	for _, id := range ids {
		if id == nil || id.Name == "_" {
			continue
		}
		v, ok := w.info.Defs[id].(*types.Var)
		if !ok || !w.res.Shared[v] && !w.res.Addressed[v] && !w.hbShared(v) {
			continue
		}
		w.change()
		out = append(out, &dst.ExprStmt{X: w.rtCall(rtnames.New, w.taskExpr(), &dst.UnaryExpr{Op: token.AND, X: dst.NewIdent(id.Name)})})
	}
	return out
}

// redeclaredChecks returns, for x, err := f() where x is an existing shared
// variable, the check of the write of x, _ga_rt.W(task, &x, site), to run
// right after the statement: the same block, nothing in between.
func (w *walker) redeclaredChecks(s dst.Stmt) []dst.Stmt {
	a, ok := w.astOf(s).(*ast.AssignStmt)
	if !ok || a.Tok != token.DEFINE || w.task == "" {
		return nil
	}
	var out []dst.Stmt
	for _, l := range a.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok || w.info.Defs[id] != nil || id.Name == "_" || !w.sharedLoc(id) {
			continue
		}
		w.record(id, rtnames.W, plan.Checked)
		w.change()
		site := siteLit(w.site(id.Pos(), id.Name))
		out = append(out, &dst.ExprStmt{X: w.rtCall(rtnames.W, w.taskExpr(), &dst.UnaryExpr{Op: token.AND, X: dst.NewIdent(id.Name)}, site)})
	}
	return out
}

// setAfter rewrites x = f() (one shared, addressable left side without
// calls, a right side with a call) as x = _ga_rt.Set(task, &x, site, f()),
// so the write is checked after f ran: with the locks f took held, as at
// the write itself. It reports whether it did.
func (w *walker) setAfter(s *dst.AssignStmt) bool {
	if w.task == "" || len(s.Lhs) != 1 || len(s.Rhs) != 1 {
		return false
	}
	lhs, _ := w.astOf(s.Lhs[0]).(ast.Expr)
	rhs, _ := w.astOf(s.Rhs[0]).(ast.Expr)
	if lhs == nil || rhs == nil || aggregate(w.info.TypeOf(lhs)) || !w.hasCall(rhs) || !duplicable(lhs) || !w.sharedLoc(lhs) || !addressable(lhs, w.info) {
		return false
	}
	if !types.Identical(w.info.TypeOf(lhs), w.info.TypeOf(rhs)) {
		return false // Set's T would not unify (sink = strconv.Itoa(i), sink an any): checked as a plain write
	}
	if v, ok := w.heapVerdict(lhs, rtnames.W); ok && v.Independent {
		return false // proven: the plain assignment records the verdict and checks nothing
	}
	w.change()
	w.record(lhs, rtnames.W, plan.Checked) // vet counts it like any checked write
	site := siteLit(w.site(lhs.Pos(), types.ExprString(lhs)))
	target := exprFromAST(lhs)
	s.Rhs[0] = w.rtCall(rtnames.Set, w.taskExpr(), &dst.UnaryExpr{Op: token.AND, X: target}, site, w.rval(s.Rhs[0]))
	s.Lhs[0] = w.addr(s.Lhs[0])
	return true
}

// hasCall reports whether evaluating e calls a function (not a conversion
// or a builtin) or receives.
func (w *walker) hasCall(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			tv := w.info.Types[n.Fun]
			found = !tv.IsType() && !tv.IsBuiltin()
		case *ast.UnaryExpr:
			found = found || n.Op == token.ARROW
		case *ast.FuncLit:
			return false
		}
		return !found
	})
	return found
}

// duplicable reports whether e can be evaluated a second time for its
// address with the same result: identifiers, fields, and elements indexed
// by identifiers or literals.
func duplicable(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return duplicable(x.X)
	case *ast.IndexExpr:
		_, lit := x.Index.(*ast.BasicLit)
		return duplicable(x.X) && (lit || duplicable(x.Index))
	case *ast.StarExpr:
		return duplicable(x.X)
	}
	return false
}
