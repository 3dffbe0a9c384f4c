package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/plan"

	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// op is how an lvalue is accessed.
type op int

const (
	opW  op = iota // written
	opRW           // read, then written (x += y, x++)
)

func (w *walker) rvals(es []dst.Expr) {
	for i, e := range es {
		es[i] = w.rval(e)
	}
}

// typeOf is the type of the original expression behind e, or nil.
func (w *walker) typeOf(e dst.Expr) types.Type {
	a, _ := w.astOf(e).(ast.Expr)
	if a == nil {
		return nil
	}
	return w.info.TypeOf(a)
}

func (w *walker) isType(e dst.Expr) bool {
	a, _ := w.astOf(e).(ast.Expr)
	if a == nil {
		return false
	}
	tv, ok := w.info.Types[a]
	return ok && tv.IsType()
}

// rval rewrites e, evaluated for its value.
func (w *walker) rval(e dst.Expr) dst.Expr {
	if e == nil || w.isType(e) {
		return e
	}
	switch x := e.(type) {
	case *dst.Ident:
		return w.wrapLoc(e, rtnames.R)
	case *dst.SelectorExpr:
		if w.isVarSel(x) {
			if w.isField(x) {
				x.X = w.base(x.X)
			}
			return w.wrapLoc(e, rtnames.R)
		}
		if w.isMethodVal(x) {
			x.X = w.recv(x)
			if v := w.syncValue(x); v != nil {
				return v
			}
		}
		return e
	case *dst.IndexExpr:
		if w.isFuncInst(x.X) {
			return e
		}
		if w.index(x, rtnames.MR) {
			return e
		}
		return w.wrapLoc(e, rtnames.R)
	case *dst.StarExpr:
		x.X = w.rval(x.X)
		return w.wrapLoc(e, rtnames.R)
	case *dst.ParenExpr:
		x.X = w.rval(x.X)
	case *dst.UnaryExpr:
		if lit, ok := x.X.(*dst.CompositeLit); ok && x.Op == token.AND {
			// &[]T{…}, &map[K]V{…}: rewritten, the literal is a call
			// (Make, MakeMap), whose address cannot be taken; Ref makes
			// the new variable & would (testdata/review19/dcl)
			if inner := w.rval(lit); inner != dst.Expr(lit) {
				w.change()
				return w.rtCall(rtnames.New, w.taskExpr(), w.rtCall(rtnames.Ref, inner))
			}
			if w.task != "" {
				w.change()
				return w.rtCall(rtnames.New, w.taskExpr(), e) // &T{…}: new memory
			}
			return e
		}
		if x.Op == token.AND {
			x.X = w.addr(x.X)
			if _, lit := x.X.(*dst.CompositeLit); lit && w.task != "" {
				w.change()
				return w.rtCall(rtnames.New, w.taskExpr(), e) // &T{…}: new memory
			}
		} else {
			x.X = w.rval(x.X)
			if x.Op == token.ARROW && w.hooks() {
				x.X = w.chanOp(rtnames.RecvOp, x.X)
			}
		}
	case *dst.BinaryExpr:
		x.X, x.Y = w.rval(x.X), w.rval(x.Y)
	case *dst.CallExpr:
		return w.call(x)
	case *dst.SliceExpr:
		x.X = w.base(x.X)
		x.Low, x.High, x.Max = w.rval(x.Low), w.rval(x.High), w.rval(x.Max)
	case *dst.TypeAssertExpr:
		x.X = w.rval(x.X)
	case *dst.CompositeLit:
		w.compositeLit(x)
		if _, isSlice := underlying(w.typeOf(x)).(*types.Slice); isSlice && x.Type != nil && w.task != "" {
			w.change()
			return w.rtCall(rtnames.Make, w.taskExpr(), e) // []T{…}: a new backing array
		}
		if isMapType(w.typeOf(x)) && x.Type != nil && w.hooks() {
			w.change()
			return w.rtCall(rtnames.MakeMap, w.taskExpr(), e) // map[K]V{…}: a new map
		}
	case *dst.KeyValueExpr:
		x.Key, x.Value = w.rval(x.Key), w.rval(x.Value)
	case *dst.FuncLit:
		a, _ := w.astOf(x).(*ast.FuncLit)
		switch {
		case a != nil && w.res.PrologueLits[a]:
			w.dynLit(x, a)
		case a != nil && w.res.DetachLits[a]:
			w.plainLit(x)
			w.detachFirst(x.Body, a.Type.Func)
		case w.cfg.HB:
			w.hbLit(x, a != nil && w.hbRoots[a])
		default:
			w.funcLit(x, "")
		}
	}
	return e
}

