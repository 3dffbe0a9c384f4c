package analysis

import (
	"fmt"
	"go/ast"
	"go/types"
)

// A parent that ends its goroutine between the forks and the join leaves
// the construct as a return does (exits.go): runtime.Goexit, and the
// testing methods that call it (t.Fatal, t.Fatalf, t.FailNow, t.Skip,
// t.Skipf, t.SkipNow on testing.T, B, F or TB). A function that calls one
// of those, itself or through a callee, may end its caller's goroutine:
// that is a fact of the function, found in its body (outside function
// literals other than those it calls at once or defers) and propagated to
// its callers across the packages analysed together, and through facts to
// other packages. A construct whose parent calls such a function between
// its first fork and its join is unstructured. Calls through function
// values and interface methods other than testing.TB's are not followed.

// goexitMethods are the methods of package testing that never return.
var goexitMethods = map[string]bool{"Fatal": true, "Fatalf": true, "FailNow": true, "Skip": true, "Skipf": true, "SkipNow": true}

// endsGoroutine names the call when it ends the calling goroutine
// (runtime.Goexit or a testing method that calls it), or returns "".
func (f *finder) endsGoroutine(call *ast.CallExpr) string {
	if f.methodName(call) == "runtime.Goexit" {
		return "runtime.Goexit"
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !goexitMethods[sel.Sel.Name] {
		return ""
	}
	s := f.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal || s.Obj().Pkg() == nil || s.Obj().Pkg().Path() != "testing" {
		return ""
	}
	return types.ExprString(call.Fun)
}

// inspectCalled is inspectNoLit that also enters the function literals
// called where they stand (func(){…}(), defer func(){…}()), but not those
// a go statement starts.
func inspectCalled(root ast.Node, visit func(n ast.Node)) {
	inspectNoLit(root, func(n ast.Node, _ []ast.Node) {
		visit(n)
		switch n := n.(type) {
		case *ast.GoStmt:
			// runs in another goroutine
		case *ast.CallExpr:
			if lit, ok := ast.Unparen(n.Fun).(*ast.FuncLit); ok {
				inspectCalled(lit.Body, visit)
			}
		}
	})
}

// exitFacts finds, for each function of the package, whether its own
// body ends the goroutine (exitWhy), and the functions it calls.
func (f *finder) exitFacts() (map[*types.Func]string, map[*types.Func][]*types.Func) {
	why, calls := map[*types.Func]string{}, map[*types.Func][]*types.Func{}
	for fn, d := range f.res.Decls {
		if d.Body == nil {
			continue
		}
		inspectCalled(d.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			if w := f.endsGoroutine(call); w != "" && why[fn] == "" {
				why[fn] = "calls " + w
			}
			if c := f.callee(call); c != nil {
				calls[fn] = append(calls[fn], c)
			}
		})
	}
	return why, calls
}

// propagateExits spreads the exit facts of results analysed together, and
// those imported, to the callers, to a fixed point.
func propagateExits(results []*Result) map[*types.Func]string {
	why := map[*types.Func]string{}
	calls := map[*types.Func][]*types.Func{}
	for _, r := range results {
		for fn, w := range r.finder.importedExits {
			why[fn] = w
		}
	}
	for _, r := range results {
		w, c := r.finder.exitFacts()
		for fn, x := range w {
			why[fn] = x
		}
		for fn, x := range c {
			calls[fn] = x
		}
	}
	spreadToCallers(why, calls, func(c *types.Func) string { return why[c.Origin()] })
	for _, r := range results {
		r.finder.exits = why
	}
	return why
}

// demoteExiting turns into unstructured the constructs whose parent calls,
// between the first fork and the join, a function that may end its
// goroutine.
func (f *finder) demoteExiting(why map[*types.Func]string) {
	f.demote(func(c *Construct) string {
		reason := ""
		if c.Deferred != nil {
			return "" // ending the goroutine runs the deferred Wait (deferwait.go)
		}
		for _, s := range c.List[c.First:c.Join] {
			inspectCalled(s, func(n ast.Node) {
				call, ok := n.(*ast.CallExpr)
				if !ok || reason != "" {
					return
				}
				if fn := f.callee(call); fn != nil {
					if w := why[fn.Origin()]; w != "" {
						reason = fmt.Sprintf("the parent calls %s, which %s: it may end before the join; the goroutines outlive it", fn.Name(), trimCalls(w))
					}
				}
			})
		}
		return reason
	})
}
