package analysis

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// This file extends the heap proofs of heap.go in two directions, both for
// the paper's own kernel, S(index(i), j):
//
//   - Indirect subscripts. a[idx[p]], with p a position an iteration owns
//     and idx a slice nothing in the construct writes, names an element no
//     other iteration names, provided idx holds no value twice. That is a
//     property of the data, so the proof is guarded: the rewriter tests
//     idx at the construct's start (rt.GuardInjective) and runs the checked
//     version when a value repeats.
//   - Callees walked in place. A function the goroutine body calls once,
//     that calls nothing but builtins, conversions, functions of the
//     self-contained packages accessWalker follows and functions it can
//     walk in place in turn, is walked as part of the body with its
//     parameters bound to the call's arguments, so its accesses get
//     ownership forms too. When every one of them is proven, the call needs
//     no checked clone (HeapProof.Call).
//
// Reads may also use positions no iteration owns: a[0] (or a[idx[0]]) read
// by all iterations while iteration i writes a[i] for i ≥ 1 (disjointForms).

// boundCall is a call of the goroutine body walked in place.
type boundCall struct {
	fn       *types.Func
	accesses []access
}

// bindCall walks the callee of call in place when it can (see the file
// comment), handing its accesses, and those of the callees it walks in
// place in turn, to emit. It reports whether it did; if not, the caller
// follows the callee by type as before.
func (h *heapPass) bindCall(call *ast.CallExpr, fn *types.Func, emit func(access)) bool {
	d := h.r.Decls[fn]
	if fn.Origin() != fn || h.bound[fn] || d == nil || d.Body == nil || d.Type.TypeParams != nil {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Variadic() || sig.Params().Len() != len(call.Args) || !selfContained(d.Body, h.info) {
		return false
	}
	bind := map[*types.Var]ast.Expr{}
	if recv := sig.Recv(); recv != nil {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || !isPtr(recv.Type()) || !types.Identical(recv.Type(), h.info.TypeOf(sel.X)) {
			return false // a value receiver is a copy; an implicit &x or a promoted method is not worth the cases
		}
		if v := declared(d.Recv, h.info); v != nil {
			bind[v] = sel.X
		}
	}
	for k, v := range params(d.Type.Params, h.info) {
		if v != nil {
			bind[v] = call.Args[k]
		}
	}
	for v, arg := range bind {
		if !h.immutable(v) || !pure(arg, h.info) {
			return false
		}
	}
	h.bound[fn] = true
	for v, arg := range bind {
		h.bind[v] = arg
	}
	h.collectDefs(d)
	h.inCallee = append(h.inCallee, d)
	bc := &boundCall{fn: fn}
	cw := &accessWalker{r: h.r, info: h.info, emit: func(a access) {
		bc.accesses = append(bc.accesses, a)
		emit(a)
	}}
	cw.inPlace = func(call *ast.CallExpr, fn *types.Func) bool { return h.bindCall(call, fn, cw.emit) }
	cw.callees = func(*types.Func) { cw.fail("calls a function it cannot walk in place") }
	cw.lits = func(*ast.FuncLit) { cw.fail("has a function literal") }
	cw.walk(d.Body)
	if cw.opaque != "" {
		return false
	}
	h.calls[call] = bc
	return true
}

// declared is the variable of a receiver list's single name, or nil.
func declared(fl *ast.FieldList, info *types.Info) *types.Var {
	if fl == nil || len(fl.List) != 1 || len(fl.List[0].Names) != 1 {
		return nil
	}
	v, _ := info.Defs[fl.List[0].Names[0]].(*types.Var)
	return v
}

// params lists a function's parameter variables in order, nil for _.
func params(fl *ast.FieldList, info *types.Info) []*types.Var {
	var out []*types.Var
	for _, f := range fl.List {
		if len(f.Names) == 0 {
			out = append(out, nil)
		}
		for _, id := range f.Names {
			v, _ := info.Defs[id].(*types.Var)
			if id.Name == "_" {
				v = nil
			}
			out = append(out, v)
		}
	}
	return out
}

// selfContained reports whether body runs only code a walk in place sees:
// no goroutine, defer, recover, channel operation or function literal. Its
// calls the walk checks: a function of the package is walked in place in
// turn, one of another package must be one accessWalker follows, and any
// other call makes the walk fail.
func selfContained(body *ast.BlockStmt, info *types.Info) bool {
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.GoStmt, *ast.DeferStmt, *ast.SelectStmt, *ast.SendStmt, *ast.FuncLit:
			ok = false
		case *ast.UnaryExpr:
			ok = ok && x.Op != token.ARROW
		case *ast.RangeStmt:
			_, ch := underlying(info.TypeOf(x.X)).(*types.Chan)
			_, fn := underlying(info.TypeOf(x.X)).(*types.Signature)
			ok = ok && !ch && !fn
		case *ast.CallExpr:
			ok = ok && !isBuiltin(x, "recover", info) // the walk itself rejects function values and calls it cannot follow
		}
		return ok
	})
	return ok
}

