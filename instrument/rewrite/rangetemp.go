package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// Range loops over an expression that cannot be evaluated again. The check
// of a range loop's element read, `_ga_rt.R(t, &X[key], site)` at the top
// of the body (rangeElemCheck), evaluates X again in every iteration, so it
// was only made when X is a variable or a selector chain (pure). A loop
// over anything else — a sub-slice `range B[lo:hi]`, a row `range m.rows[i]`,
// a call `range f()` — read its elements unchecked, and its races were
// lost in the pruned and the conservative build alike (a review of
// PolyBench's trmm, session 10):
//
//	for _, v := range B[r*n : r*n+n] { s += v }   // another goroutine writes B[r*n]: not reported
//
// Such a loop now ranges over a temporary holding X's value, assigned right
// before it (X is evaluated once, where the loop would evaluate it, with a
// line directive at X; its own reads are checked there), and the element
// check reads the temporary's element, which is X's:
//
//	_ga_x123 := B[r*n : r*n+n]
//	for _, v := range _ga_x123 { _ga_rt.R(t, &_ga_x123[_ga_i], site); s += v }
//
// The same holds of a variable or selector that may change while the loop
// runs (`for _, v := range row { row = next }`, or a call in the body
// setting the field X names): the loop goes on over the old value, and the
// check, evaluating X again, read the new one's element, losing the race
// on the old one. Only a local variable that nothing in the body assigns
// or takes the address of, and that no function literal of the file
// assigns, is evaluated again (stable).
//
// Only slices and pointers to arrays: ranging over an array value copies
// it once, before the loop, and X's own check is that read (rangelen.go):
// nothing is read per iteration. A loop with
// a label that some goto names is left as before too: a goto back to the
// label would skip the assignment.
//
// The check coalescer (coalesce.go) takes a loop over a temporary as a
// loop over the slice _ga_x123, assigned once before it and named nowhere
// else: when the loop qualifies, its element checks become one ReadSpan
// of the temporary before it.

// hoistRange returns the assignment of the temporary for range statement s
// (possibly labelled), and makes the loop range over it, when the loop's
// element reads are checked and X is not stable; nil otherwise.
func (w *walker) hoistRange(s dst.Stmt) []dst.Stmt {
	inner, label := s, ""
	if l, ok := s.(*dst.LabeledStmt); ok {
		inner, label = l.Stmt, l.Label.Name
	}
	r, ok := inner.(*dst.RangeStmt)
	if !ok || w.task == "" || r.Tok != token.DEFINE {
		return nil
	}
	a, _ := w.astOf(r).(*ast.RangeStmt)
	if a == nil || rangeValue(a) == nil || w.stable(a) || !w.rangeReadChecked(a) {
		return nil
	}
	if label != "" && w.gotoLabels()[label] {
		return nil
	}
	name := w.tempName(a)
	as := &dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(name)}, Tok: token.DEFINE, Rhs: []dst.Expr{r.X}}
	w.stmt(as)                          // X's own reads are checked where it is evaluated
	p := w.pkg.Fset.Position(a.X.Pos()) // a panic evaluating X names X
	as.Decorations().Before = dst.NewLine
	as.Decorations().Start.Append(lineDirective(p, true))
	r.X = dst.NewIdent(name)
	w.change()
	return []dst.Stmt{as}
}

// tempName is the name of the temporary loop a ranges over when it is
// hoisted.
func (w *walker) tempName(a *ast.RangeStmt) string {
	return fmt.Sprintf("_ga_x%d", w.pkg.Fset.Position(a.X.Pos()).Offset)
}

// rangeTemp returns the temporary s, the rewritten copy of loop a, ranges
// over, or "" when this copy was not hoisted. It is read from s itself, not
// recorded by a: one loop is walked once per copy of its code (a function's
// plain body and its clone, a construct's pruned and checked versions, a
// literal's specialized copies), and a copy where hoistRange declined (the
// read proven by a root's heap proof) has no temporary even when another
// copy has one: its coalesced bound len(_ga_x…) named an undefined
// variable (testdata review11rangecopies).
func (w *walker) rangeTemp(a *ast.RangeStmt, s *dst.RangeStmt) string {
	if id, ok := s.X.(*dst.Ident); ok && id.Name == w.tempName(a) {
		return id.Name
	}
	return ""
}

// scopeTemp returns loop after hoisted, the assignment of the temporary it
// ranges over (none: loop alone). In a file with a goto they go in a block
// of their own: a goto of the enclosing block that jumps forward past the
// loop (`if lo >= hi { goto done }`, done after it) would jump over the
// temporary's declaration, which Go refuses ("goto done jumps over
// declaration"), a build failure of a correct program.
func (w *walker) scopeTemp(hoisted []dst.Stmt, loop dst.Stmt) []dst.Stmt {
	if len(hoisted) == 0 {
		return []dst.Stmt{loop}
	}
	if len(w.gotoLabels()) == 0 {
		return append(hoisted, loop)
	}
	b := &dst.BlockStmt{List: append(hoisted, loop)}
	b.Decs.Before, b.Decs.After = dst.NewLine, dst.NewLine
	return []dst.Stmt{b}
}

// stable reports whether X of loop a names, in every iteration, the value
// it had when the loop started, so the check may evaluate it again: a local
// variable that nothing in the body may change (analysis MayChangeIn: no
// write there, its address never taken, no function literal writing it). A
// selector chain is not: a call in the body may change a field.
func (w *walker) stable(a *ast.RangeStmt) bool {
	id, ok := ast.Unparen(a.X).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := w.info.Uses[id].(*types.Var)
	if !ok || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return false
	}
	return !w.res.MayChangeIn(v, a.Body)
}

// rangeReadChecked reports whether rangeElemCheck checks the element reads
// of loop a: X a slice or a pointer to an array, its elements shared, and
// no heap proof for the read.
func (w *walker) rangeReadChecked(a *ast.RangeStmt) bool {
	switch t := underlying(w.info.TypeOf(a.X)).(type) {
	case *types.Slice:
	case *types.Pointer:
		if _, arr := t.Elem().Underlying().(*types.Array); !arr {
			return false
		}
	default:
		return false
	}
	if !w.sharedElem(a.X) {
		return false
	}
	_, proven := w.heapVerdict(a.Value, rtnames.R)
	return !proven
}

// gotoLabels are the labels a goto of the file names (labels are a
// function's, so the file's set is a superset of any function's).
func (w *walker) gotoLabels() map[string]bool {
	if w.gotos == nil {
		w.gotos = map[string]bool{}
		ast.Inspect(w.astFile, func(n ast.Node) bool {
			if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO && b.Label != nil {
				w.gotos[b.Label.Name] = true
			}
			return true
		})
	}
	return w.gotos
}
