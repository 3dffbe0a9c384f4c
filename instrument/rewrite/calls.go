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

// call rewrites a call: forks, locks, atomics and builtins that touch
// memory get their own treatment; calls of functions that have a checked
// clone call the clone with the task; everything else has its operands read.
func (w *walker) call(x *dst.CallExpr) dst.Expr {
	a, _ := w.astOf(x).(*ast.CallExpr)
	if a == nil {
		return x
	}
	if tv, ok := w.info.Types[a.Fun]; ok && tv.IsType() { // conversion
		if w.cfg.HB {
			w.hbConvertedCallback(a, tv.Type)
		}
		w.rvals(x.Args)
		return w.conversion(x, a)
	}
	if fk := w.res.Forks[a]; fk != nil {
		return w.goMethod(x, fk)
	}
	if id, ok := ast.Unparen(a.Fun).(*ast.Ident); ok {
		if _, isBuiltin := w.info.Uses[id].(*types.Builtin); isBuiltin {
			return w.builtin(x, a, id.Name)
		}
	}
	fn := analysis.Callee(w.info, a.Fun)
	if fn != nil && w.task != "" {
		if e := w.syncCall(x, a, fn); e != nil {
			return e
		}
	}
	if m := w.lockerMethod(a); m != "" && w.hooks() {
		if e := w.lockerCall(x, m); e != nil {
			return e
		}
	}
	if w.cfg.HB {
		w.hbRunRoot(a, fn)
		w.hbCallbacksOf(a)
	}
	w.rvals(x.Args)
	w.foreignArgs(x, a)
	w.hbEscapeArgs(x, a, fn)
	if w.cfg.HB {
		w.hbLaterArg(x, a, fn)
	}
	switch f := x.Fun.(type) {
	case *dst.FuncLit:
		if w.cfg.HB && w.task == "" {
			// called in place where no task is in scope (a package
			// variable's initializer, a root since hbInitRoots): it
			// finds its thread itself, as any function does
			w.hbLit(f, false)
			break
		}
		w.funcLit(f, w.task) // called in place: runs in this block
	case *dst.SelectorExpr:
		if w.isMethodVal(f) {
			f.X = w.recv(f)
		} else {
			x.Fun = w.rval(x.Fun)
		}
	default:
		x.Fun = w.rval(x.Fun)
	}
	if w.hbInline[a] && w.hooks() {
		w.foreignFunc(x, a) // hb_values.go
	}
	// An -hb thread calls the function itself, which finds its thread (HB):
	// its clone, made for constructs, would check by the construct's
	// proofs and show its _ga_ name in stacks (runtime.Caller).
	if fn != nil && w.task != "" && w.task != hbTask && w.res.Clones[fn] && !analysis.SpreadsResults(w.info, a) { // f(g()): noted, runs as written
		if v, ok := w.provenCall(a); ok {
			w.record(a, callOp, plan.Independent, v.Why) // the callee as written: nothing it does needs a check here
		} else if w.res.WorkerCallPrivate(a) {
			w.record(a, callOp, plan.Private) // the callee as written: it only touches what a pool worker keeps
		} else if cc := w.contextClone(a); cc != nil {
			w.toCloneNamed(x, cc.Name) // a clone made for this call (analysis/cbclone.go)
		} else {
			w.toClone(x)
			if w.res.WorkerCall(a) {
				x.Args[0] = w.workerTask(true) // the callee's accesses belong to the pool worker's block
			}
		}
	}
	if fn != nil && w.task != "" && fn.FullName() == "(*sync.Pool).Get" {
		w.change()
		return w.rtCall(rtnames.PoolGot, w.taskExpr(), w.plainCall(x, a)) // the object a Put handed over
	}
	if e := w.reflectCall(x, a, fn); e != nil {
		return e
	}
	if e := w.ioBufCall(x, a); e != nil {
		return e
	}
	if w.task == hbTask && w.freshResult(a, fn) {
		w.change()
		return w.rtCall(rtnames.Fresh, w.taskExpr(), w.plainCall(x, a))
	}
	return w.plainCall(x, a)
}

// callOp names a call in the plan's record of accesses.
const callOp = "call"

