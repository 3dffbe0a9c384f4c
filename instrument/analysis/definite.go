package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A conflict is definite only when both accesses run in every iteration:
// the loop visits consecutive indices (its step divides the distance), the
// fork runs in every iteration, and each access runs whenever its
// goroutine does. Control flow that can keep an access from running — an
// if, a loop, a switch around it, && or ||, or before it a return, break,
// continue, goto, panic, a call that might not return, a channel
// operation, a deferred function that might recover — makes the pair a
// possible conflict: it stays checked at run time, and vet says nothing.

// definite reports whether the accesses a and b of c's goroutine body
// both run in every iteration, and iterations delta apart both exist
// whenever the loop runs more than |delta| iterations.
func (r *Result) definite(c *Construct, fk *Fork, a, b *ast.IndexExpr, delta int64) bool {
	loop := loopStmt(c.List[c.First])
	if !r.stepDivides(loop, delta) {
		return false
	}
	info := r.finder.info
	return reaches(loopBody(loop).List, fk.Node, info) &&
		reaches(fk.Body.Body.List, a, info) && reaches(fk.Body.Body.List, b, info)
}

// stepDivides reports whether the loop's index takes consecutive values
// d apart (see loopStep).
func (r *Result) stepDivides(loop ast.Stmt, d int64) bool {
	step := r.loopStep(loop)
	return step != 0 && d%step == 0
}

// loopStep is the constant step of the loop's index: 1 for a range over an
// integer or an indexable value, the constant of a three-clause loop's
// increment, or 0 when it is not known (a range over a string skips the
// bytes of a rune).
func (r *Result) loopStep(loop ast.Stmt) int64 {
	info := r.finder.info
	switch l := loop.(type) {
	case *ast.RangeStmt:
		switch t := underlying(info.TypeOf(l.X)).(type) {
		case *types.Basic:
			if t.Info()&types.IsInteger != 0 {
				return 1
			}
		case *types.Slice, *types.Array:
			return 1
		case *types.Pointer:
			if _, arr := underlying(t.Elem()).(*types.Array); arr {
				return 1
			}
		}
	case *ast.ForStmt:
		switch p := l.Post.(type) {
		case *ast.IncDecStmt:
			return 1
		case *ast.AssignStmt:
			if k, ok := intConst(info, p.Rhs[0]); ok && len(p.Rhs) == 1 && (p.Tok == token.ADD_ASSIGN || p.Tok == token.SUB_ASSIGN) {
				return k
			}
		}
	}
	return 0
}

// reaches reports whether running the statement list to completion
// certainly evaluates target: every statement before the one holding it
// falls through to the next, and within that one nothing conditional
// stands between its start and target.
func reaches(list []ast.Stmt, target ast.Node, info *types.Info) bool {
	for _, s := range list {
		if within(target.Pos(), s) {
			return reachesIn(s, target, info)
		}
		if !fallsThrough(s, info) {
			return false
		}
	}
	return false
}

// reachesIn reports whether running s certainly evaluates target, a node
// inside it.
func reachesIn(s ast.Stmt, target ast.Node, info *types.Info) bool {
	switch x := s.(type) {
	case *ast.BlockStmt:
		return reaches(x.List, target, info)
	case *ast.LabeledStmt:
		return reachesIn(x.Stmt, target, info)
	case *ast.ExprStmt, *ast.AssignStmt, *ast.IncDecStmt, *ast.DeclStmt, *ast.GoStmt:
		return fallsThrough(s, info) && evaluated(s, target)
	}
	return false
}

// evaluated reports whether evaluating n certainly evaluates target: no
// function literal, right operand of && or ||, or deferred part stands
// between them.
func evaluated(n, target ast.Node) bool {
	ok, found := true, false
	visit := func(m ast.Node) bool {
		if m == nil || found {
			return false
		}
		if m == target {
			found = true
			return false
		}
		if !within(target.Pos(), m) {
			return false
		}
		switch x := m.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.BinaryExpr:
			if (x.Op == token.LAND || x.Op == token.LOR) && within(target.Pos(), x.Y) {
				ok = false
			}
		}
		return ok
	}
	ast.Inspect(n, visit)
	return ok && found
}

// fallsThrough reports whether s, run, certainly completes and passes
// control to the next statement: it holds no return, branch, panic, call
// that might not return, channel operation, select, or loop that might not
// end. Function literals are not entered: what they hold runs when called.
func fallsThrough(s ast.Stmt, info *types.Info) bool {
	ok := true
	ast.Inspect(s, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt, *ast.BranchStmt, *ast.SelectStmt, *ast.SendStmt, *ast.ForStmt:
			ok = false
		case *ast.UnaryExpr:
			ok = x.Op != token.ARROW
		case *ast.RangeStmt:
			ok = finiteRange(info.TypeOf(x.X))
		case *ast.DeferStmt:
			ok = harmlessCall(x.Call, info) // a deferred function might recover
		case *ast.GoStmt:
			ast.Inspect(x.Call, func(m ast.Node) bool {
				if _, lit := m.(*ast.FuncLit); lit {
					return false
				}
				if call, isCall := m.(*ast.CallExpr); isCall && call != x.Call && !harmlessCall(call, info) {
					ok = false
				}
				return ok
			})
			return false
		case *ast.CallExpr:
			if _, lit := ast.Unparen(x.Fun).(*ast.FuncLit); !lit && !harmlessCall(x, info) && !isGoMethodCall(x, info) {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// isGoMethodCall reports whether call is wg.Go(…) or g.Go(…): it starts a
// goroutine and returns.
func isGoMethodCall(call *ast.CallExpr, info *types.Info) bool {
	fn := Callee(info, call.Fun)
	return fn != nil && fn.Pkg() != nil && syncPackage(fn) && fn.Name() == "Go"
}

// harmlessCall reports whether call certainly returns (unless the
// program is already wrong, as with an index out of range): a conversion,
// a builtin other than panic, or a method of package sync or a function
// of sync/atomic that does not wait.
func harmlessCall(call *ast.CallExpr, info *types.Info) bool {
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return true
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok {
			return b.Name() != "panic"
		}
	}
	fn := Callee(info, call.Fun)
	if fn == nil || fn.Pkg() == nil || !syncPackage(fn) || fn.Pkg().Path() == "golang.org/x/sync/errgroup" {
		return false
	}
	switch fn.Name() {
	case "Wait", "Go", "Do":
		return false
	}
	return true
}

// finiteRange reports whether a range over a value of type t certainly
// ends: an integer, a string, a slice, an array (or a pointer to one), or
// a map.
func finiteRange(t types.Type) bool {
	switch u := underlying(t).(type) {
	case *types.Basic:
		return u.Info()&(types.IsInteger|types.IsString) != 0
	case *types.Slice, *types.Array, *types.Map:
		return true
	case *types.Pointer:
		_, arr := underlying(u.Elem()).(*types.Array)
		return arr
	}
	return false
}
