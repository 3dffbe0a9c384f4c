package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Goroutines of one construct may order each other without a channel:
// one stores a flag with sync/atomic and another spins until it loads it,
// a WaitGroup is a barrier between them, or one polls state another writes
// under a lock (DESIGN.md, "Siblings that synchronize"). Block tags cannot
// express that order, so checking would report a DATA RACE on the data the
// flag orders correctly. What marks such code is a value that only
// synchronization can have produced steering control flow: the result of
// an atomic operation or of TryLock, or shared state read under a lock and
// carried out of the critical section, in a loop or branch condition; or a
// Wait on a WaitGroup that is not the join of a construct of the code's
// own. A lock merely around the conflicting accesses steers nothing, and
// stays checked (NONDETERMINISM).

// returnsFact says that a function's results carry a value only
// synchronization produced (an atomic load, state read under a lock): a
// construct of another package whose goroutines loop or branch on it is
// unstructured, as when both packages are built together.
type returnsFact struct{ Why string }

func (*returnsFact) AFact()           {}
func (f *returnsFact) String() string { return f.Why }

// steer is what coordinates looks at in the code under one root: the
// conditions of its loops and branches, the values its locals are
// assigned, and the locals it assigns under a lock from shared state.
type steer struct {
	f            *finder
	root         ast.Node
	conds        []ast.Expr
	rets         []ast.Expr
	defs         map[*types.Var][]ast.Expr
	locked       map[*types.Var]bool // locals assigned shared state while a lock is held
	why          string              // a critical section whose condition leaves it, if found
	lockedReturn bool                // a return made under a lock reads shared state
}

// coordinates explains how the code under root orders goroutines in a way
// the model does not, or returns "". stop says which subtrees not to enter.
func (f *finder) coordinates(root ast.Node, stop func(ast.Node) bool) string {
	if why := f.handsOff(root, stop); why != "" {
		return why
	}
	s := f.steering(root, stop)
	if s.why != "" {
		return s.why
	}
	if n := s.steered(s.conds, f.syncValue); n != nil {
		what := "an atomic value"
		if f.syncMapCall(n) {
			what = "a sync.Map value"
		}
		return what + " steers the goroutines' control flow (" + types.ExprString(n.(ast.Expr)) + ")"
	}
	if n := s.steered(s.conds, s.lockedLocal); n != nil {
		return "state read under a lock steers the goroutines' control flow (" + types.ExprString(n.(ast.Expr)) + ")"
	}
	why := ""
	inspectStop(root, stop, func(n ast.Node) {
		if call, ok := n.(*ast.CallExpr); ok && why == "" && f.barrier(call, root) {
			why = "waits on a WaitGroup its siblings signal (" + types.ExprString(call.Fun) + "): a barrier between the goroutines"
		}
	})
	return why
}

// handsOff explains how the code under root releases a lock it did not
// take, or returns "": an Unlock (or RUnlock) of a mutex with no Lock (or
// RLock, TryLock) of it earlier in the code hands the lock over from
// another goroutine, which ordered its accesses before the release, and the
// model cannot see that order (a goroutine writes, then unlocks the mutex
// its parent locked; a sibling locks it, then reads). In a function body
// the release marks the function as synchronizing, so a goroutine that
// calls it is unstructured too. Mutexes are told apart by the text of
// their receiver; one reached by two spellings counts as released
// without a lock, which notes the construct rather than guessing.
func (f *finder) handsOff(root ast.Node, stop func(ast.Node) bool) string {
	// A lock counts from its call to the end of the statement list that
	// holds it, so one taken in a branch not run does not excuse a release.
	taken := []map[string]bool{{}}
	var open []ast.Node
	why := ""
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			if top := open[len(open)-1]; opensList(top) {
				taken = taken[:len(taken)-1]
			}
			open = open[:len(open)-1]
			return false
		}
		if why != "" || n != root && stop(n) {
			return false
		}
		open = append(open, n)
		if opensList(n) {
			held := map[string]bool{}
			for k := range taken[len(taken)-1] {
				held[k] = true
			}
			taken = append(taken, held)
		}
		if call, ok := n.(*ast.CallExpr); ok {
			switch f.lockMethod(call) {
			case "(*sync.Mutex).Lock", "(*sync.RWMutex).Lock", "(*sync.RWMutex).RLock", "(sync.Locker).Lock",
				"(*sync.Mutex).TryLock", "(*sync.RWMutex).TryLock", "(*sync.RWMutex).TryRLock":
				taken[len(taken)-1][recvText(call)] = true
			case "(*sync.Mutex).Unlock", "(*sync.RWMutex).Unlock", "(*sync.RWMutex).RUnlock", "(sync.Locker).Unlock":
				if !taken[len(taken)-1][recvText(call)] {
					why = "releases a lock it did not take (" + types.ExprString(call.Fun) + "): another goroutine hands it over"
				}
			}
		}
		return true
	})
	return why
}

