package analysis

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// A goroutine of a construct may synchronize through a function it calls:
// x/sync's semaphore.Acquire selects on channels, and a caller that waits in
// it is ordered by that, not by the construct. So synchronization is a fact
// of each function, found in its body (channel operations, select, close,
// sync.Cond, sync.Once, except those that belong to constructs the static
// stage recognised) and propagated to its callers across the packages
// analysed together; a construct whose code calls such a function is
// unstructured.

// directSyncs records, for each function of the package, why its own body
// synchronizes (or ""), and the functions it calls.
func (f *finder) directSyncs(files []*ast.File) {
	owned := f.ownedOps()
	never := func(ast.Node) bool { return false }
	f.returns, f.returnCalls, f.steerCalls = map[*types.Func]string{}, map[*types.Func][]*types.Func{}, map[*types.Func][]*types.Func{}
	for fn, d := range f.res.Decls {
		f.res.syncWhy[fn] = f.syncIn(d.Body, owned, never)
		f.returns[fn] = f.returnsSynced(d.Body)
		f.returnCalls[fn] = f.steeringCalls(d.Body, never, true)
		f.steerCalls[fn] = f.steeringCalls(d.Body, never, false)
		var callees []*types.Func
		ast.Inspect(d.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if c := f.callee(call); c != nil {
					callees = append(callees, c)
				}
			}
			return true
		})
		if f.wrapMethod(fn) { // synchronization itself, as sync's methods (wrapfinder.go)
			f.res.syncWhy[fn], callees = "", nil
		}
		f.res.calls[fn] = callees
	}
}

// ownedOps are the operations that belong to recognised constructs: the
// joins of constructs joined by WaitGroup or errgroup, the ranges of
// worker pools, and the final send of a named function a construct joined
// by channel runs (on its parameter: the channel is the caller's). The
// join receives of a construct joined by channel, and the sends of its
// function literals, count unless the channel is its own (joinOps, see
// joinchan.go): a function whose construct joins on a channel other calls
// share synchronizes with them.
func (f *finder) ownedOps() map[ast.Node]bool {
	owned := map[ast.Node]bool{}
	for _, c := range f.res.Constructs {
		if c.JoinCall != nil {
			owned[c.List[c.Join]] = true
		}
		for _, s := range c.Feed {
			owned[s] = true // the parent's sends on the pool's channel and its close (parentfeed.go)
		}
		for _, fk := range c.Forks {
			if fk.Producer {
				owned[fk.Body] = true // only sends on the pool's channel and closes it (producer.go)
			}
			if fk.Items != nil {
				owned[fk.Items.X] = true // the pool's receive; its body still counts
			}
			if b := f.forkBody(fk); c.JoinCall == nil && fk.Body == nil && b != nil && len(b.List) > 0 {
				if send, ok := b.List[len(b.List)-1].(*ast.SendStmt); ok {
					owned[send] = true
				}
			}
		}
	}
	return owned
}

// isJoin reports whether s is the join (or one of the join receives) of c.
func (f *finder) isJoin(s ast.Stmt, c *Construct) bool {
	for i := c.First; i <= c.Join; i++ {
		if c.List[i] == s {
			return i == c.Join || (c.JoinCall == nil && i > c.First && f.chanJoins(s, syncObj{kind: "chan", expr: f.joinChan(c)}))
		}
	}
	return false
}

// joinChan is the text of the channel a construct joined by channel receives from.
func (f *finder) joinChan(c *Construct) string {
	var ch string
	ast.Inspect(c.List[c.Join], func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			ch = exprText(u.X)
		}
		return ch == ""
	})
	return ch
}

// forkBody is the body a fork runs, when this package declares it.
func (f *finder) forkBody(fk *Fork) *ast.BlockStmt {
	if fk.Body != nil {
		return fk.Body.Body
	}
	if d := f.res.Decls[fk.Callee]; d != nil {
		return d.Body
	}
	return nil
}

// propagateSyncs spreads the sync facts of results analysed together to
// the callers of syncing functions, to a fixed point.
func propagateSyncs(results []*Result) map[*types.Func]string {
	why := map[*types.Func]string{}
	calls := map[*types.Func][]*types.Func{}
	for _, r := range results {
		for fn, w := range r.imported {
			why[fn] = w
		}
	}
	for _, r := range results {
		for fn, w := range r.syncWhy {
			why[fn] = w
			calls[fn] = r.calls[fn]
		}
	}
	rets := propagateReturns(results)
	for _, r := range results {
		for fn, cs := range r.finder.steerCalls {
			for _, c := range cs {
				if w := rets[c]; w != "" && why[fn] == "" {
					why[fn] = fmt.Sprintf("polls %s (it %s)", c.Name(), w)
				}
			}
		}
	}
	spreadToCallers(why, calls, func(c *types.Func) string { return calleeSyncs(c, why) })
	return why
}

