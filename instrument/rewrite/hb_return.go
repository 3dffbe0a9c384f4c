package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// The implicit read of a function's named results (-hb): a bare return
// hands the results' current values to the caller, reading them, so a
// goroutine the function started that writes a named result races with
// it (TestRaceHeapParam of the race detector's suite):
//
//	func f() (x int) { go func() { x = 42 }(); return }
//
// becomes, for each named result a function literal captures or whose
// address is taken (hbShared),
//
//	_ga_rt.R(_ga_hb, &x, site)
//	return
//
// The read happens after the deferred calls, which may synchronize (defer
// wg.Wait()) or set the results: in a function with a defer statement it
// is not checked. A return with values writes the results (after its
// operands, which may receive): not checked either.

// bareReads returns, for each bare return of the file, the named results
// of its function; none for a function that defers.
func bareReads(f *ast.File, info *types.Info) map[*ast.ReturnStmt][]*types.Var {
	out := map[*ast.ReturnStmt][]*types.Var{}
	var visit func(typ *ast.FuncType, body *ast.BlockStmt)
	visit = func(typ *ast.FuncType, body *ast.BlockStmt) {
		if body == nil {
			return
		}
		var results []*types.Var
		if typ.Results != nil {
			for _, fld := range typ.Results.List {
				for _, name := range fld.Names {
					if v, ok := info.Defs[name].(*types.Var); ok && name.Name != "_" {
						results = append(results, v)
					}
				}
			}
		}
		var returns []*ast.ReturnStmt
		defers := false
		ast.Inspect(body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				visit(x.Type, x.Body)
				return false
			case *ast.DeferStmt:
				defers = true
			case *ast.ReturnStmt:
				if len(x.Results) == 0 {
					returns = append(returns, x)
				}
			}
			return true
		})
		if defers || len(results) == 0 {
			return
		}
		for _, r := range returns {
			out[r] = results
		}
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			visit(fd.Type, fd.Body)
		}
	}
	return out
}

// hbBareReturn returns the checks that go right before s when it is a
// bare return: a read of each shared named result.
func (w *walker) hbBareReturn(s dst.Stmt) []dst.Stmt {
	if !w.hooks() || w.task != hbTask {
		return nil
	}
	r, _ := w.astOf(s).(*ast.ReturnStmt)
	if r == nil || len(r.Results) != 0 {
		return nil
	}
	if w.fileRewriter.hbReturns == nil {
		w.fileRewriter.hbReturns = bareReads(w.astFile, w.info)
	}
	var out []dst.Stmt
	for _, v := range w.fileRewriter.hbReturns[r] {
		if !w.hbShared(v) {
			continue
		}
		w.change()
		site := siteLit(w.site(r.Pos(), v.Name()))
		ptr := &dst.UnaryExpr{Op: token.AND, X: dst.NewIdent(v.Name())}
		out = append(out, &dst.ExprStmt{X: w.rtCall(rtnames.R, w.taskExpr(), ptr, site)})
	}
	return out
}