// lockMethod is the full name of the method call calls, an interface's
// (sync.Locker) included, or "".
func (f *finder) lockMethod(call *ast.CallExpr) string {
	if name := f.methodName(call); name != "" {
		return name
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := f.info.Selections[sel]; s != nil {
			if fn, ok := s.Obj().(*types.Func); ok {
				return fn.FullName()
			}
		}
	}
	return ""
}

// opensList reports whether n holds a statement list of its own.
func opensList(n ast.Node) bool {
	switch n.(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
		return true
	}
	return false
}

// returnsSynced explains why the results of the function whose body is
// body carry a value only synchronization produced (an atomic load, state
// read under a lock), or returns "".
func (f *finder) returnsSynced(body *ast.BlockStmt) string {
	s := f.steering(body, func(ast.Node) bool { return false })
	if s.lockedReturn || s.steered(s.rets, s.lockedLocal) != nil {
		return "returns state read under a lock"
	}
	if s.steered(s.rets, f.syncValue) != nil {
		return "returns an atomic value"
	}
	return ""
}

// steeringCalls lists the functions whose results steer control flow under
// root, and, with rets, those whose results the function returns.
func (f *finder) steeringCalls(root ast.Node, stop func(ast.Node) bool, rets bool) []*types.Func {
	s := f.steering(root, stop)
	exprs := s.conds
	if rets {
		exprs = s.rets
	}
	var out []*types.Func
	s.steered(exprs, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fn := f.callee(call); fn != nil {
				out = append(out, fn)
			}
		}
		return false
	})
	return out
}

// steering gathers the conditions, results and definitions under root.
// Results are those of root's own function, not of literals inside it;
// critical sections are followed in the function that holds the lock.
func (f *finder) steering(root ast.Node, stop func(ast.Node) bool) *steer {
	s := &steer{f: f, root: root, defs: map[*types.Var][]ast.Expr{}, locked: map[*types.Var]bool{}}
	var scan func(n ast.Node, fns []ast.Node)
	scan = func(n ast.Node, fns []ast.Node) {
		s.visit(n, fns, stop)
		ast.Inspect(n, func(m ast.Node) bool {
			if m == nil || m != n && stop(m) {
				return false
			}
			if lit, ok := m.(*ast.FuncLit); ok && m != n {
				scan(lit.Body, append(fns[:len(fns):len(fns)], lit))
				return false
			}
			return true
		})
	}
	scan(root, []ast.Node{root})
	return s
}

// visit records what one function's own code (under n, not inside the
// function literals in it) steers with, returns, and assigns.
func (s *steer) visit(n ast.Node, fns []ast.Node, stop func(ast.Node) bool) {
	scope, top := fns[len(fns)-1], n
	ast.Inspect(n, func(n ast.Node) bool {
		if n == nil || n != top && stop(n) {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // scanned on its own, as a scope of its own
		case *ast.IfStmt:
			s.conds = append(s.conds, n.Cond)
		case *ast.ForStmt:
			if n.Cond != nil {
				s.conds = append(s.conds, n.Cond)
			}
		case *ast.SwitchStmt:
			if n.Tag != nil {
				s.conds = append(s.conds, n.Tag)
			}
		case *ast.CaseClause:
			s.conds = append(s.conds, n.List...)
			s.critical(n.Body, scope, stop)
		case *ast.ReturnStmt:
			if len(fns) == 1 {
				s.rets = append(s.rets, n.Results...)
			}
		case *ast.AssignStmt:
			for k, l := range n.Lhs {
				if v := s.local(l, s.root); v != nil {
					if len(n.Rhs) == len(n.Lhs) {
						s.defs[v] = append(s.defs[v], n.Rhs[k])
					} else {
						s.defs[v] = append(s.defs[v], n.Rhs...)
					}
				}
			}
		case *ast.ValueSpec:
			for k, id := range n.Names {
				if v, ok := s.f.info.Defs[id].(*types.Var); ok && k < len(n.Values) {
					s.defs[v] = append(s.defs[v], n.Values[k])
				}
			}
		case *ast.BlockStmt:
			s.critical(n.List, scope, stop)
		case *ast.CommClause:
			s.critical(n.Body, scope, stop)
		}
		return true
	})
}

