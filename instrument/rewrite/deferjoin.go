package rewrite

import (
	"go/ast"
	"go/token"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// A construct joined by `defer wg.Wait()` (analysis/deferwait.go) joins
// when the function returns. Its Join must run right after the Wait
// returns, so it is deferred right before the user's defer (deferred
// calls run last-in first-out):
//
//	var _ga_c1 *_ga_rt.Construct
//	defer func() { _ga_c1.Join() }()
//	defer wg.Wait()
//	…
//	_ga_c1 = _ga_rt.Enter(task, n, site)   // or _ga_c1, _ga_t1 = _ga_rt.Begin(…)
//	for … { go func(_ga_k1 *_ga_rt.Task) { … }(_ga_c1.Fork(i)) }
//	… the rest of the body, checked with _ga_t1 …
//
// A return before the construct starts leaves _ga_c1 nil, whose Join is a
// no-op. The analysis refuses a goto across the defer, so the declaration
// is never jumped over; _ga_t1, when the parent's code uses it, is
// declared with _ga_c1 (its var statement gets the name once the
// construct is rewritten).

// deferredOf returns the construct that s, a statement of a function
// body's list, joins by `defer wg.Wait()`, or nil.
func (w *walker) deferredOf(s dst.Stmt) *analysis.Construct {
	d, _ := w.astOf(s).(*ast.DeferStmt)
	if d == nil {
		return nil
	}
	for _, c := range w.res.Constructs {
		if c.Deferred == d {
			return c
		}
	}
	return nil
}

// deferJoin names construct c and returns the statements that go before
// its `defer wg.Wait()`, and the var statement declaring its variables.
func (w *walker) deferJoin(c *analysis.Construct) ([]dst.Stmt, *dst.GenDecl) {
	w.nconst++
	cName := "_ga_c" + itoa(w.nconst)
	w.constructs[c] = cName
	decl := &dst.GenDecl{Tok: token.VAR, Specs: []dst.Spec{&dst.ValueSpec{Names: []*dst.Ident{dst.NewIdent(cName)},
		Type: &dst.StarExpr{X: &dst.SelectorExpr{X: dst.NewIdent(rtAlias), Sel: dst.NewIdent(rtnames.Construct)}}}}}
	join := &dst.ExprStmt{X: &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(cName), Sel: dst.NewIdent(rtnames.Join)}}}
	lit := &dst.FuncLit{Type: &dst.FuncType{Params: &dst.FieldList{}}, Body: &dst.BlockStmt{List: []dst.Stmt{join}}}
	return []dst.Stmt{&dst.DeclStmt{Decl: decl}, &dst.DeferStmt{Call: &dst.CallExpr{Fun: lit}}}, decl
}

// declareTask adds the parent's task variable of c to its var statement
// when the rewritten code uses it.
func (w *walker) declareTask(c *analysis.Construct, decl *dst.GenDecl) {
	tName := "_ga_t" + w.constructs[c][len("_ga_c"):]
	if decl == nil || !w.used[tName] {
		return
	}
	decl.Specs = append(decl.Specs, &dst.ValueSpec{Names: []*dst.Ident{dst.NewIdent(tName)},
		Type: &dst.StarExpr{X: &dst.SelectorExpr{X: dst.NewIdent(rtAlias), Sel: dst.NewIdent(rtnames.Task)}}})
}
