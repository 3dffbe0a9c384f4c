package analysis

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"go/version"
	"strings"
)

// Worker-owned memory (DESIGN.md "Worker-owned memory"). In a worker pool
// each item is a block of its own, so an access made inside an item is
// checked as if any worker could have made it. Memory whose address only
// one worker computes is different: that worker uses it sequentially in
// every schedule. Two kinds are recognised here, for the workers that are
// function literals with their item loop in their body:
//
//   - an object the worker allocates before its item loop and reaches only
//     through a variable of its own that never lets the pointer go
//     (WorkerOwned): nothing else can touch it, so its accesses are
//     private, like the worker's other locals, in every build;
//   - an element a[k*w+d] of a slice no one reassigns while the pool runs,
//     w the worker's index (WorkerBlock): distinct workers touch distinct
//     elements, so the access belongs to the worker's own block, which the
//     rewriter checks with Task.Worker. Its conflicts with items (a[it]),
//     with the parent and with other code stay visible; only the
//     conflicts between two items of one worker, which no schedule has,
//     are gone.
//
// Everything else, whose address depends on the item or on neither (a
// captured variable, a global), stays per item.

// workerOwnership is what the pool workers of a package own.
type workerOwnership struct {
	vars    map[*types.Var]bool    // variables whose objects only their worker reaches
	block   map[ast.Expr]bool      // bases a[k*w+d] of accesses in the worker's block, and calls
	private map[*ast.CallExpr]bool // calls of helpers that only index the worker's objects
}

// WorkerOwned reports whether the location e lies in an object that a pool
// worker allocated and that no other goroutine can reach: a part of v[i],
// *v or v.f for such a variable v, through fields and array elements.
func (r *Result) WorkerOwned(e ast.Expr) bool {
	o := r.ownership()
	info := r.finder.info
	switch b := locBase(e, info).(type) {
	case *ast.IndexExpr:
		return o.ownedVar(b.X, info) && !isMapOrString(info.TypeOf(b.X))
	case *ast.StarExpr:
		return o.ownedVar(b.X, info)
	case *ast.SelectorExpr:
		return o.ownedVar(b.X, info) && isPtr(info.TypeOf(b.X))
	}
	return false
}

// WorkerOwnedElems reports whether the elements of the slice, map or
// pointer to array x lie in an object only its pool worker reaches (see
// WorkerOwned).
func (r *Result) WorkerOwnedElems(x ast.Expr) bool {
	return r.ownership().ownedVar(x, r.finder.info)
}

// WorkerBlock reports whether the location e, inside a pool worker's item
// loop, is a part of a[k*w+d] with w the worker's index and a a slice or
// array that no other worker can index at the same element: it belongs to
// the worker's own block, not the item's.
func (r *Result) WorkerBlock(e ast.Expr) bool {
	b, ok := locBase(e, r.finder.info).(*ast.IndexExpr)
	return ok && r.ownership().block[b]
}

// WorkerCall reports whether the call, inside a pool worker's item loop,
// runs a function of the package whose every access is a[k*w+d] through
// its parameters, bound to a slice and to the worker's index as above: the
// whole call belongs to the worker's own block, and its checked clone gets
// the worker's task.
func (r *Result) WorkerCall(call *ast.CallExpr) bool {
	return r.ownership().block[call]
}

// WorkerCallPrivate reports whether the call, inside a pool worker's item
// loop, runs a helper whose only accesses are elements of objects the
// worker keeps (see WorkerOwned): they are private, so the function runs
// as written. (Checking them, even in the worker's block, could meet a
// stale history: such an object may live on the worker's stack, which
// moves when it grows.)
func (r *Result) WorkerCallPrivate(call *ast.CallExpr) bool {
	return r.ownership().private[call]
}

func (o *workerOwnership) ownedVar(x ast.Expr, info *types.Info) bool {
	id, ok := x.(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := info.Uses[id].(*types.Var)
	return v != nil && o.vars[v]
}

// locBase strips from the location e the steps that stay inside one
// object's storage (a field of a struct value, an element of an array
// value) and returns what is left: the access that reaches the object.
func locBase(e ast.Expr, info *types.Info) ast.Expr {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			s := info.Selections[x]
			if s == nil || s.Kind() != types.FieldVal || s.Indirect() || isPtr(info.TypeOf(x.X)) {
				return e
			}
			e = x.X
		case *ast.IndexExpr:
			if _, arr := underlying(info.TypeOf(x.X)).(*types.Array); !arr {
				return e
			}
			if _, isVar := x.X.(*ast.Ident); isVar {
				return e // an element of an array variable: the variable is the object
			}
			e = x.X
		default:
			return e
		}
	}
}

// ownership computes, once, what the pool workers of the package own.
func (r *Result) ownership() *workerOwnership {
	if r.owned != nil {
		return r.owned
	}
	o := &workerOwnership{vars: map[*types.Var]bool{}, block: map[ast.Expr]bool{}, private: map[*ast.CallExpr]bool{}}
	r.owned = o
	for _, c := range r.Constructs {
		if c.Kind != Pool {
			continue
		}
		for _, fk := range c.Forks {
			if fk.Body != nil && fk.Items != nil {
				r.ownedVars(fk, o.vars)
			}
		}
		r.workerIndexed(c, o)
	}
	return o
}