// critical follows the locks taken and released in one statement list of
// the function scope: while one is held, a loop or branch on shared state
// that releases it or jumps out is a poll of that state, a local of scope
// assigned shared state carries it out, and a return of shared state
// hands it to the caller.
func (s *steer) critical(list []ast.Stmt, scope ast.Node, stop func(ast.Node) bool) {
	held, deferred := "", false
	for _, st := range list {
		if call := stmtCall(st); call != nil {
			switch s.f.methodName(call) {
			case "(*sync.Mutex).Lock", "(*sync.RWMutex).Lock", "(*sync.RWMutex).RLock":
				held, deferred = recvText(call), false
				continue
			case "(*sync.Mutex).Unlock", "(*sync.RWMutex).Unlock", "(*sync.RWMutex).RUnlock":
				if _, ok := st.(*ast.DeferStmt); ok {
					deferred = true
				} else if recvText(call) == held {
					held = ""
				}
				continue
			}
		}
		if held == "" {
			continue
		}
		switch st := st.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.SwitchStmt:
			if !deferred && s.shared(condOf(st), scope) && s.leavesLock(st, held, stop) && s.why == "" {
				s.why = "a loop or branch on state read under " + held + " leaves the critical section: the goroutines poll each other"
			}
		case *ast.AssignStmt:
			if st.Tok != token.ASSIGN && st.Tok != token.DEFINE {
				continue
			}
			for k, l := range st.Lhs {
				if v := s.local(l, scope); v != nil && (len(st.Rhs) != len(st.Lhs) || s.shared(st.Rhs[k], scope)) {
					s.locked[v] = true
				}
			}
		case *ast.DeclStmt:
			ast.Inspect(st, func(n ast.Node) bool {
				if vs, ok := n.(*ast.ValueSpec); ok {
					for k, id := range vs.Names {
						if v, ok := s.f.info.Defs[id].(*types.Var); ok && k < len(vs.Values) && s.shared(vs.Values[k], scope) {
							s.locked[v] = true
						}
					}
				}
				return true
			})
		case *ast.ReturnStmt:
			for _, r := range st.Results {
				if scope == s.root && s.shared(r, scope) {
					s.lockedReturn = true
				}
			}
		}
	}
}

// condOf is the condition of an if, for or switch statement.
func condOf(st ast.Stmt) ast.Expr {
	switch st := st.(type) {
	case *ast.IfStmt:
		return st.Cond
	case *ast.ForStmt:
		return st.Cond
	case *ast.SwitchStmt:
		return st.Tag
	}
	return nil
}

// leavesLock reports whether st, entered holding lock, releases it or
// jumps out of its statement list.
func (s *steer) leavesLock(st ast.Stmt, lock string, stop func(ast.Node) bool) bool {
	found := false
	inspectStop(st, stop, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.BranchStmt, *ast.ReturnStmt:
			found = true
		case *ast.CallExpr:
			if strings.HasSuffix(s.f.methodName(n), "Unlock") && recvText(n) == lock {
				found = true
			}
		}
	})
	return found
}

// shared reports whether e reads a variable not declared under scope
// (captured, a parameter, a global), or a local assigned one under a lock.
// A nil e reads nothing.
func (s *steer) shared(e ast.Expr, scope ast.Node) bool {
	found := false
	if e == nil {
		return false
	}
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := s.f.info.Uses[id].(*types.Var); ok && !v.IsField() && (!declaredIn(v, scope) || s.locked[v]) {
				found = true
			}
		}
		return !found
	})
	return found
}

