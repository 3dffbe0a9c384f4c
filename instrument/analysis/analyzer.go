package analysis

import (
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
)

// Analyzer is the static stage as a go/analysis pass, so it runs under
// go vet -vettool, gopls and golangci-lint. Under those drivers every
// diagnostic is a failure, so by default it reports only problems: definite
// conflicts and inconsistent locking. With the decisions flag it also
// reports each construct it recognises, each independence proof and each
// goroutine the model does not cover. Its result is the *Result the
// rewriter consumes.
var Analyzer = &analysis.Analyzer{
	Name: "goanomaly",
	Doc: `report definite conflicts and inconsistent locking in parallel constructs

With -decisions, also report each parallel construct goanomaly recognises,
each array it proves independent, and each goroutine it cannot check.`,
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
}

// decisions and accesses are the Analyzer's flags.
var decisions, accesses bool

func init() {
	Analyzer.Flags.BoolVar(&decisions, "decisions", false,
		"also report each construct, each independence proof and each goroutine the model does not cover")
	Analyzer.Flags.BoolVar(&accesses, "accesses", false,
		"with -decisions, also report the verdict for each access of a construct's goroutines: private, read-only, independent or checked")
}

func run(pass *analysis.Pass) (any, error) {
	res := Analyze(pass.Files, pass.TypesInfo, pass.Pkg)
	Link([]*Result{res})
	if decisions {
		for _, c := range res.Constructs {
			pass.Reportf(c.List[c.First].Pos(), "%s of %d goroutine start(s), joined at line %d",
				c.Kind, len(c.Forks), pass.Fset.Position(c.List[c.Join].Pos()).Line)
		}
	}
	for _, c := range res.Constructs {
		for _, k := range res.Conflicts(c) {
			pass.Reportf(k.A.Pos(), "%s", k.Describe(pass.Fset))
		}
		for _, l := range res.Inconsistent(c) {
			pass.Reportf(l.Without.Pos(), "%s", l.Describe(pass.Fset))
		}
		if !decisions {
			continue
		}
		for v := range res.Independent(c) {
			pass.Reportf(c.List[c.First].Pos(), "independent: each iteration writes and reads its own element of %s — not checked", v.Name())
		}
		if !accesses {
			continue
		}
		for _, d := range res.Decisions(c) {
			pass.Reportf(d.Expr.Pos(), "%s: %s: %s", types.ExprString(d.Expr), d.Verdict, d.Why)
		}
	}
	if decisions {
		for _, n := range res.Notes {
			pass.Reportf(n.Pos, "%s — not checked", n.Msg)
		}
	}
	return res, nil
}
