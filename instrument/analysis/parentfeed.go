package analysis

import (
	"go/ast"
	"go/types"
)

// The pool a Go programmer writes most often is fed by the parent itself,
// between the workers' starts and the join (PolyBench's gesummv):
//
//	blocks := make(chan int) // or make(chan int, k)
//	for range workers { wg.Add(1); go func() { defer wg.Done(); for lo := range blocks { … } }() }
//	for lo := 0; lo < n; lo += bs { blocks <- lo }
//	close(blocks)
//	wg.Wait()
//
// The parent's statements after the last start, up to the join, are then
// the pool's producer (producer.go), under the producer goroutine's
// conditions: they are loops (whose bodies are one loop or one send) and
// sends on the channel, then close(ch) right before the join, nothing
// else; their expressions read nothing but their own locals, constants and
// variables the construct does not write (ReadOnly), by name, and call
// nothing but len, cap, min, max and conversions; the channel is a local
// this function makes, used by nothing but those sends and close and the
// workers' ranges; every goroutine of the construct is a worker draining
// it (a function literal whose range over it no break, return or goto
// leaves), and the construct is joined by a WaitGroup, errgroup or
// wrapper.
//
// Why that is sound. The parent's code between the first start and the
// join is a block of its own, concurrent with the goroutines (as in any
// construct), and each item a worker receives is a block, concurrent with
// every other item. The sends add orders the blocks do not express: send
// k happens before the item that receives it starts, and, on an
// unbuffered channel, that item's receive before send k completes. None
// of them can hide a race or make one up. The parent's feeding block
// reads only variables nothing in the construct writes and its own
// locals, which no worker can name (they are declared after the workers'
// literals), and it writes nothing else, so it has no access that could
// conflict with an item: the order between it and an item has nothing to
// order. The items stay unordered among themselves: a worker takes the
// next item whenever it is free, so with two workers any two items can run
// at once in some schedule, buffered or not (an unbuffered send only waits
// until some worker is ready, not until the previous item ends). Each
// item is a block as in a pool whose channel was filled before the
// construct. A send inside a branch, or any other statement between the
// sends, would let the parent compute from memory the items write between
// two sends, which these blocks cannot order: refused, as is reading an
// element to send it.
//
// Unlike a producer goroutine, the parent needs no worker to certainly
// run: the join follows its close in its own statement list, so nothing
// of the feeding is left running after the join. With no worker, an
// unbuffered send blocks for ever (as the plain program does) and no item
// runs, so nothing is checked and nothing can be reported. A worker's
// early break is refused all the same: the parent's later sends would then
// wait for workers that stopped, the program relying on the rest to drain.