// local is the variable l assigns when it is one declared under scope.
func (s *steer) local(l ast.Expr, scope ast.Node) *types.Var {
	id, ok := ast.Unparen(l).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := s.f.info.ObjectOf(id).(*types.Var)
	if v == nil || !declaredIn(v, scope) {
		return nil
	}
	return v
}

func declaredIn(v *types.Var, scope ast.Node) bool {
	return scope.Pos() <= v.Pos() && v.Pos() < scope.End()
}

func (s *steer) lockedLocal(n ast.Node) bool {
	if id, ok := n.(*ast.Ident); ok {
		v, _ := s.f.info.Uses[id].(*types.Var)
		return v != nil && s.locked[v]
	}
	return false
}

// steered returns the first node, in exprs or in the values the locals
// they read were assigned (transitively), for which pred holds, or nil.
func (s *steer) steered(exprs []ast.Expr, pred func(ast.Node) bool) ast.Node {
	seen := map[*types.Var]bool{}
	var hit ast.Node
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		ast.Inspect(e, func(n ast.Node) bool {
			if hit != nil || n == nil {
				return false
			}
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if pred(n) {
				hit = n
				return false
			}
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := s.f.info.Uses[id].(*types.Var); ok && !seen[v] {
					seen[v] = true
					for _, d := range s.defs[v] {
						walk(d)
					}
				}
			}
			return true
		})
	}
	for _, e := range exprs {
		if hit == nil {
			walk(e)
		}
	}
	return hit
}

// syncValue reports whether n is a call whose result only synchronization
// produced: an operation of sync/atomic, or a mutex's TryLock.
func (f *finder) syncValue(n ast.Node) bool {
	call, ok := n.(*ast.CallExpr)
	if !ok || f.takes[call] { // a pool's index take (counter.go)
		return false
	}
	fn := f.callee(call)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	if fn.Pkg().Path() == "sync/atomic" {
		return fn.Type().(*types.Signature).Results().Len() > 0
	}
	switch fn.FullName() {
	case "(*sync.Mutex).TryLock", "(*sync.RWMutex).TryLock", "(*sync.RWMutex).TryRLock":
		return true
	}
	return f.syncMapCall(call)
}

// syncMapCall reports whether n calls a method of sync.Map that returns
// what the map held: a value (or whether one was there) another goroutine
// stored, as an atomic load returns one (v, ok := m.Load(k); if !ok {
// build and LoadOrStore }: a cache whose entries one goroutine builds and
// the others read, which the block tags cannot order;
// testdata/review19/syncmap, as its RWMutex twin testdata/review19/rwcache
// already was).
func (f *finder) syncMapCall(n ast.Node) bool {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := f.callee(call)
	if fn == nil {
		return false
	}
	switch fn.FullName() {
	case "(*sync.Map).Load", "(*sync.Map).LoadOrStore", "(*sync.Map).LoadAndDelete", "(*sync.Map).Swap",
		"(*sync.Map).CompareAndSwap", "(*sync.Map).CompareAndDelete":
		return true
	}
	return false
}

// barrier reports whether call waits on a WaitGroup (or errgroup) that is
// not the join of a recognised construct and not declared under root:
// goroutines that wait for their siblings.
func (f *finder) barrier(call *ast.CallExpr, root ast.Node) bool {
	switch f.methodName(call) {
	case "(*sync.WaitGroup).Wait", "(*golang.org/x/sync/errgroup.Group).Wait":
	default:
		if !f.wrapWait(call) {
			return false
		}
	}
	if f.joined[call] {
		return false
	}
	sel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if v := rootVar(sel.X, f.info); v != nil && root.Pos() <= v.Pos() && v.Pos() < root.End() {
		return false // the code's own group: its goroutines are not siblings of the caller
	}
	return true
}

// inspectStop calls visit for every node under root, not entering those
// for which stop holds.
func inspectStop(root ast.Node, stop func(ast.Node) bool, visit func(ast.Node)) {
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil || (n != root && stop(n)) {
			return false
		}
		visit(n)
		return true
	})
}
