package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A worker pool's channel may be filled by a producer goroutine while the
// workers drain it (gonum's integrate/quad):
//
//	jobs := make(chan int)
//	go func() { for i := range n { jobs <- i }; close(jobs) }()
//	for range workers { wg.Go(func() { for i := range jobs { … } }) }
//	wg.Wait()
//
// The producer is part of the construct, a section of its own, when:
//
//   - it only sends and closes: its body is loops (whose bodies are one
//     loop or one send) and sends on the channel, then close(ch) last, with
//     no defer; its expressions read nothing but its own locals, constants
//     and variables the construct does not write (ReadOnly), by name, and
//     call nothing but len, cap, min, max and conversions. A producer that
//     computes its items from memory is refused: each send orders what the
//     producer did before it before the item that receives it, and block
//     tags cannot express that order, so an item's write of what the
//     producer read earlier would be a false DATA RACE;
//   - the channel is a local this function makes, used by nothing but the
//     producer's sends and close and the workers' ranges;
//   - every worker drains the channel (no break, return or goto leaves its
//     range), and at least one worker runs: a start outside a loop, or a
//     loop of a constant count ≥ 1 or of runtime.GOMAXPROCS or NumCPU.
//     Then a worker's range ends only after the close, the producer's last
//     action, so the join waits for the producer too.
//
// Its items are concurrent with each other as in any pool; the producer's
// block, concurrent with them, has nothing to check.

// producerChan returns the channel a producer goroutine n sends on and
// closes, or nil with why it is no producer of the shape above (why is ""
// when n does not even close a channel at its end).
func (f *finder) producerChan(n ast.Node) (*types.Var, string) {
	g, ok := n.(*ast.GoStmt)
	if !ok || len(g.Call.Args) != 0 {
		return nil, ""
	}
	lit, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit)
	if !ok || len(lit.Body.List) == 0 || lit.Type.Params.NumFields() != 0 {
		return nil, ""
	}
	last, ok := lit.Body.List[len(lit.Body.List)-1].(*ast.ExprStmt)
	if !ok {
		return nil, ""
	}
	call, ok := ast.Unparen(last.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !f.isBuiltin(call.Fun, "close") {
		return nil, ""
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok {
		return nil, ""
	}
	ch, _ := f.info.Uses[id].(*types.Var)
	if ch == nil {
		return nil, ""
	}
	for _, s := range lit.Body.List[:len(lit.Body.List)-1] {
		if !f.onlySends(s, ch) {
			return nil, "the producer goroutine does more than send on " + ch.Name() + " in loops and close it"
		}
	}
	if why := f.producerReads(lit, ch); why != "" {
		return nil, why
	}
	return ch, ""
}

func (f *finder) isBuiltin(fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok || id.Name != name {
		return false
	}
	_, ok = f.info.Uses[id].(*types.Builtin)
	return ok
}

// onlySends reports whether s is a send on ch, or a loop whose body is
// one such statement.
func (f *finder) onlySends(s ast.Stmt, ch *types.Var) bool {
	switch s := s.(type) {
	case *ast.SendStmt:
		id, ok := ast.Unparen(s.Chan).(*ast.Ident)
		return ok && f.info.Uses[id] == ch
	case *ast.ForStmt:
		return len(s.Body.List) == 1 && f.onlySends(s.Body.List[0], ch)
	case *ast.RangeStmt:
		t := f.info.TypeOf(s.X)
		if t == nil || s.Value != nil && !isIntegerType(t) {
			return false // the value of a range over a slice reads its elements
		}
		switch t.Underlying().(type) {
		case *types.Basic, *types.Slice, *types.Array:
		default:
			return false
		}
		return len(s.Body.List) == 1 && f.onlySends(s.Body.List[0], ch)
	}
	return false
}

func isIntegerType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// producerReads says why the producer's expressions read more than its
// own locals, constants and captured variables by name, or returns "".
// The captured variables are checked against the construct later
// (producerReadOnly), when its extent is known.
func (f *finder) producerReads(lit *ast.FuncLit, ch *types.Var) string {
	last := ast.Unparen(lit.Body.List[len(lit.Body.List)-1].(*ast.ExprStmt).X)
	return f.feedReads(lit.Body, "the producer goroutine", ch, last)
}

// feedReads says why the code under root, which who runs to fill ch
// (a producer goroutine, or the parent, parentfeed.go), reads more than
// locals, constants and variables by name, or does more than send on ch
// and close it at last, its final close call; or returns "".
func (f *finder) feedReads(root ast.Node, who string, ch *types.Var, last ast.Expr) string {
	why := ""
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IndexExpr, *ast.IndexListExpr, *ast.StarExpr, *ast.SliceExpr, *ast.FuncLit, *ast.TypeAssertExpr:
			if _, generic := n.(*ast.IndexExpr); generic && f.info.Types[n.(ast.Expr)].IsType() {
				return true
			}
			why = who + " computes its items from memory (" + types.ExprString(n.(ast.Expr)) + "): each send orders what it did before the item that receives it, an order block tags cannot express"
		case *ast.UnaryExpr:
			if n.Op == token.AND || n.Op == token.ARROW {
				why = who + " takes an address or receives (" + types.ExprString(n) + ")"
			}
		case *ast.SendStmt:
			if id, ok := ast.Unparen(n.Chan).(*ast.Ident); !ok || f.info.Uses[id] != ch {
				why = who + " sends on " + types.ExprString(n.Chan) + ", not only on " + ch.Name()
			}
		case *ast.SelectorExpr:
			if s := f.info.Selections[n]; s != nil && (s.Kind() != types.FieldVal || s.Indirect() || isPtr(f.info.TypeOf(n.X))) {
				why = who + " reads through a pointer or calls a method (" + types.ExprString(n) + ")"
			}
		case *ast.CallExpr:
			if tv, ok := f.info.Types[n.Fun]; ok && tv.IsType() {
				return true
			}
			if f.isBuiltin(n.Fun, "close") && n != last {
				why = who + " closes a channel before its last statement (" + types.ExprString(n) + ")"
			} else if !f.isBuiltin(n.Fun, "len") && !f.isBuiltin(n.Fun, "cap") && !f.isBuiltin(n.Fun, "min") && !f.isBuiltin(n.Fun, "max") && !f.isBuiltin(n.Fun, "close") {
				why = who + " calls " + types.ExprString(n.Fun) + ", which may read memory the items write"
			}
		}
		return why == ""
	})
	return why
}

