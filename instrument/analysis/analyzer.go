package analysis

import (
	"go/ast"
	"go/build"
	"go/types"
	"path/filepath"
	"reflect"
	"strings"

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
	FactTypes:  []analysis.Fact{new(syncsFact), new(returnsFact), new(viewsFact), new(exitsFact), new(wrapperFact), new(callsArgFact)},
}

// syncsFact says that a function synchronizes in a way the model does not
// order (a channel operation, sync.Cond, …), itself or through a callee: a
// construct of another package whose goroutines call it is unstructured,
// as when both packages are built together by goanomaly build.
type syncsFact struct{ Why string }

func (*syncsFact) AFact()           {}
func (f *syncsFact) String() string { return "synchronizes: " + f.Why }

// exitsFact says that a function may end its caller's goroutine
// (runtime.Goexit, t.Fatal, …), itself or through a callee: a construct of
// another package whose parent calls it between the forks and the join is
// unstructured (goexit.go).
type exitsFact struct{ Why string }

func (*exitsFact) AFact()           {}
func (f *exitsFact) String() string { return "ends the goroutine: " + f.Why }

// decisions, accesses and dynamic are the Analyzer's flags.
var decisions, accesses, dynamic bool

func init() {
	Analyzer.Flags.BoolVar(&decisions, "decisions", false,
		"also report each construct, each independence proof and each goroutine the model does not cover")
	Analyzer.Flags.BoolVar(&accesses, "accesses", false,
		"with -decisions, also report the verdict for each access of a construct's goroutines: private, read-only, independent or checked")
	Analyzer.Flags.BoolVar(&dynamic, "dynamic", false,
		"also report the functions that get a prologue for calls through values, and the constructs whose goroutines attach their task")
}

func run(pass *analysis.Pass) (any, error) {
	wraps := wrappersOf(pass)
	res := AnalyzeWith(pass.Files, pass.TypesInfo, pass.Pkg, wraps)
	res.SetViews(factViews(pass))
	res.imported = map[*types.Func]string{}
	res.finder.importedReturns = map[*types.Func]string{}
	res.finder.importedExits = map[*types.Func]string{}
	for _, file := range pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if fn := Callee(pass.TypesInfo, call.Fun); fn != nil && fn.Pkg() != nil && fn.Pkg() != pass.Pkg {
					var f syncsFact
					if pass.ImportObjectFact(fn.Origin(), &f) {
						res.imported[fn] = f.Why
					}
					var r returnsFact
					if pass.ImportObjectFact(fn.Origin(), &r) {
						res.finder.importedReturns[fn] = r.Why
					}
					var x exitsFact
					if pass.ImportObjectFact(fn.Origin(), &x) {
						res.finder.importedExits[fn.Origin()] = x.Why
					}
				}
			}
			return true
		})
	}
	Link([]*Result{res})
	if !inGOROOT(pass) { // the standard library is known by name (calleeSyncs), as in goanomaly build
		exportWrappers(pass, wraps)
		for fn := range res.Decls {
			if w := res.syncs[fn]; w != "" {
				pass.ExportObjectFact(fn, &syncsFact{Why: w})
			}
			if w := res.finder.rets[fn]; w != "" {
				pass.ExportObjectFact(fn, &returnsFact{Why: w})
			}
			if w := res.finder.exits[fn]; w != "" {
				pass.ExportObjectFact(fn, &exitsFact{Why: w})
			}
		}
	}
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
		reportSpecialized(pass, res)
		for id, obj := range pass.TypesInfo.Defs {
			if v, ok := obj.(*types.Var); ok && accesses && res.AtomicOnly(v) {
				pass.Reportf(id.Pos(), "atomic only: %s is touched only by its sync/atomic methods: checked with atomics=1 or under a lock", v.Name())
			}
		}
	}
	if dynamic {
		reportDynamic(pass, res)
		reportCallbackReads(pass, res)
	}
	if decisions {
		for _, n := range res.Notes {
			if n.Coarse {
				pass.Reportf(n.Pos, "%s", n.Msg) // still checked, as one block
				continue
			}
			pass.Reportf(n.Pos, "%s — not checked", n.Msg)
		}
	}
	return res, nil
}

// inGOROOT reports whether the package is the standard library's.
func inGOROOT(pass *analysis.Pass) bool {
	root := filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)
	for _, f := range pass.Files {
		if !strings.HasPrefix(pass.Fset.File(f.Pos()).Name(), root) {
			return false
		}
	}
	return len(pass.Files) > 0
}

// reportDynamic reports the decisions of dynamic.go and attach.go.
func reportDynamic(pass *analysis.Pass, res *Result) {
	for _, c := range res.Constructs {
		if res.Attach(c) {
			pass.Reportf(c.List[c.First].Pos(), "goroutines attach their task: calls through values run checked")
		}
	}
	for fn, d := range res.Decls {
		if res.Prologue[fn] {
			pass.Reportf(d.Name.Pos(), "prologue: %s runs its checked clone when called through a value with a task", fn.Name())
		}
		if l := res.CallbackItemsDecl(d); l != nil {
			pass.Reportf(l.Pos(), "callback items: each receive from %s is a work item when its goroutine drains that channel", types.ExprString(l.X))
		}
	}
	for fn, d := range res.Decls {
		if res.Detach[fn] {
			pass.Reportf(d.Name.Pos(), "detach: %s runs as written, its goroutine detached, when called through a value", fn.Name())
		}
	}
	for lit := range res.DetachLits {
		pass.Reportf(lit.Pos(), "detach: function literal runs as written, its goroutine detached, when called through its value")
	}
	for lit := range res.PrologueLits {
		pass.Reportf(lit.Pos(), "prologue: function literal runs a checked copy when called through its value with a task")
		if l := res.CallbackItems(lit); l != nil {
			pass.Reportf(l.Pos(), "callback items: each receive from %s is a work item when its goroutine drains that channel", types.ExprString(l.X))
		}
	}
	for id, obj := range pass.TypesInfo.Defs {
		if v, ok := obj.(*types.Var); ok && res.CallbackOwned(v) {
			pass.Reportf(id.Pos(), "callback's own: %s holds only memory its call allocates and never lets go: private", v.Name())
		}
	}
	for _, c := range res.Constructs {
		for _, fk := range c.Forks {
			if ch := res.Drains(fk); ch != nil {
				pass.Reportf(fk.Node.Pos(), "drains %s: a callback's range over it takes each receive as a work item", ch.Name)
			}
		}
	}
}