// spreadToCallers gives every function of calls that has no reason in why
// yet the reason of the first callee that has one ("calls f, which …"),
// to a fixed point; of says what a callee's reason is.
func spreadToCallers(why map[*types.Func]string, calls map[*types.Func][]*types.Func, of func(*types.Func) string) {
	for changed := true; changed; {
		changed = false
		for fn, cs := range calls {
			if why[fn] != "" {
				continue
			}
			for _, c := range cs {
				if w := of(c); w != "" {
					why[fn] = fmt.Sprintf("calls %s, which %s", c.Name(), trimCalls(w))
					changed = true
					break
				}
			}
		}
	}
}

// propagateReturns finds, for the functions analysed together and those
// of other packages with facts, why their results are values only
// synchronization produced: from their own bodies, or because they return
// such a function's result. Each result keeps the answer in rets.
func propagateReturns(results []*Result) map[*types.Func]string {
	rets := map[*types.Func]string{}
	for _, r := range results {
		for fn, w := range r.finder.importedReturns {
			rets[fn] = w
		}
	}
	for _, r := range results {
		for fn, w := range r.finder.returns {
			if w != "" {
				rets[fn] = w
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, r := range results {
			for fn, cs := range r.finder.returnCalls {
				for _, c := range cs {
					if w := rets[c]; w != "" && rets[fn] == "" {
						rets[fn], changed = w, true
					}
				}
			}
		}
	}
	for _, r := range results {
		r.finder.rets = rets
	}
	return rets
}

// calleeSyncs is why a callee synchronizes: from the facts for functions
// analysed here, from what is known of the standard library otherwise.
func calleeSyncs(c *types.Func, why map[*types.Func]string) string {
	if w, ok := why[c]; ok {
		return w
	}
	switch c.FullName() {
	case "(*sync.Cond).Wait", "(*sync.Cond).Signal", "(*sync.Cond).Broadcast":
		return "uses sync.Cond"
	case "(*sync.Once).Do":
		return "uses sync.Once"
	}
	return ""
}

// trimCalls keeps a reason short: "calls f, which calls g, which …" keeps
// only the final reason.
func trimCalls(w string) string {
	if i := strings.LastIndex(w, ", which "); i >= 0 {
		return w[i+len(", which "):]
	}
	return w
}

// demoteSyncing turns into unstructured the constructs of r whose code
// calls a function that synchronizes.
func (f *finder) demoteSyncing(why map[*types.Func]string) {
	f.demote(func(c *Construct) string {
		reason := ""
		check := func(n ast.Node) {
			ast.Inspect(n, func(m ast.Node) bool {
				if call, ok := m.(*ast.CallExpr); ok && reason == "" {
					if fk := f.forkOf[call]; fk != nil && fk.Construct == c {
						return true // the construct's own wg.Go / g.Go
					}
					if fn := f.callee(call); fn != nil {
						if w := calleeSyncs(fn, why); w != "" {
							reason = fmt.Sprintf("the goroutines synchronize through %s, which %s", fn.Name(), trimCalls(w))
						}
					}
				}
				return reason == ""
			})
		}
		roots := []ast.Node{}
		for _, s := range c.List[c.First:c.Join] {
			roots = append(roots, s)
		}
		for _, fk := range c.Forks {
			if fk.Value != nil {
				roots = append(roots, fk.Value.Body) // a worker held in a variable (taskvar.go)
			}
		}
		for _, s := range roots {
			check(s)
			for _, fn := range f.steeringCalls(s, func(ast.Node) bool { return false }, false) {
				if w := f.rets[fn]; w != "" && reason == "" {
					reason = fmt.Sprintf("the goroutines poll %s, which %s", fn.Name(), w)
				}
			}
		}
		for _, fk := range c.Forks {
			if fk.Callee != nil && fk.Body == nil {
				if w := calleeSyncs(fk.Callee, why); w != "" && reason == "" {
					reason = fmt.Sprintf("the goroutines run %s, which %s", fk.Callee.Name(), trimCalls(w))
				}
			}
		}
		return reason
	})
}
