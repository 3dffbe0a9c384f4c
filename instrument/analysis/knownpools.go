package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Some pools keep the wg.Go contract, "every f given to Go has returned
// when Wait returns, and each f runs once", in a way wrapperRoles cannot
// read: conc's pool.Go hands f over a channel to a worker it may start
// lazily (`select { case p.tasks <- f: default: p.handle.Go(p.worker) … }`,
// the worker ranging over p.tasks), and Wait closes the channel and waits
// for the workers. For these the contract is taken from a table, read from
// the source of the versions named below, not proven; a type not in the
// table stays noted. The table's types are the only ones whose Go and
// Wait are forks and joins without a wrapperFact.
//
// Read from github.com/sourcegraph/conc v0.3.0 (pool/pool.go,
// error_pool.go, context_pool.go, result_pool.go, result_error_pool.go,
// result_context_pool.go): Go sends f once on p.tasks, to a worker started
// by conc.WaitGroup.Go, which runs f and takes the next; Wait closes
// p.tasks and waits for every worker, so every f has returned. The typed
// pools wrap f in a literal that calls it once and stores its result or
// error under a mutex of their own, which the user's code reaches only
// through Wait's results.

// concPool is the package of conc's pools.
const concPool = "github.com/sourcegraph/conc/pool"

// knownPoolRole is the role of a method of a pool type in the table, and
// whether it is one.
func knownPoolRole(fn *types.Func) (wrapRole, bool) {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != concPool {
		return wrapRole{}, false
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return wrapRole{}, false
	}
	named := namedOf(recv.Type())
	if named == nil {
		return wrapRole{}, false
	}
	typ := concPool + "." + named.Obj().Name()
	r := wrapRole{typ: typ, known: "conc v0.3.0"}
	switch fn.Name() {
	case "Go":
		r.kind = "go"
	case "Wait":
		r.kind = "wait"
	default:
		return wrapRole{}, false
	}
	switch named.Obj().Name() {
	case "Pool":
	case "ErrorPool":
		r.errs = true // Go(func() error), Wait() error
	case "ContextPool":
		r.errs, r.ctx, r.typed = r.kind == "wait", true, true // Go(func(context.Context) error), Wait() error
	case "ResultPool":
		r.valued, r.typed = true, true // Go(func() T), Wait() []T
	case "ResultErrorPool":
		r.valued, r.typed = true, true // Go(func() (T, error)), Wait() ([]T, error)
	case "ResultContextPool":
		r.valued, r.typed, r.ctx = true, true, true // Go(func(context.Context) (T, error)), Wait() ([]T, error)
	default:
		return wrapRole{}, false
	}
	return r, true
}

// RepanicsAfterWait reports whether the join call x is the Wait of a pool
// of the table. conc's Wait waits for every worker and then re-panics a
// task's panic (conc.WaitGroup.Wait: wg.Wait(), then pc.Repanic()), so
// the rewriter joins the construct also when x panics (rt.Waited): a
// caller that recovers has its tasks all returned, and its code after the
// recover is the parent's after the join.
func RepanicsAfterWait(info *types.Info, x *ast.CallExpr) bool {
	r, ok := knownPoolRole(Callee(info, x.Fun))
	return ok && r.kind == "wait"
}

// poolConfig reports whether fn, of conc's pool package, is a maker or a
// setter of the table other than WithContext (which derives a context from
// the caller's, whose methods context.WithCancel may call) or the pool's
// MaxGoroutines: code that stores or reads a setting and calls nothing of
// the caller's, so a call of it from checked code is not a call into plain
// code (plaincalls.go).
func poolConfig(fn *types.Func) bool {
	switch n := fn.Name(); {
	case n == "WithContext":
		return false
	case n == "MaxGoroutines":
		return true
	default:
		return poolMakers[n] || poolSetters[n]
	}
}

