package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

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
//	defer os.Exit(code)  →  defer func(_ga_code int) { os.Exit(_ga_rt.Status(_ga_code)) }(code)
//
// Status prints what Fini prints and returns the status Fini would exit
// with. log.Fatal, Fatalf and Fatalln (the package's and a *log.Logger's)
// print and then call os.Exit(1) where no rewrite reaches, so a statement
// that calls one becomes its Print form followed by Fini(1), which exits
// as os.Exit(_ga_rt.Status(1)) does (the status stays 1, as under -race,
// which turns only a 0 into 66):
//
//	log.Fatalf(format, v)  →  log.Printf(format, v); _ga_rt.Fini(1)
//
// The Print form formats as the Fatal one and reports the same caller's
// file and line (calldepth 2 in both). A test binary is left alone: it
// ends through its TestMain, whose m.Run() is wrapped (wrapRun), and
// testing refuses os.Exit in a test. os.Exit called through a value, and
// log.Fatal deferred, inside an expression or through a value, still skip
// it.

// wrapExits wraps the argument of every call of os.Exit in n, whose nodes
// dec decorated (n's function literals included).
func (fr *fileRewriter) wrapExits(dec *decorator.Decorator, n dst.Node) {
	if fr.testVariant || fr.cfg.Test {
		return
	}
	dstutil.Apply(n, nil, func(c *dstutil.Cursor) bool {
		if es, ok := c.Node().(*dst.ExprStmt); ok && c.Index() >= 0 {
			if call, ok := es.X.(*dst.CallExpr); ok && fr.isLogFatal(dec, call.Fun) {
				fr.changed = true
				sel := call.Fun.(*dst.SelectorExpr)
				sel.Sel.Name = "Print" + strings.TrimPrefix(sel.Sel.Name, "Fatal")
				fini := &dst.ExprStmt{X: &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(rtAlias), Sel: dst.NewIdent(rtnames.Fini)}, Args: []dst.Expr{&dst.BasicLit{Kind: token.INT, Value: "1"}}}}
				if a, ok := dec.Ast.Nodes[es].(ast.Node); ok {
					// on the statement's last line: the lines after it keep
					// their numbers (a caller's file and line, log's own)
					fini.Decs.Before = dst.NewLine
					fini.Decs.Start.Append(lineDirective(fr.pkg.Fset.Position(a.End()), true))
				}
				c.InsertAfter(fini)
				return true
			}
		}
		call, ok := c.Node().(*dst.CallExpr)
		if !ok || len(call.Args) != 1 || !fr.isOSExit(dec, call.Fun) {
			return true
		}
		fr.changed = true
		switch c.Parent().(type) {
		case *dst.DeferStmt, *dst.GoStmt:
			// defer os.Exit(code): code is evaluated at the defer, the
			// checks end when the call runs.
			c.Replace(&dst.CallExpr{
				Fun: &dst.FuncLit{
					Type: &dst.FuncType{Params: &dst.FieldList{List: []*dst.Field{{Names: []*dst.Ident{dst.NewIdent("_ga_code")}, Type: dst.NewIdent("int")}}}},
					Body: &dst.BlockStmt{List: []dst.Stmt{&dst.ExprStmt{X: &dst.CallExpr{Fun: call.Fun, Args: []dst.Expr{exitStatus(dst.NewIdent("_ga_code"))}}}}},
				},
				Args: call.Args,
			})
		default:
			call.Args[0] = exitStatus(call.Args[0])
		}
		return true
	})
}

// exitStatus is _ga_rt.Status(code).
func exitStatus(code dst.Expr) dst.Expr {
	return &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(rtAlias), Sel: dst.NewIdent(rtnames.Status)}, Args: []dst.Expr{code}}
}

// isOSExit reports whether fun, decorated by dec, is os.Exit.
func (fr *fileRewriter) isOSExit(dec *decorator.Decorator, fun dst.Expr) bool {
	fn := fr.selectedFunc(dec, fun)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "os" && fn.Name() == "Exit"
}

// isLogFatal reports whether fun, decorated by dec, is log.Fatal, Fatalf
// or Fatalln, or one of those methods of a *log.Logger (not through an
// interface).
func (fr *fileRewriter) isLogFatal(dec *decorator.Decorator, fun dst.Expr) bool {
	fn := fr.selectedFunc(dec, fun)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "log" {
		return false
	}
	switch fn.Name() {
	case "Fatal", "Fatalf", "Fatalln":
		return true
	}
	return false
}

// selectedFunc returns the function or method fun, a selector decorated
// by dec (pkg.F, x.M), calls, or nil.
func (fr *fileRewriter) selectedFunc(dec *decorator.Decorator, fun dst.Expr) *types.Func {
	sel, ok := fun.(*dst.SelectorExpr)
	if !ok {
		return nil
	}
	a, ok := dec.Ast.Nodes[sel].(ast.Expr)
	if !ok {
		return nil
	}
	return analysis.Callee(fr.info, a)
}