// producerReadOnly says which variable the producer reads that construct
// c may write, or returns "": only variables no code of c writes can be
// read by a block concurrent with the items without an order to express.
func (f *finder) producerReadOnly(lit *ast.FuncLit, c *Construct) string {
	own := func(v *types.Var) bool { return within(v.Pos(), lit) }
	return f.feedReadOnly(lit.Body, "the producer goroutine", c, own)
}

// feedReadOnly is producerReadOnly for the code under root, run by who,
// whose own locals (own) are not checked.
func (f *finder) feedReadOnly(root ast.Node, who string, c *Construct, own func(*types.Var) bool) string {
	if f.producerWrites == nil {
		f.producerWrites = findWrites(f.files, f.info)
	}
	r := &Result{writes: f.producerWrites}
	why := ""
	ast.Inspect(root, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && why == "" {
			if v, ok := f.info.Uses[id].(*types.Var); ok && !v.IsField() && !own(v) && !r.ReadOnly(v, c) {
				why = who + " reads " + v.Name() + ", which the construct may write or which is not a local of the function"
			}
		}
		return why == ""
	})
	return why
}

// attachProducer makes the producer p (on channel ch) a section of the
// pool c, or says why it cannot be.
func (f *finder) attachProducer(c *Construct, p *ast.GoStmt, ch *types.Var) string {
	if c.JoinCall == nil {
		return "the producer goroutine fills " + ch.Name() + " for a pool joined by channel, which the model does not combine with a producer"
	}
	for _, fk := range c.Forks {
		if fk.Items == nil {
			return "the producer goroutine fills " + ch.Name() + ", but not every goroutine beside it drains it"
		}
		id, ok := ast.Unparen(fk.Items.X).(*ast.Ident)
		if !ok || f.info.Uses[id] != ch {
			return "the producer goroutine fills " + ch.Name() + ", but not every worker of the pool drains it"
		}
		if why := leavesRange(fk.Items); why != "" {
			return why
		}
	}
	if f.body == nil || !f.madeIn(ch, f.body) {
		return "the producer goroutine fills " + ch.Name() + ", which this function does not make"
	}
	lit := p.Call.Fun.(*ast.FuncLit)
	uses := 0
	ast.Inspect(f.body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && f.info.Uses[id] == ch {
			uses++
			if !within(id.Pos(), lit) && !f.drains(c, id) {
				return false
			}
		}
		return true
	})
	inside := 0
	ast.Inspect(lit, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && f.info.Uses[id] == ch {
			inside++
		}
		return true
	})
	if uses != inside+len(c.Forks) {
		return "the producer goroutine fills " + ch.Name() + ", which other code uses too"
	}
	if !f.someWorkerRuns(c) {
		return "the pool may start no worker, and then nothing waits for the producer goroutine"
	}
	if why := f.producerReadOnly(lit, c); why != "" {
		return why
	}
	return ""
}