// poolMakers are the functions that make a pool of the table, and
// poolSetters the configuration methods a pool's definition may chain.
var (
	poolMakers  = map[string]bool{"New": true, "NewWithResults": true}
	poolSetters = map[string]bool{"WithMaxGoroutines": true, "WithErrors": true, "WithContext": true,
		"WithFirstError": true, "WithCancelOnError": true, "WithCollectErrored": true}
)

// poolWhy says why a construct whose forks are Go calls of a pool of the
// table cannot be checked, or returns "". The table gives the contract;
// the construct must also show that any two tasks, and a task and the
// parent's code after its Go, can run at once in some schedule, and that
// the tasks do not order one another:
//
//   - the pool is a local variable defined once, from pool.New() or
//     pool.NewWithResults[T]() followed only by With… methods, and used
//     only as the receiver of Go, Wait and MaxGoroutines (so no code
//     reconfigures it or submits to it unseen);
//   - every WithMaxGoroutines is given a constant of at least 2: a limit
//     of 1 runs the tasks one after another, an order block tags cannot
//     express (as a channel semaphore of capacity 1, semaphore.go); or,
//     for a Pool or ResultPool, whose MaxGoroutines says the limit at run
//     time, a value that is no constant, when every task is a function
//     literal: the rewriter forks each with rt.ForkIf(c, i,
//     p.MaxGoroutines() != 1), which leaves the tasks unchecked in a run
//     whose limit is 1 (the limit cannot change after the first Go: conc
//     panics);
//   - a task of a context pool does not use its context: one task's error
//     (WithCancelOnError), or the caller, may cancel it, and a task that
//     sees the cancellation is ordered after what preceded it;
//   - a task of a typed pool (a context or result pool) is a function
//     literal or a function value, not a named function: the rewriter
//     binds a literal by an immediately called literal and a value through
//     rt.Forked, and has no clone of another signature to bind.
//
// limit is the pool when its limit is known only at run time.
func (f *finder) poolWhy(forks []ast.Node) (why string, limit *types.Var) {
	if len(forks) == 0 {
		return "", nil
	}
	call, ok := forks[0].(*ast.CallExpr)
	if !ok {
		return "", nil
	}
	r, ok := f.wraps.role(f.callee(call))
	if !ok || r.known == "" {
		return "", nil
	}
	id, ok := ast.Unparen(ast.Unparen(call.Fun).(*ast.SelectorExpr).X).(*ast.Ident)
	v, _ := f.info.Uses[id].(*types.Var)
	if !ok || v == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return "pool " + types.ExprString(ast.Unparen(call.Fun).(*ast.SelectorExpr).X) + " is not a local variable of this function, so its configuration and other submitters cannot be seen", nil
	}
	ctxPool, runtimeLimit, why := f.poolDef(v)
	if why != "" {
		return "pool " + v.Name() + " " + why, nil
	}
	if why := f.poolUses(v); why != "" {
		return "pool " + v.Name() + " " + why, nil
	}
	for _, n := range forks {
		c := n.(*ast.CallExpr)
		if len(c.Args) != 1 {
			return "", nil
		}
		lit, isLit := ast.Unparen(c.Args[0]).(*ast.FuncLit)
		if (r.typed || ctxPool) && !isLit && f.calleeOf(c.Args[0]) != nil {
			return "task " + types.ExprString(c.Args[0]) + " of pool " + v.Name() + " is a named function, which is not followed for a pool whose tasks take a context or return results", nil
		}
		if ctxPool && !isLit {
			return "task " + types.ExprString(c.Args[0]) + " of context pool " + v.Name() + " is not a function literal, so whether it uses its context cannot be seen", nil
		}
		if ctxPool && usesParam(lit, f.info) {
			return "a task of context pool " + v.Name() + " uses its context, whose cancellation (by another task's error, or by the caller) orders the tasks in a way block tags cannot express", nil
		}
		if runtimeLimit != "" && !isLit {
			return "pool " + v.Name() + " is limited by WithMaxGoroutines(" + runtimeLimit + "), known only at run time, and task " + types.ExprString(c.Args[0]) + " is not a function literal, which alone can be left unchecked when the limit is 1", nil
		}
	}
	if runtimeLimit != "" {
		return "", v
	}
	return "", nil
}