// ownedVars adds the variables that worker fk declares before its item
// loop and whose objects it never lets go: every value assigned to one is a
// fresh allocation (new, make, &T{…}, a slice or map literal, nil, append
// to itself, a slice of itself), and every other use reaches into the
// object (v[i], *v, v.f, range v, len, cap, delete, clear, a comparison
// with nil) without taking an address inside it.
func (r *Result) ownedVars(fk *Fork, out map[*types.Var]bool) {
	info := r.finder.info
	cands := map[*types.Var]bool{}
	add := func(id *ast.Ident) {
		if v, ok := info.Defs[id].(*types.Var); ok && !r.Shared[v] {
			switch v.Type().Underlying().(type) {
			case *types.Pointer, *types.Slice, *types.Map:
				cands[v] = true
			}
		}
	}
	for _, s := range fk.Body.Body.List {
		if s == fk.Items {
			break
		}
		switch s := s.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE {
				for _, l := range s.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						add(id)
					}
				}
			}
		case *ast.DeclStmt:
			if g, ok := s.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, sp := range g.Specs {
					for _, id := range sp.(*ast.ValueSpec).Names {
						add(id)
					}
				}
			}
		}
	}
	if len(cands) == 0 {
		return
	}
	var stack []ast.Node
	ast.Inspect(fk.Body.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if id, ok := n.(*ast.Ident); ok {
			v, _ := info.Uses[id].(*types.Var)
			if v == nil {
				v, _ = info.Defs[id].(*types.Var)
			}
			if cands[v] && !r.keepsOwned(id, v, stack) {
				delete(cands, v)
			}
		}
		stack = append(stack, n)
		return true
	})
	for v := range cands {
		out[v] = true
	}
}

// keepsOwned reports whether the occurrence id of v (whose ancestors are
// stack, innermost last) keeps v's object to its worker.
func (r *Result) keepsOwned(id *ast.Ident, v *types.Var, stack []ast.Node) bool {
	info := r.finder.info
	parent := func(k int) ast.Node {
		if k < len(stack) {
			return stack[len(stack)-1-k]
		}
		return nil
	}
	// assignedToV reports whether the expression n is the value assigned
	// to v by its parent statement.
	assignedToV := func(n ast.Node, p ast.Node) bool {
		if a, ok := p.(*ast.AssignStmt); ok && len(a.Lhs) == len(a.Rhs) && (a.Tok == token.ASSIGN || a.Tok == token.DEFINE) {
			for k, rhs := range a.Rhs {
				if rhs == n {
					l, _ := a.Lhs[k].(*ast.Ident)
					return l != nil && (info.Uses[l] == v || info.Defs[l] == v)
				}
			}
		}
		return false
	}
	switch p := parent(0).(type) {
	case *ast.AssignStmt:
		for k, l := range p.Lhs {
			if l == id {
				return (p.Tok == token.ASSIGN || p.Tok == token.DEFINE) && len(p.Lhs) == len(p.Rhs) && fresh(p.Rhs[k], v, info)
			}
		}
		return false
	case *ast.ValueSpec:
		for k, n := range p.Names {
			if n == id {
				return len(p.Values) == 0 || len(p.Values) == len(p.Names) && fresh(p.Values[k], v, info)
			}
		}
		return false
	case *ast.IndexExpr:
		return p.X == id && insideOnly(stack[:len(stack)-1], p, info)
	case *ast.StarExpr:
		return insideOnly(stack[:len(stack)-1], p, info)
	case *ast.SelectorExpr:
		s := info.Selections[p]
		return s != nil && s.Kind() == types.FieldVal && len(s.Index()) == 1 && insideOnly(stack[:len(stack)-1], p, info)
	case *ast.RangeStmt:
		return p.X == id
	case *ast.BinaryExpr:
		return (p.Op == token.EQL || p.Op == token.NEQ) && (isNil(p.X, info) || isNil(p.Y, info))
	case *ast.SliceExpr:
		return p.X == id && assignedToV(p, parent(1))
	case *ast.CallExpr:
		switch builtinName(p, info) {
		case "len", "cap":
			return true
		case "delete", "clear":
			return len(p.Args) > 0 && p.Args[0] == id
		case "append":
			return len(p.Args) > 0 && p.Args[0] == id && assignedToV(p, parent(1))
		case "":
			return r.lentToHelper(p, id)
		}
	}
	return false
}

// lentToHelper reports whether the argument arg of call only reaches
// elements of what it points to: the callee is a helper (see helper) that
// indexes the parameter and does nothing else with it, so the object does
// not escape. The helper's accesses are checked (in the worker's block when
// called from an item, see workerCall); the worker's own stay private.
func (r *Result) lentToHelper(call *ast.CallExpr, arg ast.Expr) bool {
	h := r.helper(call)
	if h == nil {
		return false
	}
	for k, a := range call.Args {
		if a == arg {
			p := h.params[k]
			return p != nil && h.indexed[p]
		}
	}
	return false
}

