package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A worker pool may hand out indices with an atomic counter instead of a
// channel (conc's iter.ForEachIdx):
//
//	var next atomic.Int64
//	for range workers {
//		wg.Go(func() {
//			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) { … }
//		})
//	}
//	wg.Wait()
//
// Each index taken is a work item, a block of its own (Task.Item at the
// top of each iteration), exactly as each receive of a channel pool: the
// items are concurrent with each other whichever worker took them, so a
// conflict between two items one worker ran is still reported.
//
// The counter's Add orders the takes (each reads what the one before it
// wrote), and its result steers the loop, which siblings.go otherwise
// takes for goroutines ordering each other. It is not: a take never waits,
// so any two items can run at once in some schedule (another worker takes
// the indices in between), and the order the chain gives one run is the
// schedule's, not the program's. So the takes of a recognised counter
// loop are not counted as synchronization, provided the counter is a
// local of the function, declared outside the construct, that nothing in
// the construct uses but those takes (a Load or Store, or a take outside
// the item loops, would be coordination: noted as before).
//
// The shapes: `for i := TAKE; cond; i = TAKE { … }`, the same with
// `i := TAKE` as the statement before a loop with no init (conc's), and
// `for { i := TAKE; … }`, in a worker that is a function literal, where
// TAKE is c.Add(k) of an atomic integer type, or atomic.AddInt64(&c, k)
// and its kin, k a positive constant, under conversions and ± constants.

// counterLoop finds the item loop of a worker body fed by an atomic
// counter: the loop, and the counter; the takes are recorded in f.takes.
func (f *finder) counterLoop(body *ast.BlockStmt) (*ast.ForStmt, *types.Var) {
	for k, s := range body.List {
		l, ok := s.(*ast.ForStmt)
		if !ok {
			continue
		}
		var takes []*ast.CallExpr
		var ctr *types.Var
		add := func(e ast.Expr) bool {
			call, v := f.take(e)
			if call == nil || (ctr != nil && v != ctr) {
				return false
			}
			ctr = v
			takes = append(takes, call)
			return true
		}
		var idx *types.Var
		switch {
		case l.Init != nil && l.Post != nil:
			idx = f.takeDef(l.Init, add)
		case l.Init == nil && l.Post != nil && k > 0:
			idx = f.takeDef(body.List[k-1], add)
		case l.Init == nil && l.Cond == nil && l.Post == nil && len(l.Body.List) > 0:
			if idx = f.takeDef(l.Body.List[0], add); idx != nil {
				f.recordTakes(takes)
				return l, ctr
			}
		}
		if idx == nil || l.Post == nil {
			continue
		}
		as, ok := l.Post.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			continue
		}
		if id, ok := as.Lhs[0].(*ast.Ident); !ok || f.info.Uses[id] != idx || !add(as.Rhs[0]) {
			continue
		}
		f.recordTakes(takes)
		return l, ctr
	}
	return nil, nil
}

func (f *finder) recordTakes(takes []*ast.CallExpr) {
	if f.takes == nil {
		f.takes = map[*ast.CallExpr]bool{}
	}
	for _, t := range takes {
		f.takes[t] = true
	}
}

// takeDef matches `i := TAKE`, `var i = TAKE` or `i = TAKE` and returns i.
func (f *finder) takeDef(s ast.Stmt, add func(ast.Expr) bool) *types.Var {
	var lhs, rhs ast.Expr
	switch s := s.(type) {
	case *ast.AssignStmt:
		if len(s.Lhs) == 1 && len(s.Rhs) == 1 {
			lhs, rhs = s.Lhs[0], s.Rhs[0]
		}
	case *ast.DeclStmt:
		if g, ok := s.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR && len(g.Specs) == 1 {
			if vs := g.Specs[0].(*ast.ValueSpec); len(vs.Names) == 1 && len(vs.Values) == 1 {
				lhs, rhs = vs.Names[0], vs.Values[0]
			}
		}
	}
	id, ok := lhs.(*ast.Ident)
	if !ok || !add(rhs) {
		return nil
	}
	v, _ := f.info.Defs[id].(*types.Var)
	if v == nil {
		v, _ = f.info.Uses[id].(*types.Var)
	}
	return v
}