// pure reports whether e can be evaluated again with the same result as
// long as the memory it reads is unchanged: no call but len, cap, min, max
// and conversions, no receive.
func pure(e ast.Expr, info *types.Info) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			if tv := info.Types[x.Fun]; !tv.IsType() && !isBuiltin(x, "len", info) && !isBuiltin(x, "cap", info) && !isBuiltin(x, "min", info) && !isBuiltin(x, "max", info) {
				ok = false
			}
		case *ast.UnaryExpr:
			ok = ok && x.Op != token.ARROW
		case *ast.FuncLit:
			ok = false
		}
		return ok
	})
	return ok
}

// inBoundCallee reports whether v is declared in a callee walked in place.
func (h *heapPass) inBoundCallee(v *types.Var) bool {
	for _, d := range h.inCallee {
		if within(v.Pos(), d) {
			return true
		}
	}
	return false
}

// position is the element a subscript e names, as a form: an owned form
// (form), "const:c" for a constant, or "inj:X[p]" for X[p] with X a slice
// of integers nothing in the construct writes and p a position. "" when e
// is none of these.
func (h *heapPass) position(e ast.Expr) string {
	if f := h.form(e); f != "" {
		return f
	}
	if k, ok := h.r.finder.intConst(e); ok {
		return fmt.Sprintf("const:%d", k)
	}
	switch x := h.resolve(e).(type) {
	case *ast.Ident:
		return h.rangeValue(x)
	case *ast.IndexExpr:
		if p := h.cell(x); p != "" {
			return p
		}
		if !h.indexSlice(x.X) {
			return ""
		}
		if p := h.position(x.Index); p != "" {
			return h.injective("inj:"+h.canon(x.X), GuardSpan{Path: x.X, Injective: true}) + "[" + p + "]"
		}
	}
	return ""
}