// insideOnly reports whether the location loc (whose ancestors are stack)
// is used without its address escaping: not &loc, not a slice of an array
// inside it, not the receiver of a method (which may take its address).
func insideOnly(stack []ast.Node, loc ast.Expr, info *types.Info) bool {
	for k := len(stack) - 1; k >= 0; k-- {
		switch p := stack[k].(type) {
		case *ast.ParenExpr:
			loc = p
			continue
		case *ast.SelectorExpr:
			if s := info.Selections[p]; s != nil && s.Kind() == types.FieldVal && p.X == loc && !isPtr(info.TypeOf(loc)) {
				loc = p
				continue
			}
			return p.X != loc // a method value, or a field through a pointer stored in the object
		case *ast.IndexExpr:
			if _, arr := underlying(info.TypeOf(loc)).(*types.Array); arr && p.X == loc {
				loc = p
				continue
			}
			return true
		case *ast.UnaryExpr:
			return p.Op != token.AND
		case *ast.SliceExpr:
			_, arr := underlying(info.TypeOf(loc)).(*types.Array)
			return !(arr && p.X == loc)
		}
		return true
	}
	return true
}

// fresh reports whether e, assigned to v, is new memory or v's own.
func fresh(e ast.Expr, v *types.Var, info *types.Info) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return isNil(x, info)
	case *ast.CompositeLit:
		switch underlying(info.TypeOf(x)).(type) {
		case *types.Slice, *types.Map:
			return true
		}
		return false
	case *ast.UnaryExpr:
		_, lit := ast.Unparen(x.X).(*ast.CompositeLit)
		return x.Op == token.AND && lit
	case *ast.SliceExpr:
		id, ok := ast.Unparen(x.X).(*ast.Ident)
		return ok && info.Uses[id] == v
	case *ast.CallExpr:
		switch builtinName(x, info) {
		case "new", "make":
			return true
		case "append":
			id, ok := ast.Unparen(x.Args[0]).(*ast.Ident)
			return ok && info.Uses[id] == v
		}
	}
	return false
}

func isNil(e ast.Expr, info *types.Info) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := info.Uses[id].(*types.Nil)
	return isNil
}

// builtinName is the name of the builtin call calls, or "".
func builtinName(call *ast.CallExpr, info *types.Info) string {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return ""
	}
	if _, ok := info.Uses[id].(*types.Builtin); !ok {
		return ""
	}
	return id.Name
}

// workerIndexed adds the bases a[k*w+d] of the accesses that pool c's
// workers make in their items with w the worker's index (the loop index
// that forks them, or a parameter the fork binds to it). A slice a must be
// a local no one writes while c runs (every worker indexes the same
// array); all the accesses to a in the items that use the index must use
// one form k, d, and nothing else in the worker may index a with the
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
	type use struct {
		base *ast.IndexExpr
		k, d int64
		mark bool // in the items, outside function literals: in the worker's block
	}
	byRoot := map[*types.Var][]use{}
	type callUse struct {
		call *ast.CallExpr
		uses []rootUse
	}
	var calls []callUse
	for _, fk := range c.Forks {
		if fk.Body == nil || fk.Items == nil || r.finder.startsGoroutines(fk.Items.Body) {
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
			if call, ok := n.(*ast.CallExpr); ok && len(stack) == 0 && within(call.Pos(), fk.Items.Body) {
				if us, ok := r.workerCall(call, index, r.owned.vars); ok {
					for _, u := range us {
						byRoot[u.root] = append(byRoot[u.root], use{nil, u.k, u.d, false})
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
				byRoot[root] = append(byRoot[root], use{ix, k, d, len(stack) == 0 && within(ix.Pos(), fk.Items.Body)})
			case ok && k == 0:
				// a constant position: per item or the worker's, checked as usual
			case anyVar(ix.Index, index, info):
				byRoot[root] = append(byRoot[root], use{ix, 0, 0, false}) // another use of the index: spoils the root
			}
			return true
		})
	}
	var roots []*types.Var
	for root, us := range byRoot {
		ok := r.stableBase(root, c)
		for _, u := range us {
			ok = ok && u.k != 0 && u.k == us[0].k && u.d == us[0].d
		}
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
// iteration (go1.22 and later), so a goroutine literal that captures the
// index sees the value of its own iteration.
func (r *Result) loopVarsPerIteration(loop ast.Stmt) bool {
	for _, f := range r.finder.files {
		if f.Pos() <= loop.Pos() && loop.End() <= f.End() {
			v := r.finder.info.FileVersions[f]
			return v == "" || version.Compare(v, "go1.22") >= 0
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
						found = fn.Pkg() != nil && fn.Pkg() != f.pkg && !standard(fn.Pkg().Path())
					}
				}
			}
			return !found
		})
		return found
	}
	return forks(n)
}

// standard reports whether path is a package of the standard library (its
// first element has no dot).
func standard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