// provenCall returns the proof that the call a, in the version being
// rewritten, may run the callee as written rather than its checked clone.
func (w *walker) provenCall(a *ast.CallExpr) (analysis.HeapVerdict, bool) {
	p := w.heapProof()
	if p == nil {
		return analysis.HeapVerdict{}, false
	}
	v, ok := p.Call(a)
	if !ok || v.Guarded && !w.guarded {
		return analysis.HeapVerdict{}, false
	}
	return v, true
}

// contextClone returns the clone the call a runs in the callback copy
// being rewritten, when the analysis made one for it, or nil.
func (w *walker) contextClone(a *ast.CallExpr) *analysis.ContextClone {
	if w.spec == nil || w.checksAll() {
		return nil
	}
	return w.spec.ContextClone(a)
}

// calleeIdent is the name of the function or method fun denotes.
func calleeIdent(fun dst.Expr) *dst.Ident {
	if p, ok := fun.(*dst.ParenExpr); ok {
		fun = p.X
	}
	switch f := fun.(type) {
	case *dst.IndexExpr:
		fun = f.X
	case *dst.IndexListExpr:
		fun = f.X
	}
	switch f := fun.(type) {
	case *dst.Ident:
		return f
	case *dst.SelectorExpr:
		return f.Sel
	}
	panic("internal error: a static call of no name")
}

// toClone redirects a call to the checked clone of its callee, passing the task.
func (w *walker) toClone(x *dst.CallExpr) {
	w.toCloneNamed(x, cloneName(calleeIdent(x.Fun).Name))
}

// toCloneNamed redirects a call to the clone of its callee named name,
// passing the task.
func (w *walker) toCloneNamed(x *dst.CallExpr, name string) {
	w.change()
	calleeIdent(x.Fun).Name = name
	x.Args = append([]dst.Expr{w.taskExpr()}, x.Args...)
}

// cloneName names the checked clone of a function: _ga_f for an unexported
// f, F_ga_ for an exported F, so another instrumented package can call it.
func cloneName(name string) string {
	if ast.IsExported(name) {
		return name + "_ga_"
	}
	return "_ga_" + name
}

// syncCall rewrites mutex and sync/atomic calls, or returns nil.
func (w *walker) syncCall(x *dst.CallExpr, a *ast.CallExpr, fn *types.Func) dst.Expr {
	name := fn.FullName()
	if w.cfg.HB {
		if e := w.hbSyncCall(x, a, fn); e != nil {
			return e
		}
	}
	switch name {
	case "(*sync.Mutex).Lock", "(*sync.RWMutex).Lock":
		return w.lockCall(x, rtnames.Acquire)
	case "(*sync.Mutex).Unlock", "(*sync.RWMutex).Unlock":
		return w.lockCall(x, rtnames.Release)
	case "(*sync.RWMutex).RLock":
		return w.lockCall(x, rtnames.RAcquire)
	case "(*sync.RWMutex).RUnlock":
		return w.lockCall(x, rtnames.RRelease)
	case "(*sync.Mutex).TryLock", "(*sync.RWMutex).TryLock":
		if w.cfg.HB {
			return w.lockCall(x, rtnames.TryAcquire)
		}
	case "(*sync.RWMutex).TryRLock":
		if w.cfg.HB {
			return w.lockCall(x, rtnames.TryRAcquire)
		}
	}
	if fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
		return nil
	}
	kind := rtnames.AW
	base := fn.Name()
	if strings.HasPrefix(base, "Load") {
		kind = rtnames.AR
	}
	site := w.site(a.Pos(), types.ExprString(a.Fun))
	w.change()
	if sel, ok := x.Fun.(*dst.SelectorExpr); ok && w.isMethodVal(sel) {
		// typed atomics: v.Load(), p.Add(1)
		recvAST := ast.Unparen(a.Fun).(*ast.SelectorExpr).X
		if id, ok := recvAST.(*ast.Ident); ok {
			if v, ok := w.info.Uses[id].(*types.Var); ok && w.res.AtomicOnly(v) {
				kind = map[string]string{rtnames.AW: rtnames.AWOnly, rtnames.AR: rtnames.AROnly}[kind]
			}
		}
		ptr := w.addrOf(sel.X, recvAST)
		selAST := ast.Unparen(a.Fun).(*ast.SelectorExpr)
		if w.cfg.HB && len(w.info.Selections[selAST].Index()) > 1 && duplicable(recvAST) && !hasIndexCall(recvAST) {
			// promoted from an embedded atomic: the hook's address is the
			// embedded field's, as a direct call's (g.Int64.Store) is
			if _, p, ok := w.embeddedSync(selAST); ok {
				ptr = p
			}
		}
		sel.X = w.rtCall(kind, w.taskExpr(), ptr, siteLit(site))
		w.rvals(x.Args)
		return x
	}
	w.rvals(x.Args[1:])
	if len(x.Args) > 0 {
		x.Args[0] = w.rtCall(kind, w.taskExpr(), w.rval(x.Args[0]), siteLit(site))
	}
	return x
}