// indexSlice reports whether x is a stable slice of integers that nothing
// in the construct writes: by type, or, when the construct writes other
// integers, as a root of its own that prove finds read-only (readOnlyRoot).
func (h *heapPass) indexSlice(x ast.Expr) bool {
	if _, slice := underlying(h.info.TypeOf(x)).(*types.Slice); !slice {
		return false
	}
	el := elemType(h.info.TypeOf(x))
	b, ok := underlying(el).(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0 && h.stableReadOnly(x, el)
}

// stableReadOnly reports whether x, a slice with elements of type el, is
// a stable path nothing in the construct writes: by type now, or as a
// root, which prove checks (h.readOnlyRoots).
func (h *heapPass) stableReadOnly(x ast.Expr, el types.Type) bool {
	if !h.stable(x) {
		return false
	}
	if h.written(el) {
		h.readOnlyRoots["flat:"+h.canon(x)] = true
	}
	return true
}

// readOnlyRoot reports whether a position's index slice, keyed as a root,
// is one the body only reads and nothing else writes (by type): proven
// read-only. An index slice the body never indexes directly is not a
// root: it is then read-only only by type.
func (h *heapPass) readOnlyRoot(key string, proven map[string]bool) bool {
	rt := h.roots[key]
	return rt != nil && !rt.written && proven[key]
}

// injective records the guard span a position keyed key assumes, and
// returns key.
func (h *heapPass) injective(key string, g GuardSpan) string {
	if _, ok := h.indexes[key]; !ok {
		h.indexes[key] = g
	}
	return key
}

// rangeValue is the position of e, the value variable of a range loop over
// X[lo:hi] with [lo, hi) an owned chunk (X[j] for j in the chunk), or of
// the construct's own range loop over X (X[i]).
func (h *heapPass) rangeValue(id *ast.Ident) string {
	v, _ := h.info.Uses[id].(*types.Var)
	if v != nil && v == rangeValueVar(loopStmt(h.c.List[h.c.First]), h.info) && h.immutable(v) {
		// The construct's own loop: X[i], i its (perhaps unnamed) index.
		x := loopStmt(h.c.List[h.c.First]).(*ast.RangeStmt).X
		if !h.indexSlice(x) {
			return ""
		}
		return h.injective("inj:"+h.canon(x), GuardSpan{Path: x, Injective: true}) + "[own:idx·1+0]"
	}
	rs := h.valueOf[v]
	if rs == nil || !h.immutable(v) {
		return ""
	}
	sl, ok := ast.Unparen(rs.X).(*ast.SliceExpr)
	if !ok || sl.Low == nil || sl.High == nil || sl.Slice3 || !h.indexSlice(sl.X) {
		return ""
	}
	fam, ok := h.chunk(sl.Low, sl.High)
	if !ok {
		return ""
	}
	return h.injective("inj:"+h.canon(sl.X), GuardSpan{Path: sl.X, Injective: true}) + "[own:" + fam + "·1+0]"
}

// rangeValueVar is the value variable a range loop declares, or nil.
func rangeValueVar(loop ast.Stmt, info *types.Info) *types.Var {
	rs, ok := loop.(*ast.RangeStmt)
	if !ok || rs.Tok != token.DEFINE {
		return nil
	}
	id, ok := rs.Value.(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := info.Defs[id].(*types.Var)
	return v
}

// cell is the position of X[r][c] (also through p := &X[r], as p[c]),
// with X a stable slice of arrays of integers nothing in the construct
// writes and r an owned row, directly (X[i]) or through an index slice
// (X[sel[j]]): for any column c, no other iteration names the value when
// the cells of those rows hold no value twice.
func (h *heapPass) cell(ix *ast.IndexExpr) string {
	row := h.resolve(ix.X)
	if u, ok := row.(*ast.UnaryExpr); ok && u.Op == token.AND {
		row = ast.Unparen(u.X)
	}
	rix, ok := row.(*ast.IndexExpr)
	if !ok {
		return ""
	}
	arr, ok := underlying(h.info.TypeOf(rix)).(*types.Array)
	if !ok {
		return ""
	}
	if _, slice := underlying(h.info.TypeOf(rix.X)).(*types.Slice); !slice || !h.stableReadOnly(rix.X, arr) {
		return ""
	}
	if b, ok := underlying(arr.Elem()).(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return ""
	}
	p := h.position(rix.Index)
	g := GuardSpan{Path: rix.X, Injective: true, Cells: true, Elem: arr.Elem()}
	key := "cells:" + h.canon(rix.X)
	if inner, ok := strings.CutPrefix(p, "inj:"); ok {
		open := strings.Index(inner, "[")
		if open < 0 || strings.Contains(inner[open+1:], "inj:") {
			return ""
		}
		sel := h.indexes["inj:"+inner[:open]]
		g.Sel = sel.Path
		key += "@" + inner[:open]
		p = inner[open+1 : len(inner)-1]
	}
	if !owning(p) || strings.Contains(p, "inj:") {
		return ""
	}
	return h.injective(key, g) + "[" + p + "]"
}

// owning reports whether a position is owned by one iteration: it names
// no constant.
func owning(pos string) bool { return pos != "" && !strings.Contains(pos, "const:") }

// disjointForms reports whether no element at position r is at position
// w in any iteration: both go through the same index slices, and r's
// innermost position is a constant below the smallest value of w's
// i+d (the loop counting up from its first index).
func (h *heapPass) disjointForms(r, w string) bool {
	for strings.HasPrefix(r, "inj:") {
		end := strings.Index(r, "[")
		if end < 0 || !strings.HasPrefix(w, r[:end+1]) {
			return false
		}
		r, w = strings.TrimSuffix(r[end+1:], "]"), strings.TrimSuffix(w[end+1:], "]")
	}
	var c, k, d int64
	if _, err := fmt.Sscanf(r, "const:%d", &c); err != nil {
		return false
	}
	rest, ok := strings.CutPrefix(w, "own:idx·")
	if !ok {
		return false
	}
	if _, err := fmt.Sscanf(rest, "%d%d", &k, &d); err != nil || k != 1 {
		// k*i+d for k > 1 may wrap below c; i+d wraps only to a negative,
		// invalid index.
		return false
	}
	lo, ok := h.firstIndex()
	if !ok {
		return false
	}
	least, isConst := lo.scale(k).add(linear{k: d - c}, 1).constant()
	return isConst && least > 0
}

// firstIndex is the loop index's first value when the loop counts up:
// for i := lo; …; i++ (or i += s, s a positive constant), or a range loop.
func (h *heapPass) firstIndex() (linear, bool) {
	switch l := loopStmt(h.c.List[h.c.First]).(type) {
	case *ast.RangeStmt:
		return linear{}, true
	case *ast.ForStmt:
		if h.step != nil {
			if s, ok := h.r.finder.intConst(h.step); !ok || s <= 0 {
				return linear{}, false
			}
		}
		as, ok := l.Init.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return linear{}, false
		}
		return h.lin(as.Rhs[0], 0)
	}
	return linear{}, false
}

// Call returns the proof that the call of the goroutine body needs no
// checked clone: its callee, walked in place, makes only proven accesses.
func (p *HeapProof) Call(call *ast.CallExpr) (HeapVerdict, bool) {
	v, ok := p.calls[call]
	return v, ok
}

// proveCalls records a verdict for each call walked in place whose every
// access is proven.
func (h *heapPass) proveCalls(p *HeapProof) {
	for call, bc := range h.calls {
		v := HeapVerdict{Independent: true, Why: "every access " + bc.fn.Name() + " makes is proven"}
		ok := true
		for _, a := range bc.accesses {
			key := a.e
			if a.key != nil {
				key = a.key
			}
			av, proven := p.verdicts[ast.Unparen(key)]
			if !proven || !av.Independent && a.mode != read {
				ok = false
				break
			}
			v.Guarded = v.Guarded || av.Guarded
		}
		if ok {
			if v.Guarded {
				v.Why += " (under the construct's guard)"
			}
			p.calls[call] = v
		}
	}
}
