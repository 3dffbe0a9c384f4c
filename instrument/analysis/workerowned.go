package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
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
	vars    map[*types.Var]bool      // variables whose objects only their worker reaches
	until   map[*types.Var]token.Pos // where the worker hands such an object over, after its items
	block   map[ast.Expr]bool        // bases a[k*w+d] of accesses in the worker's block, and calls
	private map[*ast.CallExpr]bool   // calls of helpers that only index the worker's objects
	notes   []Note                   // worker-block accesses whose conflicts depend on the schedule (workerreach.go)
}

// WorkerOwned reports whether the location e lies in an object that a pool
// worker allocated and that no other goroutine can reach: a part of v[i],
// *v or v.f for such a variable v, through fields and array elements.
func (r *Result) WorkerOwned(e ast.Expr) bool {
	return r.ownership().ownsLoc(e, r.finder.info)
}

// ownsLoc reports whether the location e lies in an object o's variables
// hold (see WorkerOwned).
func (o *workerOwnership) ownsLoc(e ast.Expr, info *types.Info) bool {
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
	if v == nil || !o.vars[v] {
		return false
	}
	end, ok := o.until[v]
	return !ok || x.Pos() < end
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
	o := &workerOwnership{vars: map[*types.Var]bool{}, until: map[*types.Var]token.Pos{}, block: map[ast.Expr]bool{}, private: map[*ast.CallExpr]bool{}}
	r.owned = o
	for _, c := range r.Constructs {
		if c.Kind != Pool {
			continue
		}
		for _, fk := range c.Forks {
			if fk.Lit() != nil && fk.ItemLoop() != nil {
				r.ownedVars(fk, o, func(call *ast.CallExpr, arg *ast.Ident) bool { return r.lentToHelper(call, arg) })
			}
		}
		r.workerIndexed(c, o)
	}
	for v := range r.callbackOwned { // callitems.go
		o.vars[v] = true
	}
	return o
}

// ownedVars adds the variables that worker fk declares before its item
// loop and whose objects it never lets go: every value assigned to one is a
// fresh allocation (new, make, &T{…}, a slice or map literal, nil, append
// to itself, a slice of itself), and every other use reaches into the
// object (v[i], *v, v.f, range v, len, cap, delete, clear, a comparison
// with nil) without taking an address inside it.
//
// A use after the item loop that lets the pointer go (out[w] = st, a
// store under a lock) hands the object over once the items are done: it
// is still the worker's during them, provided the loop runs once (a
// statement of the body itself, no goto in the body), and every access
// to it after the loop is checked as usual, in the worker's block, so a
// sibling that reads it once handed over is still seen (o.until).
//
// lend, when not nil, says which calls may be given the object (a pool's
// helper that only indexes it, see lentToHelper; a callee whose parameter
// keeps it, see keptByCallee): a caller that allows it must also check or
// prove what the callee does with it (workerIndexed, cbclone.go).
//
// seed are variables that hold such an object without being declared by
// the body: a callee's parameter, bound to its caller's object.
func (r *Result) ownedVars(fk *Fork, o *workerOwnership, lend lender, seed ...*types.Var) {
	info := r.finder.info
	cands := r.ownedCandidates(fk)
	for _, v := range seed {
		cands[v] = true
	}
	if len(cands) == 0 {
		return
	}
	after := itemsDone(fk)
	var handed map[*types.Var]bool
	// A candidate that holds a slice of another (s := buf[i:i+4:i+4]) is
	// one object with it: when either lets the pointer go, neither is
	// owned, so the walk repeats until no candidate falls.
	for changed := true; changed; {
		changed = false
		handed = map[*types.Var]bool{}
		var stack []ast.Node
		ast.Inspect(fk.Lit().Body, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			if id, ok := n.(*ast.Ident); ok {
				v, _ := info.Uses[id].(*types.Var)
				if v == nil {
					v, _ = info.Defs[id].(*types.Var)
				}
				if cands[v] && !r.keepsOwned(id, v, stack, lend, cands) {
					if after.IsValid() && id.Pos() >= after {
						handed[v] = true
					} else {
						delete(cands, v)
						changed = true
					}
				}
			}
			stack = append(stack, n)
			return true
		})
	}
	for v := range cands {
		o.vars[v] = true
	}
	// An object handed over after the items is handed over under every
	// name that holds a part of it.
	for _, group := range sliceGroups(fk.Lit().Body, cands, info) {
		for _, v := range group {
			if handed[v] {
				for _, u := range group {
					o.until[u] = after
				}
				break
			}
		}
	}
}

// ownedCandidates are the variables declared by worker fk's own body (not
// by a function literal in it) that may hold an object of their own: not
// captured nor addressed, of pointer, slice or map type.
func (r *Result) ownedCandidates(fk *Fork) map[*types.Var]bool {
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
	ast.Inspect(fk.Lit().Body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE {
				for _, l := range s.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						add(id)
					}
				}
			}
		case *ast.GenDecl:
			if s.Tok == token.VAR {
				for _, sp := range s.Specs {
					for _, id := range sp.(*ast.ValueSpec).Names {
						add(id)
					}
				}
			}
		}
		return true
	})
	return cands
}