// addrOf returns a pointer to the operand of a pointer method: the operand
// itself when it is a pointer, else &operand.
func (w *walker) addrOf(x dst.Expr, a ast.Expr) dst.Expr {
	if isPointer(w.info.TypeOf(a)) {
		return w.rval(x)
	}
	return &dst.UnaryExpr{Op: token.AND, X: w.addr(x)}
}

// lockCall turns mu.Lock() into task.Acquire(&mu) (and the like), reaching
// through embedded fields to the mutex itself.
func (w *walker) lockCall(x *dst.CallExpr, method string) dst.Expr {
	sel, ok := x.Fun.(*dst.SelectorExpr)
	if !ok {
		return nil
	}
	a := w.astOf(sel).(*ast.SelectorExpr)
	s := w.info.Selections[a]
	recv := sel.X
	t := w.info.TypeOf(a.X)
	what := types.ExprString(a.X)
	for _, i := range s.Index()[:len(s.Index())-1] { // embedded path to the mutex
		st, _ := derefStruct(t)
		if st == nil {
			return nil
		}
		f := st.Field(i)
		recv = &dst.SelectorExpr{X: recv, Sel: dst.NewIdent(f.Name())}
		what += "." + f.Name()
		t = f.Type()
	}
	var ptr dst.Expr
	if len(s.Index()) == 1 {
		ptr = w.addrOf(recv, a.X)
	} else if isPointer(t) {
		ptr = recv
	} else {
		ptr = &dst.UnaryExpr{Op: token.AND, X: recv}
	}
	if method == rtnames.Acquire || method == rtnames.RAcquire {
		ptr = w.mutexWord(ptr, a, what)
	}
	w.change()
	return &dst.CallExpr{Fun: &dst.SelectorExpr{X: w.taskExpr(), Sel: dst.NewIdent(method)}, Args: []dst.Expr{ptr}}
}

