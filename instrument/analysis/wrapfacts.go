package analysis

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// wrappersOf is what the Analyzer knows of wrapper types: the facts of
// the functions of other packages the package calls, and its own
// (wrappers.go). goanomaly build learns the same from the packages it
// loads together (Wrappers.Find over each).
func wrappersOf(pass *analysis.Pass) *Wrappers {
	w := NewWrappers()
	for _, file := range pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn := Callee(pass.TypesInfo, call.Fun)
			if fn == nil || fn.Pkg() == nil || fn.Pkg() == pass.Pkg {
				return true
			}
			var wf wrapperFact
			if pass.ImportObjectFact(fn.Origin(), &wf) {
				if wf.Kind == "refused" {
					w.refused[fn.Origin()] = wf.Why
				} else {
					w.setRole(fn, wrapRole{kind: wf.Kind, typ: wf.Type, field: wf.Field, errs: wf.Err})
				}
			}
			var cf callsArgFact
			if pass.ImportObjectFact(fn.Origin(), &cf) {
				w.setCallsArg(fn, cf.Index)
			}
			return true
		})
	}
	w.Find(pass.Files, pass.TypesInfo, pass.Pkg)
	return w
}

// exportWrappers exports the facts of the package's own wrapper methods
// and argument-calling functions.
func exportWrappers(pass *analysis.Pass, w *Wrappers) {
	for fn, r := range w.roles {
		if fn.Pkg() == pass.Pkg {
			pass.ExportObjectFact(fn, &wrapperFact{Kind: r.kind, Type: r.typ, Field: r.field, Err: r.errs})
		}
	}
	for fn, why := range w.refused {
		if fn.Pkg() == pass.Pkg {
			pass.ExportObjectFact(fn, &wrapperFact{Kind: "refused", Why: why})
		}
	}
	for fn, i := range w.callsArg {
		if fn.Pkg() == pass.Pkg {
			pass.ExportObjectFact(fn, &callsArgFact{Index: i})
		}
	}
}