// sliceGroups partitions the owned variables into the sets that share an
// object: u and x are in one set when body assigns a slice of x to u.
func sliceGroups(body *ast.BlockStmt, owned map[*types.Var]bool, info *types.Info) [][]*types.Var {
	rep := map[*types.Var]*types.Var{}
	var find func(v *types.Var) *types.Var
	find = func(v *types.Var) *types.Var {
		if rep[v] == nil || rep[v] == v {
			rep[v] = v
			return v
		}
		rep[v] = find(rep[v])
		return rep[v]
	}
	union := func(l ast.Expr, rhs ast.Expr) {
		lid, _ := l.(*ast.Ident)
		sl, _ := ast.Unparen(rhs).(*ast.SliceExpr)
		if lid == nil || sl == nil {
			return
		}
		xid, _ := ast.Unparen(sl.X).(*ast.Ident)
		if xid == nil {
			return
		}
		u, _ := info.Defs[lid].(*types.Var)
		if u == nil {
			u, _ = info.Uses[lid].(*types.Var)
		}
		x, _ := info.Uses[xid].(*types.Var)
		if owned[u] && owned[x] {
			rep[find(u)] = find(x)
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			if len(s.Lhs) == len(s.Rhs) {
				for k := range s.Lhs {
					union(s.Lhs[k], s.Rhs[k])
				}
			}
		case *ast.ValueSpec:
			if len(s.Names) == len(s.Values) {
				for k := range s.Names {
					union(s.Names[k], s.Values[k])
				}
			}
		}
		return true
	})
	byRep := map[*types.Var][]*types.Var{}
	for v := range owned {
		byRep[find(v)] = append(byRep[find(v)], v)
	}
	var out [][]*types.Var
	for _, g := range byRep {
		out = append(out, g)
	}
	return out
}

// itemsDone is where the item loop of worker fk ends if it runs once in
// the worker (a statement of the body itself, and no goto in the body
// that could run it again), or token.NoPos.
func itemsDone(fk *Fork) token.Pos {
	top := false
	for _, s := range fk.Lit().Body.List {
		top = top || s == fk.ItemLoop()
	}
	if !top {
		return token.NoPos
	}
	jumps := false
	ast.Inspect(fk.Lit().Body, func(n ast.Node) bool {
		if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO {
			jumps = true
		}
		return !jumps
	})
	if jumps {
		return token.NoPos
	}
	return fk.ItemLoop().End()
}

// keepsOwned reports whether the occurrence id of v (whose ancestors are
// stack, innermost last) keeps v's object to its worker.
func (r *Result) keepsOwned(id *ast.Ident, v *types.Var, stack []ast.Node, lend lender, cands map[*types.Var]bool) bool {
	info := r.finder.info
	parent := func(k int) ast.Node {
		if k < len(stack) {
			return stack[len(stack)-1-k]
		}
		return nil
	}
	// assignedTo reports whether the expression n is the value its parent
	// statement p assigns to v, or with others to any candidate (a slice
	// of the object under another name: s := buf[i:i+4:i+4]).
	assignedTo := func(n ast.Node, p ast.Node, others bool) bool {
		held := func(l ast.Expr) bool {
			id, _ := l.(*ast.Ident)
			if id == nil {
				return false
			}
			u, _ := info.Uses[id].(*types.Var)
			if u == nil {
				u, _ = info.Defs[id].(*types.Var)
			}
			return u == v || others && u != nil && cands[u]
		}
		switch a := p.(type) {
		case *ast.AssignStmt:
			if len(a.Lhs) == len(a.Rhs) && (a.Tok == token.ASSIGN || a.Tok == token.DEFINE) {
				for k, rhs := range a.Rhs {
					if rhs == n {
						return held(a.Lhs[k])
					}
				}
			}
		case *ast.ValueSpec:
			if others && len(a.Names) == len(a.Values) {
				for k, rhs := range a.Values {
					if rhs == n {
						return held(a.Names[k])
					}
				}
			}
		}
		return false
	}
	switch p := parent(0).(type) {
	case *ast.AssignStmt:
		for k, l := range p.Lhs {
			if l == id {
				return (p.Tok == token.ASSIGN || p.Tok == token.DEFINE) && len(p.Lhs) == len(p.Rhs) && fresh(p.Rhs[k], v, cands, info)
			}
		}
		return false
	case *ast.ValueSpec:
		for k, n := range p.Names {
			if n == id {
				return len(p.Values) == 0 || len(p.Values) == len(p.Names) && fresh(p.Values[k], v, cands, info)
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
		if call, ok := parent(1).(*ast.CallExpr); ok && p.X == id && lend != nil && builtinName(call, info) == "copy" {
			return lend(call, id) // copy(v[i:j], …)
		}
		return p.X == id && assignedTo(p, parent(1), true)
	case *ast.CallExpr:
		switch builtinName(p, info) {
		case "len", "cap":
			return true
		case "delete", "clear":
			return len(p.Args) > 0 && p.Args[0] == id
		case "append":
			return len(p.Args) > 0 && p.Args[0] == id && assignedTo(p, parent(1), false)
		case "copy", "":
			return lend != nil && lend(p, id)
		}
	}
	return false
}

// lender reports whether the call may be given the object the argument
// arg holds without letting it go.
type lender func(call *ast.CallExpr, arg *ast.Ident) bool

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

// fresh reports whether e, assigned to v, is new memory, v's own, or a
// slice of a candidate's (cands), which is then one object with v's.
func fresh(e ast.Expr, v *types.Var, cands map[*types.Var]bool, info *types.Info) bool {
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
		if !ok {
			return false
		}
		u, _ := info.Uses[id].(*types.Var)
		return u == v || u != nil && cands[u]
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
