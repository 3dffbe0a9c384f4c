package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A worker written once and started many times (conc's iter.ForEachIdx):
//
//	task := func() { for i := TAKE; i < n; i = TAKE { f(i) } }
//	for range workers {
//		wg.Go(task)
//	}
//	wg.Wait()
//
// The goroutine runs a function value, but which function it is can be
// seen: a local variable assigned once, from a function literal, before the
// construct. The literal is then the fork's body for everything the static
// stage reads in a goroutine literal written at the fork (its signal, how it
// synchronizes, its item loop, the memory the worker owns) — Fork.Value.
// It is not rewritten as the fork's body (it stands outside the construct,
// where the positional proofs of the construct do not reach): it runs its
// checked copy through its prologue, under the task rt.Forked or Bind
// attaches to the goroutine, with no pruning, and the rewriter starts a
// block per item in that copy. For that the literal must be nothing but
// this construct's worker: every use of the variable is a start of the
// construct (go task() without arguments, or the argument of wg.Go, an
// errgroup's or a wrapper's Go), it is never assigned again and its
// address is never taken.

// taskLit resolves fun, the function a fork starts, to the function
// literal the local variable fun names was assigned where it is declared.
// It returns why not otherwise.
func (f *finder) taskLit(fun ast.Expr) (*ast.FuncLit, string) {
	const notLocal = "not a local variable holding a function literal (a field, a package variable, a call's result)"
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return nil, notLocal
	}
	v, ok := f.info.Uses[id].(*types.Var)
	if !ok || v.Pkg() != f.pkg || v.IsField() || v.Parent() == nil || v.Parent() == f.pkg.Scope() {
		return nil, notLocal
	}
	name := v.Name()
	if f.body == nil || !within(v.Pos(), f.body) {
		return nil, name + " is a parameter or a variable of an enclosing function, whose value cannot be seen here"
	}
	var lit *ast.FuncLit
	declared := false
	why := ""
	var stack []ast.Node
	ast.Inspect(f.body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		parent := ast.Node(nil)
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		switch x := n.(type) {
		case *ast.AssignStmt:
			for i, l := range x.Lhs {
				lid, ok := ast.Unparen(l).(*ast.Ident)
				if !ok {
					continue
				}
				switch {
				case f.info.Defs[lid] == v:
					declared = true
					if len(x.Rhs) == len(x.Lhs) {
						lit, _ = ast.Unparen(x.Rhs[i]).(*ast.FuncLit)
					}
				case f.info.Uses[lid] == v && why == "":
					why = name + " is assigned again after its declaration"
				}
			}
		case *ast.ValueSpec:
			for i, nid := range x.Names {
				if f.info.Defs[nid] == v {
					declared = true
					if len(x.Values) == len(x.Names) {
						lit, _ = ast.Unparen(x.Values[i]).(*ast.FuncLit)
					}
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{x.Key, x.Value} {
				if rid, ok := ast.Unparen(e).(*ast.Ident); ok && x.Tok == token.ASSIGN && f.info.Uses[rid] == v && why == "" {
					why = name + " is assigned again after its declaration"
				}
			}
		case *ast.UnaryExpr:
			if uid, ok := ast.Unparen(x.X).(*ast.Ident); ok && x.Op == token.AND && f.info.Uses[uid] == v && why == "" {
				why = "the address of " + name + " is taken, so it may be assigned through it"
			}
		case *ast.Ident:
			if f.info.Uses[x] == v && why == "" && !f.startsValue(parent, x) && !isAssigned(parent, x) {
				why = name + " is also used other than as the function a goroutine starts"
			}
		}
		return true
	})
	switch {
	case why != "":
		return nil, why
	case !declared || lit == nil:
		return nil, name + " is not assigned a function literal where it is declared"
	}
	return lit, ""
}

// startsValue reports whether id, a child of parent, is the function a
// fork starts: go id() without arguments, or the argument of a Go method.
func (f *finder) startsValue(parent ast.Node, id *ast.Ident) bool {
	switch p := parent.(type) {
	case *ast.CallExpr:
		if ast.Unparen(p.Fun) == id {
			return f.isGoCall(p) // with arguments: refused by goBody, noted by opaqueGo
		}
		return len(p.Args) == 1 && ast.Unparen(p.Args[0]) == id && f.goMethod(p) != ""
	case *ast.ParenExpr:
		return false
	}
	return false
}

// isGoCall reports whether call is the call of a go statement in the
// function being searched.
func (f *finder) isGoCall(call *ast.CallExpr) bool {
	found := false
	ast.Inspect(f.body, func(n ast.Node) bool {
		if g, ok := n.(*ast.GoStmt); ok && g.Call == call {
			found = true
		}
		return !found
	})
	return found
}

// isAssigned reports whether id is on the left of the assignment parent
// (reported by taskLit's AssignStmt case).
func isAssigned(parent ast.Node, id *ast.Ident) bool {
	as, ok := parent.(*ast.AssignStmt)
	if !ok {
		return false
	}
	for _, l := range as.Lhs {
		if l == id {
			return true
		}
	}
	return false
}

// valueWorker resolves the function value a fork starts and checks that
// its literal is this construct's worker alone: declared before the
// construct, every use a start inside it (stmts, the construct's
// statements). It returns why not, or "".
func (f *finder) valueWorker(fk *Fork, stmts []ast.Stmt) string {
	if fk.Value == nil {
		return ""
	}
	lo, hi := stmts[0].Pos(), stmts[len(stmts)-1].End()
	if fk.Value.Pos() >= lo {
		return "the function literal it holds is written inside the construct"
	}
	v := fk.ValueVar
	out := ""
	ast.Inspect(f.body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && f.info.Uses[id] == v && (id.Pos() < lo || id.Pos() >= hi) && out == "" {
			out = "it is also started outside the construct"
		}
		return out == ""
	})
	return out
}

// ValueWorker is the fork whose goroutine runs lit as a function value
// (Fork.Value), or nil.
func (r *Result) ValueWorker(lit *ast.FuncLit) *Fork {
	for _, c := range r.Constructs {
		for _, fk := range c.Forks {
			if fk.Value == lit {
				return fk
			}
		}
	}
	return nil
}

// Lit is the function literal the fork's goroutine runs: written at the
// fork, or held by the variable it starts (Value).
func (fk *Fork) Lit() *ast.FuncLit {
	if fk.Body != nil {
		return fk.Body
	}
	return fk.Value
}

// valueWorkerWhy says why fk's Value cannot be followed as the worker of
// the construct whose statements are stmts, or returns "".
func (f *finder) valueWorkerWhy(fk *Fork, obj syncObj, stmts []ast.Stmt) string {
	if obj.kind == "chan" {
		return "a worker held in a variable is followed only when joined by a WaitGroup, an errgroup or a wrapper's Wait, not by channel"
	}
	return f.valueWorker(fk, stmts)
}