// poolDef checks v's one definition, `v := CHAIN` or `var v = CHAIN`, and
// reports whether the chain makes a context pool, and the limit it gives
// that is known only at run time (a Pool or ResultPool's), or "".
func (f *finder) poolDef(v *types.Var) (ctxPool bool, runtimeLimit, why string) {
	var def ast.Expr
	ast.Inspect(f.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if id, ok := n.Lhs[0].(*ast.Ident); ok && f.info.Defs[id] == v {
					def = n.Rhs[0]
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == 1 && len(n.Values) == 1 && f.info.Defs[n.Names[0]] == v {
				def = n.Values[0]
			}
		}
		return def == nil
	})
	if def == nil {
		return false, "", "is not defined in this function from pool.New() or pool.NewWithResults()"
	}
	hasLimit := false
	if n := namedOf(v.Type()); n != nil {
		hasLimit = n.Obj().Name() == "Pool" || n.Obj().Name() == "ResultPool" // the types with MaxGoroutines
	}
	for e := ast.Unparen(def); ; {
		call, ok := e.(*ast.CallExpr)
		if !ok {
			return false, "", "is not made by a chain of pool.New() or pool.NewWithResults() and its With… methods"
		}
		fn := f.callee(call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != concPool {
			return false, "", "is not made by a chain of pool.New() or pool.NewWithResults() and its With… methods"
		}
		if fn.Type().(*types.Signature).Recv() == nil {
			if !poolMakers[fn.Name()] {
				return false, "", "is made by " + fn.Name() + ", not by pool.New() or pool.NewWithResults()"
			}
			return ctxPool, runtimeLimit, ""
		}
		if !poolSetters[fn.Name()] {
			return false, "", "is configured by " + fn.Name() + ", which the table does not know"
		}
		switch fn.Name() {
		case "WithContext":
			ctxPool = true
		case "WithMaxGoroutines":
			tv := f.info.Types[call.Args[0]]
			switch {
			case tv.Value == nil && hasLimit:
				runtimeLimit = types.ExprString(call.Args[0]) // rt.ForkIf at each Go
			case constInt(f.info, call.Args[0]) < 2:
				return false, "", "is limited by WithMaxGoroutines(" + types.ExprString(call.Args[0]) + "), not a constant of at least 2: a limit of 1 runs the tasks one after another, an order block tags cannot express"
			}
		}
		e = ast.Unparen(ast.Unparen(call.Fun).(*ast.SelectorExpr).X)
	}
}

// poolUses says how v is used other than as the receiver of a call of
// Go, Wait or MaxGoroutines, or returns "".
func (f *finder) poolUses(v *types.Var) string {
	recv := map[*ast.Ident]bool{}
	ast.Inspect(f.body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && f.info.Uses[id] == v {
					switch sel.Sel.Name {
					case "Go", "Wait", "MaxGoroutines":
						recv[id] = true
					}
				}
			}
		}
		return true
	})
	why := ""
	ast.Inspect(f.body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && f.info.Uses[id] == v && !recv[id] && why == "" {
			why = "is used other than as the receiver of Go, Wait or MaxGoroutines (passed, stored, assigned or reconfigured), so tasks may be submitted or its limit changed where the construct cannot see"
		}
		return why == ""
	})
	return why
}

// usesParam reports whether lit uses one of its parameters.
func usesParam(lit *ast.FuncLit, info *types.Info) bool {
	params := map[types.Object]bool{}
	for _, field := range lit.Type.Params.List {
		for _, name := range field.Names {
			params[info.Defs[name]] = true
		}
	}
	used := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && params[info.Uses[id]] {
			used = true
		}
		return !used
	})
	return used
}