// drains reports whether id is the range channel of one of c's workers.
func (f *finder) drains(c *Construct, id *ast.Ident) bool {
	for _, fk := range c.Forks {
		if fk.Items != nil && ast.Unparen(fk.Items.X) == id {
			return true
		}
	}
	return false
}

// leavesRange says why a worker may stop draining its channel early, or
// returns "".
func leavesRange(r *ast.RangeStmt) string {
	why := ""
	var visit func(n ast.Node, loops int)
	visit = func(n ast.Node, loops int) {
		ast.Inspect(n, func(m ast.Node) bool {
			if why != "" || m == nil {
				return false
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				why = "a worker may return before the pool's channel is closed"
			case *ast.BranchStmt:
				if m.Tok == token.GOTO || m.Label != nil || (m.Tok == token.BREAK && loops == 0) {
					why = "a worker may leave its range before the pool's channel is closed"
				}
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n {
					visit(m, loops+1)
					return false
				}
			}
			return why == ""
		})
	}
	visit(r.Body, 0)
	return why
}

// someWorkerRuns reports whether c certainly starts a worker: a start
// outside any loop of the construct, or in a loop whose count is a
// constant ≥ 1, runtime.GOMAXPROCS(…) or runtime.NumCPU().
func (f *finder) someWorkerRuns(c *Construct) bool {
	for _, fk := range c.Forks {
		loop := enclosingLoop(c.List[c.First:c.Join], fk.Node)
		if loop == nil {
			return true
		}
		if b := loopBound(loop); b != nil && f.positive(b) {
			return true
		}
	}
	return false
}

// enclosingLoop is the outermost loop among stmts that contains n, or nil.
func enclosingLoop(stmts []ast.Stmt, n ast.Node) ast.Stmt {
	var found ast.Stmt
	for _, s := range stmts {
		ast.Inspect(s, func(m ast.Node) bool {
			switch m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if found == nil && within(n.Pos(), m) {
					found = m.(ast.Stmt)
				}
			}
			return found == nil
		})
	}
	return found
}

// loopBound is the count of `for range k` or `for i := 0; i < k; i++`.
func loopBound(loop ast.Stmt) ast.Expr {
	switch l := loop.(type) {
	case *ast.RangeStmt:
		return l.X
	case *ast.ForStmt:
		as, ok := l.Init.(*ast.AssignStmt)
		cond, ok2 := l.Cond.(*ast.BinaryExpr)
		inc, ok3 := l.Post.(*ast.IncDecStmt)
		if !ok || !ok2 || !ok3 || len(as.Rhs) != 1 || cond.Op != token.LSS || inc.Tok != token.INC {
			return nil
		}
		if lit, ok := as.Rhs[0].(*ast.BasicLit); !ok || lit.Value != "0" {
			return nil
		}
		return cond.Y
	}
	return nil
}