func (w *walker) compositeLit(x *dst.CompositeLit) {
	_, isStruct := underlying(w.typeOf(x)).(*types.Struct)
	if p, ok := underlying(w.typeOf(x)).(*types.Pointer); ok {
		_, isStruct = p.Elem().Underlying().(*types.Struct)
	}
	for i, el := range x.Elts {
		if kv, ok := el.(*dst.KeyValueExpr); ok {
			if !isStruct {
				kv.Key = w.rval(kv.Key)
			}
			kv.Value = w.rval(kv.Value)
			continue
		}
		x.Elts[i] = w.rval(el)
	}
}

// funcLit rewrites a function literal that is not a goroutine: called in
// place or deferred, it runs in the current block; anything else may run
// anywhere, so it is not checked (task "").
func (w *walker) funcLit(x *dst.FuncLit, task string) {
	v := w.with(task)
	v.block(x.Body)
	if a, ok := w.astOf(x).(*ast.FuncLit); ok {
		x.Body.List = append(v.freshFields(a.Type.Params, a.Type.Results), x.Body.List...)
	}
}

// base rewrites the operand of a selector, index or slice expression: a
// pointer, slice or map operand is read; an array or struct operand is only
// a path to the element (its address is computed, nothing is read).
func (w *walker) base(e dst.Expr) dst.Expr {
	switch underlying(w.typeOf(e)).(type) {
	case *types.Array, *types.Struct:
		return w.addr(e)
	}
	return w.rval(e)
}

// addr rewrites an expression whose address is taken: nothing is read at
// its top, its operands are rewritten.
func (w *walker) addr(e dst.Expr) dst.Expr {
	switch x := e.(type) {
	case *dst.Ident:
		return e
	case *dst.SelectorExpr:
		if w.isField(x) {
			x.X = w.base(x.X)
		}
		return e
	case *dst.IndexExpr:
		if isMapType(w.typeOf(x.X)) {
			return w.rval(e)
		}
		x.X = w.base(x.X)
		x.Index = w.rval(x.Index)
		return e
	case *dst.StarExpr:
		x.X = w.rval(x.X)
		return e
	case *dst.ParenExpr:
		x.X = w.addr(x.X)
		return e
	}
	return w.rval(e)
}

// index rewrites the operands of x[i]: a map operand is checked with
// mapFn (MR or MW), which is then the whole check (it reports true); a
// slice or array operand is a path to the element, checked by the caller.
func (w *walker) index(x *dst.IndexExpr, mapFn string) (isMap bool) {
	if isMap = isMapType(w.typeOf(x.X)); isMap {
		x.X = w.mapOp(w.rval(x.X), mapFn, x)
	} else {
		x.X = w.base(x.X)
	}
	x.Index = w.rval(x.Index)
	return isMap
}

// lval rewrites an expression that is assigned to.
func (w *walker) lval(e dst.Expr, o op) dst.Expr {
	name := map[op]string{opW: rtnames.W, opRW: rtnames.RW}[o]
	switch x := e.(type) {
	case *dst.Ident:
		if x.Name == "_" {
			return e
		}
		return w.wrapLoc(e, name)
	case *dst.SelectorExpr:
		if w.isField(x) {
			x.X = w.base(x.X)
		}
		return w.wrapLoc(e, name)
	case *dst.IndexExpr:
		if w.index(x, rtnames.MW) {
			return e
		}
		return w.wrapLoc(e, name)
	case *dst.StarExpr:
		x.X = w.rval(x.X)
		return w.wrapLoc(e, name)
	case *dst.ParenExpr:
		x.X = w.lval(x.X, o)
		return e
	}
	return e
}

