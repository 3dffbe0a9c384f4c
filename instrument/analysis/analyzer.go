package analysis

import (
	"reflect"

	"golang.org/x/tools/go/analysis"
)

// Analyzer is the static stage as a go/analysis pass, so it runs under
// go vet -vettool, gopls and golangci-lint. It reports each construct it
// recognises and each goroutine the model does not cover; its result is the
// *Result the rewriter consumes.
var Analyzer = &analysis.Analyzer{
	Name:       "goanomaly",
	Doc:        "report the parallel constructs goanomaly checks and the goroutines it cannot",
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
}

func run(pass *analysis.Pass) (any, error) {
	res := Analyze(pass.Files, pass.TypesInfo, pass.Pkg)
	Link([]*Result{res})
	for _, c := range res.Constructs {
		pass.Reportf(c.List[c.First].Pos(), "%s of %d goroutine start(s), joined at line %d",
			c.Kind, len(c.Forks), pass.Fset.Position(c.List[c.Join].Pos()).Line)
	}
	for _, c := range res.Constructs {
		for _, k := range res.Conflicts(c) {
			pass.Reportf(k.A.Pos(), "%s", k.Describe(pass.Fset))
		}
		for _, l := range res.Inconsistent(c) {
			pass.Reportf(l.Without.Pos(), "%s", l.Describe(pass.Fset))
		}
		for v := range res.Independent(c) {
			pass.Reportf(c.List[c.First].Pos(), "independent: each iteration writes and reads its own element of %s — not checked", v.Name())
		}
	}
	for _, n := range res.Notes {
		pass.Reportf(n.Pos, "%s — not checked", n.Msg)
	}
	return res, nil
}
