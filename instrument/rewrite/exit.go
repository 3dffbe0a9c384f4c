package rewrite

import (
	"go/ast"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
	"github.com/dave/dst/dstutil"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// A program that ends by os.Exit never returns from main, so the Fini
// that the rewritten main calls after it does not run: the closing lines
// were not printed, a SARIF log was not written, a report still waiting
// for its sites was lost, and os.Exit(0) after a data race exited 0,
// where the program's exit status should be 66, as -race makes it
// (testdata/review17/osexit). So each call of os.Exit in a program's
// code ends the checks first:
//
//	os.Exit(code)  →  os.Exit(_ga_rt.Status(code))
//
// Status prints what Fini prints and returns the status Fini would exit
// with. A test binary is left alone: it ends through its TestMain, whose
// m.Run() is wrapped (wrapRun), and testing refuses os.Exit in a test.
// os.Exit called through a value, and log.Fatal's, still skip it.

// wrapExits wraps the argument of every call of os.Exit in n, whose nodes
// dec decorated (n's function literals included).
func (fr *fileRewriter) wrapExits(dec *decorator.Decorator, n dst.Node) {
	if fr.testVariant || fr.cfg.Test {
		return
	}
	dstutil.Apply(n, nil, func(c *dstutil.Cursor) bool {
		call, ok := c.Node().(*dst.CallExpr)
		if !ok || len(call.Args) != 1 || !fr.isOSExit(dec, call.Fun) {
			return true
		}
		call.Args[0] = &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(rtAlias), Sel: dst.NewIdent(rtnames.Status)}, Args: []dst.Expr{call.Args[0]}}
		fr.changed = true
		return true
	})
}

// isOSExit reports whether fun, decorated by dec, is os.Exit.
func (fr *fileRewriter) isOSExit(dec *decorator.Decorator, fun dst.Expr) bool {
	sel, ok := fun.(*dst.SelectorExpr)
	if !ok || sel.Sel.Name != "Exit" {
		return false
	}
	a, ok := dec.Ast.Nodes[sel].(ast.Expr)
	if !ok {
		return false
	}
	fn := analysis.Callee(fr.info, a)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "os" && fn.Name() == "Exit"
}