// wrapLoc wraps the location e, if it is shared and addressable, as
// (*_ga_rt.<fn>(task, &e, site)).
func (w *walker) wrapLoc(e dst.Expr, fn string) dst.Expr {
	if w.task == "" {
		return e
	}
	a, _ := w.astOf(e).(ast.Expr)
	if a == nil || !addressable(a, w.info) {
		return e
	}
	switch {
	case !w.sharedLoc(a):
		w.record(a, fn, plan.Private)
		return e
	case fn == rtnames.R && w.readOnly(a):
		w.record(a, fn, plan.ReadOnly)
		return e
	case w.independentElem(a):
		w.record(a, fn, plan.Independent)
		return e
	}
	if v, ok := w.heapVerdict(a, fn); ok {
		w.recordHeap(a, fn, v)
		return e
	}
	w.record(a, fn, plan.Checked)
	w.change()
	site := w.site(a.Pos(), types.ExprString(a))
	if aggregate(w.info.TypeOf(a)) {
		fn = map[string]string{rtnames.R: rtnames.RA, rtnames.W: rtnames.WA, rtnames.RW: rtnames.RWA}[fn]
	}
	call := w.rtCall(fn, w.checkTask(a, fn, site), &dst.UnaryExpr{Op: token.AND, X: e}, siteLit(site))
	return &dst.ParenExpr{X: &dst.StarExpr{X: call}}
}

// mapOp wraps the map operand m of index expression ix as _ga_rt.MR/MW(task, m, site).
func (w *walker) mapOp(m dst.Expr, fn string, ix *dst.IndexExpr) dst.Expr {
	if w.task == "" {
		return m
	}
	a, _ := w.astOf(ix).(ast.Expr)
	if ax, ok := a.(*ast.IndexExpr); a == nil || ok && w.res.WorkerOwnedElems(ax.X) { // a pool worker's own map is private
		return m
	}
	w.change()
	return w.rtCall(fn, w.taskExpr(), m, siteLit(w.site(a.Pos(), types.ExprString(a))))
}

// rangeX rewrites the operand of a range loop: a map is read.
func (w *walker) rangeX(x dst.Expr) dst.Expr {
	t := w.typeOf(x)
	ax, _ := w.astOf(x).(ast.Expr)
	x = w.rval(x)
	if isMapType(t) && w.task != "" && !(ax != nil && w.res.WorkerOwnedElems(ax)) {
		a := ax // x itself may be rval's rewrite now (a shared global), which has no source node
		pos := token.NoPos
		what := "range"
		if a != nil {
			pos, what = a.Pos(), "range "+types.ExprString(a)
		}
		w.change()
		return w.rtCall(rtnames.MR, w.taskExpr(), x, siteLit(w.site(pos, what)))
	}
	return x
}

// rangeElemCheck returns the statement `_ga_rt.R(task, &X[key], site)` that
// checks the element read of one iteration of a range over a shared slice or
// pointer to an array, or nil when the loop has no usable key or X cannot be
// evaluated again. A range over an array value reads its elements once, when
// it copies the array before the loop: X's own check (rangelen.go).
func (w *walker) rangeElemCheck(a *ast.RangeStmt, s *dst.RangeStmt) dst.Stmt {
	switch t := underlying(w.info.TypeOf(a.X)).(type) {
	case *types.Slice:
	case *types.Pointer:
		if _, arr := t.Elem().Underlying().(*types.Array); !arr {
			return nil
		}
	default:
		return nil
	}
	// X evaluated once into a temporary (rangetemp.go); a pure X without
	// one is evaluated again (stable, or a label a goto names kept it).
	tmp := w.rangeTemp(a, s)
	if tmp == "" && !pure(a.X) || !w.sharedElem(a.X) {
		return nil
	}
	if v, ok := w.heapVerdict(a.Value, rtnames.R); ok {
		w.recordHeap(a.Value, rtnames.R, v)
		return nil
	}
	key := "_ga_i" // for _, v := range s: the check needs the index
	if id, ok := a.Key.(*ast.Ident); ok && id.Name != "_" {
		key = id.Name
		if r := rootIdent(a.X); r != nil && r.Name == key {
			key = "_ga_k" // for v, x := range v: rebindShadowed declares the key as _ga_k
		}
	}
	elem := &ast.IndexExpr{X: a.X, Index: ast.NewIdent(key)}
	fn := rtnames.R
	if aggregate(w.info.TypeOf(a.Value)) {
		fn = rtnames.RA
	}
	w.record(a.Value, rtnames.R, plan.Checked)
	if key == "_ga_i" {
		s.Key = dst.NewIdent(key)
	}
	what := types.ExprString(elem)
	if key == "_ga_i" || key == "_ga_k" {
		what = types.ExprString(a.X) + "[…]"
	}
	site := w.site(a.Value.Pos(), what)
	var x dst.Expr = dst.NewIdent(tmp)
	if tmp == "" {
		x = exprFromAST(a.X)
	}
	idx := &dst.IndexExpr{X: x, Index: dst.NewIdent(key)}
	return &dst.ExprStmt{X: w.rtCall(fn, w.checkTask(a.Value, fn, site), &dst.UnaryExpr{Op: token.AND, X: idx}, siteLit(site))}
}