func derefStruct(t types.Type) (*types.Struct, bool) {
	if p, ok := underlying(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	s, ok := underlying(t).(*types.Struct)
	return s, ok
}

// builtin rewrites the builtins that touch memory: copy, append, delete,
// clear, len and cap of maps.
func (w *walker) builtin(x *dst.CallExpr, a *ast.CallExpr, name string) dst.Expr {
	if w.task == "" {
		w.rvals(x.Args)
		return x
	}
	site := func(what string) dst.Expr { return siteLit(w.site(a.Pos(), what)) }
	switch name {
	case "copy":
		w.rvals(x.Args)
		// Both sides proven (the elements written independent, the ones
		// read proven too, or a string): the copy as written.
		if vd, ok := w.heapVerdict(a.Args[0], rtnames.W); ok && vd.Independent {
			if stringLike(w.info.TypeOf(a.Args[1])) {
				w.recordHeap(a, rtnames.W, vd)
				return x
			}
			if _, ok := w.heapVerdict(a.Args[1], rtnames.R); ok {
				w.recordHeap(a, rtnames.W, vd)
				return x
			}
		}
		w.change()
		if stringLike(w.info.TypeOf(a.Args[1])) {
			return w.rtCall(rtnames.CopyString, w.taskExpr(), x.Args[0], w.asString(x.Args[1], a.Args[1]), site(types.ExprString(a)))
		}
		id := w.site(a.Pos(), types.ExprString(a))
		return w.rtCall(rtnames.Copy, w.taskExpr(), x.Args[0], x.Args[1], siteLit(id), siteLit(id))
	case "append":
		w.rvals(x.Args)
		if len(x.Args) == 0 {
			return x
		}
		n := dst.Expr(&dst.BasicLit{Kind: token.INT, Value: itoa(len(x.Args) - 1)})
		if x.Ellipsis {
			last := a.Args[len(a.Args)-1]
			if _, isSlice := underlying(w.info.TypeOf(last)).(*types.Slice); !isSlice || !pure(last) {
				return w.appendTail(x, a, w.site(a.Pos(), types.ExprString(a)))
			}
			n = &dst.CallExpr{Fun: dst.NewIdent("len"), Args: []dst.Expr{exprFromAST(last)}}
			i := len(x.Args) - 1
			x.Args[i] = w.rtCall(rtnames.ReadAll, w.taskExpr(), x.Args[i], site(types.ExprString(last)))
		}
		w.change()
		if !w.res.WorkerOwnedElems(a.Args[0]) { // a pool worker's own slice is private
			x.Args[0] = w.rtCall(rtnames.Grow, w.taskExpr(), x.Args[0], n, site(types.ExprString(a)))
			if w.task == hbTask {
				return w.rtCall(rtnames.Appended, w.taskExpr(), x) // an array append allocates is fresh memory
			}
		}
		return x
	case "delete", "clear":
		w.rvals(x.Args)
		if w.res.WorkerOwnedElems(a.Args[0]) {
			return x // a pool worker's own map or slice: private
		}
		switch underlying(w.info.TypeOf(a.Args[0])).(type) {
		case *types.Map:
			w.change()
			x.Args[0] = w.rtCall(rtnames.MW, w.taskExpr(), x.Args[0], site(types.ExprString(a)))
		case *types.Slice:
			if v, ok := w.heapVerdict(a.Args[0], rtnames.W); ok && v.Independent {
				w.recordHeap(a, rtnames.W, v)
				return x
			}
			w.change()
			x.Args[0] = w.rtCall(rtnames.WriteAll, w.taskExpr(), x.Args[0], site(types.ExprString(a)))
		}
		return x
	case "new":
		w.change()
		return w.rtCall(rtnames.New, w.taskExpr(), x)
	case "make":
		w.rvals(x.Args[1:])
		if _, isSlice := underlying(w.info.TypeOf(a)).(*types.Slice); isSlice {
			w.change()
			return w.rtCall(rtnames.Make, w.taskExpr(), x)
		}
		if _, isChan := underlying(w.info.TypeOf(a)).(*types.Chan); isChan && w.hooks() {
			w.change()
			return w.rtCall(rtnames.MakeChan, w.taskExpr(), x) // a new channel's state has no history
		}
		if isMapType(w.info.TypeOf(a)) && w.hooks() {
			w.change()
			return w.rtCall(rtnames.MakeMap, w.taskExpr(), x) // a new map has no history
		}
		return x
	case "recover":
		// a panic through a call into plain code may have left the task
		// opaque; checked code that recovers it runs with it clear (rt/opaque.go)
		w.change()
		return w.rtCall(rtnames.Recovered, x)
	case "len", "cap":
		w.rvals(x.Args)
		if len(a.Args) == 1 && isMapType(w.info.TypeOf(a.Args[0])) && !w.res.WorkerOwnedElems(a.Args[0]) {
			w.change()
			x.Args[0] = w.rtCall(rtnames.MR, w.taskExpr(), x.Args[0], site(types.ExprString(a)))
		}
		return x
	}
	for i, arg := range x.Args {
		if !w.isType(arg) {
			x.Args[i] = w.rval(arg)
		}
	}
	if name == "close" && len(x.Args) == 1 && w.hooks() {
		w.change()
		x.Args[0] = w.rtCall(rtnames.CloseOp, w.taskExpr(), x.Args[0], siteLit(w.site(a.Pos(), types.ExprString(a))))
	}
	return x
}
