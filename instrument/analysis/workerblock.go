package analysis

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// The worker-block half of worker-owned memory (see workerowned.go):
// elements a[k*w+d] indexed by the worker's index, and the helpers that
// only index so.

// workerIndexed adds the bases a[k*w+d] of the accesses that pool c's
// workers make in their items with w the worker's index (the loop index
// that forks them, or a parameter the fork binds to it). A slice a must be
// a local no one writes while c runs (every worker indexes the same
// array); all the accesses to a in the items that use the index must use
// one k, with offsets d that differ by less than |k|, and nothing else in the worker may index a with the
// index otherwise (so two workers never meet at one element); and when
// several slices of types that may overlap are indexed so, each must hold
// its own make and never be assigned again (so they are different arrays).
// A worker whose items may start goroutines (themselves or in a callee)
// gets none: the goroutines' blocks would not follow the worker's.
func (r *Result) workerIndexed(c *Construct, o *workerOwnership) {
	out := o.block
	info := r.finder.info
	loop := loopStmt(c.List[c.First])
	indexed := c.Index != nil && loop != nil && len(c.Forks) == 1 && r.loopOwned(c)
	captured := indexed && r.loopVarsPerIteration(loop)
	byRoot := map[*types.Var][]wuse{}
	type callUse struct {
		call *ast.CallExpr
		uses []rootUse
	}
	var calls []callUse
	for _, fk := range c.Forks {
		if fk.Body == nil || fk.ItemLoop() == nil || r.finder.startsGoroutines(fk.itemBody()) {
			continue
		}
		index := map[*types.Var]bool{} // empty: only helpers lent the worker's objects
		if indexed && onePerIteration(loop, fk.Node) {
			if captured {
				index[c.Index] = true
			}
			for v := range r.boundToIndex(fk, c.Index) {
				index[v] = true
			}
		}
		var stack []ast.Node // inside a function literal when non-empty
		ast.Inspect(fk.Body.Body, func(n ast.Node) bool {
			if n == nil {
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
				return false
			}
			if _, lit := n.(*ast.FuncLit); lit || len(stack) > 0 {
				stack = append(stack, n)
			}
			if call, ok := n.(*ast.CallExpr); ok && len(stack) == 0 && within(call.Pos(), fk.itemBody()) {
				if us, ok := r.workerCall(call, index, r.owned.vars); ok {
					for _, u := range us {
						byRoot[u.root] = append(byRoot[u.root], wuse{nil, u.k, u.d, false})
					}
					calls = append(calls, callUse{call, us})
				}
			}
			ix, ok := n.(*ast.IndexExpr)
			if !ok {
				return true
			}
			id, ok := ast.Unparen(ix.X).(*ast.Ident)
			if !ok {
				return true
			}
			root, _ := info.Uses[id].(*types.Var)
			if root == nil || index[root] || within(root.Pos(), fk.Body) {
				return true
			}
			k, d, ok := affineIn(ix.Index, index, info)
			switch {
			case ok && k != 0:
				byRoot[root] = append(byRoot[root], wuse{ix, k, d, len(stack) == 0 && within(ix.Pos(), fk.itemBody())})
			case ok && k == 0:
				// a constant position: per item or the worker's, checked as usual
			case anyVar(ix.Index, index, info):
				byRoot[root] = append(byRoot[root], wuse{ix, 0, 0, false}) // another use of the index: spoils the root
			}
			return true
		})
	}
	var roots []*types.Var
	for root, us := range byRoot {
		ok := r.stableBase(root, c)
		lo, hi := us[0].d, us[0].d
		for _, u := range us {
			ok = ok && u.k != 0 && u.k == us[0].k
			lo, hi = min(lo, u.d), max(hi, u.d)
		}
		// k*w1+d1 = k*w2+d2 needs |k| to divide d2-d1: offsets closer
		// than |k| keep two workers apart (stat[2*w], stat[2*w+1]).
		ok = ok && hi-lo < max(us[0].k, -us[0].k)
		if ok {
			roots = append(roots, root)
		}
	}
	var kept []*types.Var
	for _, a := range roots {
		apart := true
		for _, b := range roots {
			if a != b && mayOverlap(elemOf(a.Type()), elemOf(b.Type())) && !(r.ownArray(a) && r.ownArray(b)) {
				apart = false
			}
		}
		if apart {
			kept = append(kept, a)
		}
	}
	isKept := map[*types.Var]bool{}
	for _, root := range kept {
		isKept[root] = true
		for _, u := range byRoot[root] {
			if u.mark {
				out[u.base] = true
			}
		}
	}
	for _, cu := range calls {
		all := true
		for _, u := range cu.uses {
			all = all && isKept[u.root]
		}
		switch {
		case all && len(cu.uses) == 0:
			o.private[cu.call] = true
		case all:
			out[cu.call] = true
		}
	}
	for _, root := range kept {
		r.noteReach(c, root, byRoot[root], o)
	}
}

