package analysis

import (
	"go/ast"
	"go/types"
	"strings"
)

// In an -hb build a construct whose blocks start goroutines that no
// construct joins (or callbacks the runtime runs later on goroutines of
// their own) can race with them: those goroutines are checked by
// happens-before, and the construct's checks must reach the same engine
// (rt/hb_feed.go). The rewriter then runs the construct fully checked
// and fed from its start, rather than the pruned version that a
// construct alone with its blocks runs.

// laterCalls are the functions that run a callback later on a goroutine
// of its own, which an -hb build makes a thread (rewrite/hb_callbacks.go).
var laterCalls = map[string]bool{
	"time.AfterFunc": true, "runtime.SetFinalizer": true, "runtime.AddCleanup": true, "testing/synctest.Test": true,
}

// RunsLater reports whether fn runs a callback it is given later, on a
// goroutine of its own (time.AfterFunc, runtime.SetFinalizer,
// runtime.AddCleanup, synctest.Test).
func RunsLater(fn *types.Func) bool { return fn != nil && laterCalls[fn.Origin().FullName()] }

// StartsThreads returns why the code of construct c (the parent's
// statements from its first fork to its join, the goroutines' bodies,
// and the functions of this package they call, transitively) may start a
// goroutine outside every construct, or "": a go statement or wg.Go that
// no construct owns, a callback registered to run later, a call into
// another package outside the standard library (whose goroutines,
// rewritten, are threads; another package of the same module counts
// too, its go statements unseen from here), or a call through a value or
// an interface in a package that starts such goroutines itself.
func (r *Result) StartsThreads(c *Construct) string {
	if r.finder == nil {
		return ""
	}
	dynamic := r.startsAny()
	seen := map[*types.Func]bool{}
	var why string
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.GoStmt:
			if fk := r.Forks[n]; fk == nil || fk.Construct == nil {
				why = "a goroutine no construct joins"
			}
		case *ast.CallExpr:
			if fk := r.Forks[n]; fk != nil && fk.Construct == nil {
				why = "a goroutine no construct joins"
				return false
			}
			fn := r.finder.callee(n)
			switch {
			case fn == nil:
				if _, lit := ast.Unparen(n.Fun).(*ast.FuncLit); lit {
					break // its body is inspected as part of the call
				}
				if _, conv := r.finder.info.Types[n.Fun]; conv && r.finder.info.Types[n.Fun].IsType() {
					break // a conversion
				}
				if _, builtin := r.finder.info.Uses[calleeIdentOf(n.Fun)].(*types.Builtin); builtin {
					break
				}
				if dynamic {
					why = "a call through a value in a package that starts goroutines"
				}
			case fn.Pkg() == nil:
			case RunsLater(fn):
				why = "a callback the runtime runs later (" + fn.Name() + ")"
			case fn.Pkg() == r.finder.pkg:
				if d := r.Decls[fn.Origin()]; d != nil && !seen[fn.Origin()] {
					seen[fn.Origin()] = true
					ast.Inspect(d.Body, visit)
				}
			case !stdPath(fn.Pkg().Path()):
				why = "a call into package " + fn.Pkg().Path()
			}
		}
		return why == ""
	}
	for i := c.First; i <= c.Join && i < len(c.List); i++ {
		ast.Inspect(c.List[i], visit)
	}
	return why
}

// startsAny reports whether this package starts a goroutine that no
// construct joins, or registers a callback to run later.
func (r *Result) startsAny() bool {
	for _, fk := range r.Forks {
		if fk.Construct == nil {
			return true
		}
	}
	found := false
	for _, d := range r.Decls {
		ast.Inspect(d.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if fn := r.finder.callee(call); RunsLater(fn) {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// calleeIdentOf is the identifier a call's function expression names, or nil.
func calleeIdentOf(fun ast.Expr) *ast.Ident {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// stdPath reports whether path is a standard library package's: no dot
// in its first element.
func stdPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