func (w *walker) rtCall(fn string, args ...dst.Expr) *dst.CallExpr {
	return &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(rtAlias), Sel: dst.NewIdent(fn)}, Args: args}
}

func siteLit(id uint32) dst.Expr {
	return &dst.BasicLit{Kind: token.INT, Value: itoa(int(id))}
}

// readOnly reports whether the location a is part of a local variable that
// nothing can write while the root construct being rewritten runs, or that
// a closure captured after its last write: its reads need no check.
//
// The conservative build keeps the second: such a variable cannot change
// once the literal exists (analysis/capture.go), the compiler copies it
// into the closure, and -race does not check its reads either, so
// checking them would measure a cost no build pays. Its element-wise
// reference (the soundness tests' oracle) checks them too.
func (w *walker) readOnly(a ast.Expr) bool {
	if w.cfg.Conservative && w.cfg.Elementwise {
		return false
	}
	v := analysis.RootVar(a, w.info)
	if v != nil && w.res.ReadOnlyCaptured(v, a.Pos()) {
		return true // captured after its last write (analysis/capture.go)
	}
	return !w.checksAll() && w.provenReadOnly(v)
}

// provenReadOnly reports whether the static stage proved that nothing
// writes v's memory while the root construct being rewritten runs,
// whatever the build checks.
func (w *walker) provenReadOnly(v *types.Var) bool {
	return w.outer != nil && v != nil && w.res.ReadOnly(v, w.outer)
}

// aggregate reports whether values of t hold several checked locations: an
// array or a struct, whose whole-value accesses are checked at each leaf.
func aggregate(t types.Type) bool {
	switch underlying(t).(type) {
	case *types.Array, *types.Struct:
		return true
	}
	return false
}

// independentElem reports whether a is v[k*i+d] of a slice the analysis
// proved independent in the construct being rewritten: each iteration
// touches its own element.
func (w *walker) independentElem(a ast.Expr) bool {
	return !w.checksAll() && w.provenIndependent(a)
}

// provenIndependent is independentElem whatever the build checks.
func (w *walker) provenIndependent(a ast.Expr) bool {
	ix, ok := ast.Unparen(a).(*ast.IndexExpr)
	if !ok || w.cur == nil {
		return false
	}
	id, ok := ast.Unparen(ix.X).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := w.info.Uses[id].(*types.Var)
	return ok && w.res.Independent(w.cur)[v]
}

// record adds an access and the static stage's verdict to the plan: to the
// construct being rewritten, or to the accesses of called functions.
func (w *walker) record(a ast.Expr, fn string, v plan.Verdict, why ...string) {
	c := w.planned[w.cur]
	if w.callback != nil {
		c = w.callback
	} else if w.inClone && c != nil || w.silent {
		return // counted when the original function (or the other version) was rewritten
	}
	if v == plan.Private {
		if c != nil {
			c.Private++
		}
		return
	}
	op := map[string]plan.Op{rtnames.R: plan.Read, rtnames.W: plan.Write, rtnames.RW: plan.ReadWrite, callOp: plan.Call}[fn]
	acc := plan.Access{Pos: plan.PosOf(w.pkg.Fset, a.Pos()), What: types.ExprString(a), Op: op, Verdict: v}
	if len(why) > 0 {
		acc.Why = why[0]
	}
	switch {
	case c != nil:
		c.Accesses = append(c.Accesses, acc)
	case w.cur == nil && w.task != "":
		w.plan.Called = append(w.plan.Called, acc)
	}
}