// take matches TAKE and returns its Add call and the counter.
func (f *finder) take(e ast.Expr) (*ast.CallExpr, *types.Var) {
	switch x := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		if (x.Op == token.ADD || x.Op == token.SUB) && f.isConst(x.Y) {
			return f.take(x.X)
		}
	case *ast.CallExpr:
		if tv, ok := f.info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 && isIntegerType(tv.Type) {
			return f.take(x.Args[0])
		}
		fn := f.callee(x)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" || len(x.Args) == 0 {
			return nil, nil
		}
		switch fn.Name() {
		case "Add":
			sel := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if len(x.Args) == 1 && constInt(f.info, x.Args[0]) > 0 {
				return x, f.localVar(sel.X)
			}
		case "AddInt64", "AddInt32", "AddUint64", "AddUint32":
			if u, ok := ast.Unparen(x.Args[0]).(*ast.UnaryExpr); ok && u.Op == token.AND && len(x.Args) == 2 && constInt(f.info, x.Args[1]) > 0 {
				return x, f.localVar(u.X)
			}
		}
	}
	return nil, nil
}

func (f *finder) isConst(e ast.Expr) bool {
	tv, ok := f.info.Types[e]
	return ok && tv.Value != nil
}

// localVar is the local variable e names, or nil.
func (f *finder) localVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := f.info.Uses[id].(*types.Var)
	if v == nil || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	return v
}

// counterWhy says why the counter of c's item loops may coordinate its
// goroutines, or returns "": it must be a local of this function declared
// before the construct, which nothing in the construct uses but the takes
// of its item loops.
func (f *finder) counterWhy(c *Construct, stmts []ast.Stmt) string {
	for _, fk := range c.Forks {
		if fk.Counter == nil {
			continue
		}
		v := fk.CounterVar
		if v == nil || f.body == nil || !within(v.Pos(), f.body) || v.Pos() >= stmts[0].Pos() {
			return "the workers take indices from a counter that is not a local declared before the construct"
		}
		why := ""
		roots := []ast.Node{}
		for _, s := range stmts {
			roots = append(roots, s)
		}
		for _, w := range c.Forks {
			if w.Value != nil {
				roots = append(roots, w.Value.Body) // a worker held in a variable runs outside stmts (taskvar.go)
			}
		}
		for _, s := range roots {
			ast.Inspect(s, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && f.info.Uses[id] == v && !f.inTake(id) {
					why = "the workers' counter " + v.Name() + " is used in the construct other than to take an index: the goroutines may coordinate through it"
				}
				return why == ""
			})
		}
		if why != "" {
			return why
		}
	}
	return ""
}

// inTake reports whether id is the counter of a recorded take.
func (f *finder) inTake(id *ast.Ident) bool {
	for call := range f.takes {
		if within(id.Pos(), call) {
			return true
		}
	}
	return false
}

// pruneTakes keeps the takes of the item loops of accepted constructs:
// in any other code an atomic counter steering control flow is still
// coordination (siblings.go).
func (f *finder) pruneTakes() {
	kept := map[*ast.CallExpr]bool{}
	for _, c := range f.res.Constructs {
		for _, fk := range c.Forks {
			if fk.Counter != nil {
				for call := range f.takes {
					if within(call.Pos(), fk.Counter) || within(call.Pos(), fk.Lit()) {
						kept[call] = true
					}
				}
			}
		}
	}
	f.takes = kept
}

// ItemLoop is the loop of a pool worker whose iterations are work items
// (a range over the pool's channel, or a loop taking indices from an
// atomic counter), or nil.
func (fk *Fork) ItemLoop() ast.Stmt {
	switch {
	case fk.Items != nil:
		return fk.Items
	case fk.Counter != nil:
		return fk.Counter
	}
	return nil
}

// itemBody is the body of the item loop, or nil.
func (fk *Fork) itemBody() *ast.BlockStmt {
	switch {
	case fk.Items != nil:
		return fk.Items.Body
	case fk.Counter != nil:
		return fk.Counter.Body
	}
	return nil
}
