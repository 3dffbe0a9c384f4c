package rewrite

import (
	"go/ast"

	"golang.org/x/tools/go/packages"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/plan"
)

// planOf turns the analysis of pkg into its plan: the constructs found and
// the notes on what is not checked.
func planOf(pkg *packages.Package, res *analysis.Result) *plan.Package {
	p := &plan.Package{Path: pkg.PkgPath}
	pos := func(n ast.Node) plan.Pos { return plan.PosOf(pkg.Fset, n.Pos()) }
	for _, c := range res.Constructs {
		pc := plan.Construct{Pos: pos(c.List[c.First]), Kind: string(c.Kind), Join: pos(c.List[c.Join])}
		for _, fk := range c.Forks {
			pc.Forks = append(pc.Forks, pos(fk.Node))
		}
		for _, k := range res.Conflicts(c) {
			pc.Conflicts = append(pc.Conflicts, plan.Note{Pos: pos(k.A), Msg: k.Describe(pkg.Fset)})
		}
		for _, l := range res.Inconsistent(c) {
			pc.Locking = append(pc.Locking, plan.Note{Pos: pos(l.Without), Msg: l.Describe(pkg.Fset)})
		}
		for _, n := range res.Unchecked(c) {
			pc.Unchecked = append(pc.Unchecked, plan.Note{Pos: plan.PosOf(pkg.Fset, n.Pos), Msg: n.Msg})
		}
		p.Constructs = append(p.Constructs, pc)
	}
	for _, n := range res.Notes {
		p.Notes = append(p.Notes, plan.Note{Pos: plan.PosOf(pkg.Fset, n.Pos), Msg: n.Msg, Callee: n.Callee, Coarse: n.Coarse})
	}
	return p
}