// wuse is a use a[k*w+d] of a slice a by the worker's index w (base nil
// for a helper's), marked when it is in the items, outside function
// literals: in the worker's block.
type wuse struct {
	base *ast.IndexExpr
	k, d int64
	mark bool
}

// rootUse is an access a[k*w+d] made by a callee, a being the caller's
// variable root.
type rootUse struct {
	root *types.Var
	k, d int64
}

// workerCall reads a call made in an item to a helper (see helper) whose
// element accesses p[q] all go through parameters bound to the worker's
// own objects (any q) or to a variable a of the caller with q = k*w+d in
// parameters bound to the worker's index. It returns the latter in the
// caller's terms.
func (r *Result) workerCall(call *ast.CallExpr, index, owned map[*types.Var]bool) ([]rootUse, bool) {
	info := r.finder.info
	h := r.helper(call)
	if h == nil {
		return nil, false
	}
	roots := map[*types.Var]*types.Var{} // parameter -> the caller's variable
	idx := map[*types.Var]bool{}         // parameters bound to the worker's index
	own := map[*types.Var]bool{}         // parameters bound to the worker's objects
	for k, p := range h.params {
		id, ok := ast.Unparen(call.Args[k]).(*ast.Ident)
		v, _ := info.Uses[id].(*types.Var)
		switch {
		case p == nil || !ok || v == nil:
		case index[v]:
			idx[p] = true
		case owned[v]:
			own[p] = true
		default:
			roots[p] = v
		}
	}
	var out []rootUse
	for _, x := range h.elems {
		p, _ := info.Uses[ast.Unparen(x.X).(*ast.Ident)].(*types.Var)
		if own[p] {
			continue
		}
		k, d, aff := affineIn(x.Index, idx, info)
		if roots[p] == nil || !aff || k == 0 {
			return nil, false
		}
		out = append(out, rootUse{roots[p], k, d})
	}
	return out, len(h.elems) > 0
}

// helperFn is a function of the package simple enough to follow from a pool
// item: no method, no type parameter, parameters never written nor
// captured, and a body with no call (but len, cap and conversions),
// goroutine, deferred call, closure, global, pointer, channel operation or
// range over memory, whose only memory accesses are elements p[q] of its
// parameters (elems) and of its own arrays.
type helperFn struct {
	params  []*types.Var        // by argument position; nil for _ or unnamed
	elems   []*ast.IndexExpr    // p[q], p a parameter
	indexed map[*types.Var]bool // parameters used only as p[q] or in len, cap
}

func isParamIdent(id *ast.Ident, isParam map[*types.Var]bool, info *types.Info) bool {
	v, _ := info.Uses[id].(*types.Var)
	return isParam[v]
}