// positive reports whether e is a constant ≥ 1 or a call that is never 0.
func (f *finder) positive(e ast.Expr) bool {
	if tv, ok := f.info.Types[e]; ok && tv.Value != nil {
		return isIntegerType(tv.Type) && constInt(f.info, e) >= 1
	}
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		switch f.methodName(call) {
		case "runtime.GOMAXPROCS", "runtime.NumCPU":
			return true
		}
	}
	return false
}

// producerFirst builds the pool whose producer goroutine stands alone in
// list[i], before its workers. ok is false when list[i] starts no
// producer, and construct goes on as before.
func (f *finder) producerFirst(list []ast.Stmt, i int) (c *Construct, ok bool) {
	first := f.unclaimed(list[i])
	if len(first) != 1 {
		return nil, false
	}
	ch, why := f.producerChan(first[0])
	if ch == nil {
		if why != "" {
			f.unstructured(first, why)
			return nil, true
		}
		return nil, false
	}
	for j := i + 1; j < len(list); j++ {
		if len(f.unclaimed(list[j])) == 0 {
			continue
		}
		c := f.construct(list, j)
		if c == nil {
			f.unstructured(first, "the producer goroutine fills "+ch.Name()+", but the goroutines after it are no construct")
			return nil, true
		}
		saved := c.First
		c.First = i
		why := f.attachProducer(c, first[0].(*ast.GoStmt), ch)
		if why == "" {
			why = f.leaves(f.body, list, c.First, c.Join, c.Deferred != nil)
		}
		if why == "" {
			why = f.parentSyncs(list[c.First:c.Join], syncObj{})
		}
		if why != "" {
			c.First = saved
			f.unstructured(first, why)
			return c, true
		}
		f.addProducer(c, first[0].(*ast.GoStmt))
		c.Counted = nil // the count may name what the statements after the producer declare
		return c, true
	}
	f.unstructured(first, "the goroutine feeds "+ch.Name()+" (it sends and closes it) and no worker pool of this block drains it: a pipeline, whose order block tags cannot express")
	return nil, true
}

// addProducer makes p a section of c.
func (f *finder) addProducer(c *Construct, p *ast.GoStmt) {
	fk := &Fork{Node: p, Construct: c, Section: len(c.Forks), Body: p.Call.Fun.(*ast.FuncLit), Producer: true}
	c.Forks = append(c.Forks, fk)
	f.forkOf[p] = fk
}

// midProducer returns the producer goroutine fs starts, when fs is one.
func (f *finder) midProducer(fs []ast.Node) (*ast.GoStmt, *types.Var) {
	if len(fs) != 1 {
		return nil, nil
	}
	if ch, _ := f.producerChan(fs[0]); ch != nil {
		return fs[0].(*ast.GoStmt), ch
	}
	return nil, nil
}

// filledBy reports whether a producer among ps fills the channel e.
func (f *finder) filledBy(ps []*ast.GoStmt, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	for _, p := range ps {
		if ch, _ := f.producerChan(p); ch != nil && f.info.Uses[id] == ch {
			return true
		}
	}
	return false
}

// attachMid attaches the producers that stand between c's workers and its
// join, or says why one cannot be.
func (f *finder) attachMid(c *Construct, ps []*ast.GoStmt) string {
	for _, p := range ps {
		ch, _ := f.producerChan(p)
		if c.Kind != Pool {
			return "the producer goroutine fills " + ch.Name() + ", but the goroutines beside it are no worker pool"
		}
		if why := f.attachProducer(c, p, ch); why != "" {
			return why
		}
	}
	for _, p := range ps {
		f.addProducer(c, p)
	}
	return ""
}

func producerNodes(ps []*ast.GoStmt) []ast.Node {
	out := make([]ast.Node, len(ps))
	for i, p := range ps {
		out[i] = p
	}
	return out
}