// parentFeed returns the statements of list[first:join] with which the
// parent fills channel ch of the pool it starts there, when the last of
// them, right before the join, is close(ch) and a statement after the
// last start sends on ch. why says what breaks the shape above or the
// channel's uses; all are nil when the parent does not feed a channel
// this way. obj is how the construct joins.
func (f *finder) parentFeed(list []ast.Stmt, first, join int, obj syncObj) (feed []ast.Stmt, ch *types.Var, why string) {
	if join-first < 3 {
		return nil, nil, ""
	}
	es, ok := list[join-1].(*ast.ExprStmt)
	if !ok {
		return nil, nil, ""
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !f.isBuiltin(call.Fun, "close") {
		return nil, nil, ""
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok {
		return nil, nil, ""
	}
	if ch, _ = f.info.Uses[id].(*types.Var); ch == nil {
		return nil, nil, ""
	}
	last := first
	for k := first; k < join-1; k++ {
		if len(f.forksIn(list[k])) > 0 {
			last = k
		}
	}
	feed = list[last+1 : join]
	sends := false
	for _, s := range feed {
		inspectNoLit(s, func(n ast.Node, _ []ast.Node) {
			if send, ok := n.(*ast.SendStmt); ok {
				if id, ok := ast.Unparen(send.Chan).(*ast.Ident); ok && f.info.Uses[id] == ch {
					sends = true
				}
			}
		})
	}
	if !sends {
		return nil, nil, ""
	}
	if obj.kind == "chan" {
		return nil, ch, "the parent fills " + ch.Name() + " for a pool joined by channel, which the model does not combine with the parent's sends"
	}
	for _, s := range feed[:len(feed)-1] {
		if !f.onlySends(s, ch) {
			return nil, ch, "the parent fills " + ch.Name() + " between the workers' starts and the join, but does more than send on it in loops and close it (" + stmtText(s) + "): what it computes between two sends is ordered before the next item, an order block tags cannot express"
		}
		if why := f.feedReads(s, "the parent", ch, nil); why != "" {
			return nil, ch, why
		}
	}
	if why := f.feedUses(ch, feed, list[first:last+1]); why != "" {
		return nil, ch, why
	}
	return feed, ch, ""
}

// feedUses says why ch is not a channel this function makes and uses for
// nothing but the sends of feed, its final close, and ranges in the
// statements that start the workers (starts), or returns "". Each range
// is checked to be a worker's item loop later (attachFeed).
func (f *finder) feedUses(ch *types.Var, feed, starts []ast.Stmt) string {
	name := ch.Name()
	if f.body == nil || !f.madeIn(ch, f.body) {
		return "the parent fills " + name + ", which this function does not make"
	}
	ok := map[*ast.Ident]bool{}
	mark := func(e ast.Expr) {
		if id, isID := ast.Unparen(e).(*ast.Ident); isID {
			ok[id] = true
		}
	}
	for _, s := range feed {
		inspectNoLit(s, func(n ast.Node, _ []ast.Node) {
			switch n := n.(type) {
			case *ast.SendStmt:
				mark(n.Chan)
			case *ast.CallExpr:
				if f.isBuiltin(n.Fun, "close") && s == feed[len(feed)-1] {
					mark(n.Args[0])
				}
			}
		})
	}
	for _, s := range starts {
		ast.Inspect(s, func(n ast.Node) bool {
			if r, isRange := n.(*ast.RangeStmt); isRange {
				mark(r.X)
			}
			return true
		})
	}
	other := false
	ast.Inspect(f.body, func(n ast.Node) bool {
		if id, isID := n.(*ast.Ident); isID && f.info.Uses[id] == ch && !ok[id] {
			other = true
		}
		return !other
	})
	if other {
		return "the parent fills " + name + ", which other code uses too"
	}
	return ""
}

// stmtText is the first line of s, for notes.
func stmtText(s ast.Stmt) string {
	switch s := s.(type) {
	case *ast.ForStmt:
		return "a for loop"
	case *ast.RangeStmt:
		return "a range loop"
	case *ast.IfStmt:
		return "an if statement"
	case *ast.SwitchStmt, *ast.TypeSwitchStmt:
		return "a switch"
	case *ast.SelectStmt:
		return "a select"
	case *ast.ExprStmt:
		return types.ExprString(s.X)
	case *ast.AssignStmt:
		return types.ExprString(s.Lhs[0]) + " " + s.Tok.String() + " …"
	}
	return "a statement"
}

// attachFeed checks the conditions on the pool c that the parent fills
// with feed (on ch), once its workers are known, and says what breaks
// them, or returns "".
func (f *finder) attachFeed(c *Construct, feed []ast.Stmt, ch *types.Var) string {
	name := ch.Name()
	for _, fk := range c.Forks {
		if fk.Items == nil || fk.Body == nil {
			return "the parent fills " + name + ", but not every goroutine it starts is a function literal draining it"
		}
		id, ok := ast.Unparen(fk.Items.X).(*ast.Ident)
		if !ok || f.info.Uses[id] != ch {
			return "the parent fills " + name + ", but not every worker of the pool drains it"
		}
		if why := leavesRange(fk.Items); why != "" {
			return why
		}
	}
	own := func(v *types.Var) bool {
		for _, s := range feed {
			if within(v.Pos(), s) {
				return true
			}
		}
		return false
	}
	for _, s := range feed[:len(feed)-1] {
		if why := f.feedReadOnly(s, "the parent", c, own); why != "" {
			return why
		}
	}
	return ""
}

// isVarIdent reports whether e is an identifier that uses v (not nil).
func isVarIdent(info *types.Info, e ast.Expr, v *types.Var) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && v != nil && info.Uses[id] == v
}