// helper returns the helper that call runs, or nil.
func (r *Result) helper(call *ast.CallExpr) *helperFn {
	info := r.finder.info
	fn := r.finder.callee(call)
	if fn == nil || call.Ellipsis.IsValid() {
		return nil
	}
	d := r.Decls[fn]
	if d == nil || d.Recv != nil || d.Type.TypeParams != nil {
		return nil
	}
	h := &helperFn{indexed: map[*types.Var]bool{}}
	isParam := map[*types.Var]bool{}
	for _, field := range d.Type.Params.List {
		if len(field.Names) == 0 {
			h.params = append(h.params, nil)
			continue
		}
		for _, name := range field.Names {
			p, _ := info.Defs[name].(*types.Var)
			if w := r.writes[p]; p == nil || r.Shared[p] || w != nil && (len(w.at) > 0 || w.elsewhere) {
				return nil
			}
			h.params = append(h.params, p)
			isParam[p] = true
			h.indexed[p] = true
		}
	}
	if len(h.params) != len(call.Args) {
		return nil
	}
	ok := true
	var stack []ast.Node
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		switch x := n.(type) {
		case *ast.GoStmt, *ast.DeferStmt, *ast.FuncLit, *ast.StarExpr, *ast.SendStmt, *ast.UnaryExpr, *ast.SelectStmt:
			if u, isU := n.(*ast.UnaryExpr); !isU || u.Op == token.AND || u.Op == token.ARROW {
				ok = false
			}
		case *ast.CallExpr:
			if tv, conv := info.Types[x.Fun]; !(conv && tv.IsType()) {
				if name := builtinName(x, info); name != "len" && name != "cap" {
					ok = false
				}
			}
		case *ast.RangeStmt:
			if _, isInt := underlying(info.TypeOf(x.X)).(*types.Basic); !isInt {
				ok = false
			}
		case *ast.SelectorExpr:
			if s := info.Selections[x]; s == nil || s.Kind() != types.FieldVal || s.Indirect() || isPtr(info.TypeOf(x.X)) {
				ok = false
			}
		case *ast.Ident:
			v, isVar := info.Uses[x].(*types.Var)
			if isVar && !v.IsField() && (v.Parent() == nil || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || !within(v.Pos(), d)) {
				ok = false // a global, or a variable of another function
			}
			if isVar && isParam[v] {
				ix, isIx := parent.(*ast.IndexExpr)
				call, isCall := parent.(*ast.CallExpr)
				if !(isIx && ix.X == x || isCall && (builtinName(call, info) == "len" || builtinName(call, info) == "cap")) {
					h.indexed[v] = false
				}
			}
		case *ast.IndexExpr:
			id, isID := ast.Unparen(x.X).(*ast.Ident)
			_, arr := underlying(info.TypeOf(x.X)).(*types.Array)
			switch {
			case !isID && !arr:
				ok = false // through a slice or map held in memory
			case !isID:
				// an array value's element: its operand is looked at in turn
			case isParamIdent(id, isParam, info) && !isMapOrString(info.TypeOf(x.X)):
				h.elems = append(h.elems, x)
			case !arr:
				ok = false // a local slice or map of the helper
			}
		}
		return ok
	})
	if !ok {
		return nil
	}
	return h
}

// loopVarsPerIteration reports whether the loop's variables are new in each
// iteration (see PerIterationLoopVars), so a goroutine literal that
// captures the index sees the value of its own iteration.
func (r *Result) loopVarsPerIteration(loop ast.Stmt) bool {
	for _, f := range r.finder.files {
		if f.Pos() <= loop.Pos() && loop.End() <= f.End() {
			return PerIterationLoopVars(r.finder.info, f)
		}
	}
	return false
}

// boundToIndex lists the parameters of go func(p …){…}(…, i, …) bound to
// the loop index i and never written.
func (r *Result) boundToIndex(fk *Fork, index *types.Var) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	g, ok := fk.Node.(*ast.GoStmt)
	if !ok || g.Call.Ellipsis.IsValid() {
		return out
	}
	info := r.finder.info
	k := 0
	for _, field := range fk.Body.Type.Params.List {
		for _, name := range field.Names {
			if k < len(g.Call.Args) {
				id, isID := ast.Unparen(g.Call.Args[k]).(*ast.Ident)
				p, _ := info.Defs[name].(*types.Var)
				w := r.writes[p]
				if isID && p != nil && info.Uses[id] == index && (w == nil || len(w.at) == 0 && !w.elsewhere) {
					out[p] = true
				}
			}
			k++
		}
		if len(field.Names) == 0 {
			k++
		}
	}
	return out
}

