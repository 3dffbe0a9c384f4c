package rewrite

import (
	"go/ast"
	"go/types"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// Unseen accesses in an -hb build. A lock hand-off orders two goroutines
// only when their critical sections conflict (rt/hb_wcp.go), which the
// runtime can tell only from the accesses it sees. A call into code that
// is not rewritten and does not synchronize (no Foreign precedes it) may
// still reach the program's memory unchecked: a method of a standard
// library type on a shared variable (s.buf.WriteString(x) writes s.buf),
// an argument the table of analysis.ForeignCall does not know
// (fmt.Sscan(in, &v)), reflection; and len(ch), which reads what the
// channel's operations wrote, unhooked. Such a statement is preceded by
//
//	_ga_hb.Unseen()
//
// which, inside a critical section, makes the section order fully with
// the lock's other sections; outside one it does nothing.

// unseenBefore returns the Unseen hook when the statement s, outside the
// blocks and function literals it holds, makes such a call.
func (w *walker) unseenBefore(s dst.Stmt) []dst.Stmt {
	if !w.hooks() || !w.unseenIn(s) {
		return nil
	}
	w.change()
	return []dst.Stmt{&dst.ExprStmt{X: &dst.CallExpr{Fun: &dst.SelectorExpr{X: w.taskExpr(), Sel: dst.NewIdent(rtnames.Unseen)}}}}
}

// unseenIn reports whether s makes a call unseenCall reports, where the
// statement runs it: its own expressions and the heads of the statements
// it holds (a for loop's condition and post statement too, which is
// evaluated again after its body, in whatever section is open then: a
// loop that unlocks and locks again in its body and calls such code in its
// head is covered at its first iteration only).
func (w *walker) unseenIn(s dst.Stmt) bool {
	a, _ := w.astOf(s).(ast.Stmt)
	found := false
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case nil:
			return false
		case *ast.FuncLit, *ast.BlockStmt:
			return false
		case *ast.CaseClause:
			for _, e := range x.List {
				ast.Inspect(e, visit)
			}
			return false
		case *ast.CommClause:
			if x.Comm != nil {
				ast.Inspect(x.Comm, visit)
			}
			return false
		case *ast.CallExpr:
			found = found || w.unseenCall(x)
		}
		return !found
	}
	switch x := a.(type) {
	case nil, *ast.BlockStmt, *ast.LabeledStmt:
	case *ast.IfStmt:
		ast.Inspect(x.Init, visit)
		ast.Inspect(x.Cond, visit)
	case *ast.ForStmt:
		ast.Inspect(x.Init, visit)
		ast.Inspect(x.Cond, visit)
		ast.Inspect(x.Post, visit)
	case *ast.RangeStmt:
		ast.Inspect(x.X, visit)
	case *ast.SwitchStmt:
		ast.Inspect(x.Init, visit)
		ast.Inspect(x.Tag, visit)
		for _, c := range x.Body.List {
			visit(c)
		}
	case *ast.TypeSwitchStmt:
		ast.Inspect(x.Init, visit)
		ast.Inspect(x.Assign, visit)
	case *ast.SelectStmt:
		for _, c := range x.Body.List {
			visit(c)
		}
	default:
		ast.Inspect(a, visit)
	}
	return found
}

// unseenCall reports whether x runs code that is not rewritten on memory
// of the program the checks do not see. The caller knows that no call of
// its statement is foreign (Foreign makes a section opaque too).
func (w *walker) unseenCall(x *ast.CallExpr) bool {
	if tv := w.info.Types[x.Fun]; tv.IsType() || tv.IsBuiltin() {
		return tv.IsBuiltin() && w.lenOfChan(x) // the count a channel's sends and receives write
	}
	if _, lit := ast.Unparen(x.Fun).(*ast.FuncLit); lit {
		return false // called in place: rewritten with the rest
	}
	if w.rewrittenMethod(x) || w.hbInline[x] {
		return false // rewritten, or hooked by ForeignFunc, which does Unseen's part when it is not (hb_values.go)
	}
	fn := analysis.Callee(w.info, x.Fun)
	if fn == nil || fn.Pkg() == nil {
		return true // Error or String through an interface: reads its receiver, wherever its method is
	}
	switch path := fn.Pkg().Path(); {
	case w.cfg.hbRewritten[path] || fn.Pkg() == w.pkg.Types:
		return false // checked where it runs
	case path == "sync" || path == "sync/atomic":
		return false // hooked
	case path == "reflect":
		return true
	}
	if uses, ok := w.res.ForeignCall(w.info, x); ok {
		for _, u := range uses {
			if u.Kind == analysis.ArgUnknown {
				return true
			}
		}
	}
	return w.unseenRecv(x, fn)
}

// lenOfChan reports whether x is len(ch) of a channel ch.
func (w *walker) lenOfChan(x *ast.CallExpr) bool {
	id, ok := ast.Unparen(x.Fun).(*ast.Ident)
	if !ok || id.Name != "len" || len(x.Args) != 1 {
		return false
	}
	if b, ok := w.info.Uses[id].(*types.Builtin); !ok || b.Name() != "len" {
		return false
	}
	_, isChan := underlying(w.info.TypeOf(x.Args[0])).(*types.Chan)
	return isChan
}

// unseenRecv reports whether x calls the method fn of a type of another
// package on memory of the program that may be shared: through a pointer
// receiver, or a value receiver whose type reaches other memory (a slice
// type's). time.Time's methods read only the value and its location.
func (w *walker) unseenRecv(x *ast.CallExpr, fn *types.Func) bool {
	if w.methodCall(x) == nil {
		return false
	}
	sel := ast.Unparen(x.Fun).(*ast.SelectorExpr)
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	recv := sig.Recv().Type()
	if !isPointer(recv) {
		if n, ok := types.Unalias(recv).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Time" {
			return false
		}
		return !analysis.PointerFree(recv)
	}
	return isPointer(w.info.TypeOf(sel.X)) || w.sharedLoc(sel.X)
}