// stableBase reports whether every worker indexes the same memory through
// root while c runs: an array variable whose address is never taken, or a
// local slice that nothing writes while c runs.
func (r *Result) stableBase(root *types.Var, c *Construct) bool {
	if root.Parent() == nil || root.Pkg() == nil || root.Parent() == root.Pkg().Scope() {
		return false
	}
	switch root.Type().Underlying().(type) {
	case *types.Array:
		w := r.writes[root]
		return w != nil && !w.elsewhere
	case *types.Slice:
		return r.ReadOnly(root, c)
	}
	return false
}

// ownArray reports whether root is an array variable, or a slice that
// holds its own make and is never assigned again.
func (r *Result) ownArray(root *types.Var) bool {
	w := r.writes[root]
	if _, arr := root.Type().Underlying().(*types.Array); arr {
		return w != nil && !w.elsewhere
	}
	return r.made[root] && w != nil && len(w.at) == 0 && !w.elsewhere
}

func elemOf(t types.Type) types.Type {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	}
	return t
}

// affineIn reads e as k*w+d with w one of index (all the same value) and
// k, d small integer constants.
func affineIn(e ast.Expr, index map[*types.Var]bool, info *types.Info) (k, d int64, ok bool) {
	const limit = 1 << 20 // |k·w| cannot wrap for any number of goroutines
	if tv, isConst := info.Types[e]; isConst && tv.Value != nil {
		c, exact := constant.Int64Val(constant.ToInt(tv.Value))
		return 0, c, exact && -limit < c && c < limit
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, _ := info.Uses[x].(*types.Var)
		return 1, 0, index[v] && isWordInt(v.Type())
	case *ast.BinaryExpr:
		k1, d1, ok1 := affineIn(x.X, index, info)
		k2, d2, ok2 := affineIn(x.Y, index, info)
		if !ok1 || !ok2 {
			return 0, 0, false
		}
		switch x.Op {
		case token.ADD:
			k, d = k1+k2, d1+d2
		case token.SUB:
			k, d = k1-k2, d1-d2
		case token.MUL:
			if k1 != 0 && k2 != 0 {
				return 0, 0, false
			}
			k, d = k1*d2+k2*d1, d1*d2
		default:
			return 0, 0, false
		}
		return k, d, -limit < k && k < limit && -limit < d && d < limit
	}
	return 0, 0, false
}

// isWordInt reports whether t is int or uint (an index that cannot wrap
// over the range of goroutine numbers).
func isWordInt(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && (b.Kind() == types.Int || b.Kind() == types.Uint || b.Kind() == types.Int64 || b.Kind() == types.Uint64)
}

// anyVar reports whether e mentions one of vars.
func anyVar(e ast.Expr, vars map[*types.Var]bool, info *types.Info) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, _ := info.Uses[id].(*types.Var); vars[v] {
				found = true
			}
		}
		return !found
	})
	return found
}

// startsGoroutines reports whether the code of n may start a goroutine:
// itself, or through a function it calls, transitively, that starts one or
// that belongs to another package that is not the standard library's (a
// construct there would run on the worker's task too). Calls through
// values run unchecked and start no block of the worker's.
func (f *finder) startsGoroutines(n ast.Node) bool {
	seen := map[*types.Func]bool{}
	var forks func(n ast.Node) bool
	forks = func(n ast.Node) bool {
		found := false
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.GoStmt:
				found = true
			case *ast.CallExpr:
				if f.goMethod(m) != "" {
					found = true
				} else if fn := f.callee(m); fn != nil && !seen[fn] {
					seen[fn] = true
					if d := f.res.Decls[fn.Origin()]; d != nil {
						found = forks(d.Body)
					} else {
						found = fn.Pkg() != nil && fn.Pkg() != f.pkg && !Standard(fn.Pkg().Path())
					}
				}
			}
			return !found
		})
		return found
	}
	return forks(n)
}

// Standard reports whether path names a package of the standard library:
// its first element has no dot.
func Standard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
