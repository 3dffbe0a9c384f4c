package rewrite

import (
	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/plan"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// A construct of an -hb build that a thread enters (rt.Enter with the
// function's _ga_hb) checks its blocks structurally among themselves,
// pruned by the static stage's proofs; the goroutines outside it are
// checked by happens-before. When another goroutine may run beside the
// blocks, their accesses must reach the happens-before engine too, all of
// them: a proof that two iterations touch different elements says nothing
// of a goroutine outside the construct. So such a construct is rewritten
// twice, and rt.Quiescent picks the version at each instance:
//
//	if _ga_rt.Quiescent(_ga_hb) {
//		… the construct as without -hb: pruned, perhaps elided …
//	} else {
//		_ga_c2 := _ga_rt.EnterFed(_ga_hb, n, site)
//		… every shared access checked, fed to the engine (rt/hb_feed.go) …
//		wg.Wait()
//		_ga_c2.Join()
//	}
//
// A construct whose blocks may start such goroutines themselves
// (analysis.StartsThreads) runs the fed version only. A construct whose
// statements declare names that code after it uses, or hold labels of the
// function (not those of a goroutine's literal: movable),
// cannot be put in a branch: it keeps the pruned version, fed from its
// Enter when the thread is not alone (rt.Enter), and its proven accesses
// are noted as not checked against other goroutines.

// hbVersioned reports whether root construct c, rewritten in a thread's
// code, gets the fed version.
func (w *walker) hbVersioned(c *analysis.Construct, list []dst.Stmt) bool {
	if !w.cfg.HB || w.cfg.Conservative || w.fed || w.task != hbTask || w.inClone || w.outer != nil || w.sampled != nil || w.spec != nil {
		return false
	}
	if c.Deferred != nil || declaresNames(list) || !movable(list) {
		pos := plan.PosOf(w.pkg.Fset, c.List[c.First].Pos())
		w.plan.Notes = append(w.plan.Notes, plan.Note{Pos: pos, Coarse: true,
			Msg: "under -hb its accesses proven race-free among its goroutines are not checked against goroutines outside it (its statements declare names or labels, or its join is deferred, so it has no fully checked version)"})
		return false
	}
	return true
}

// hbVersions rewrites c (list, its join last) as the fed version, behind
// rt.Quiescent's branch unless its blocks may start goroutines.
func (w *walker) hbVersions(c *analysis.Construct, list []dst.Stmt) []dst.Stmt {
	task := w.taskExpr()
	fedList := w.cloneAll(list)
	starts := w.res.StartsThreads(c)
	var pruned []dst.Stmt
	if starts == "" {
		pruned = w.rewriteConstruct(c, list)
	}
	f := *w
	f.fed = true
	f.silent = starts == "" // the pruned version records the plan
	fed := f.rewriteConstruct(c, fedList)
	w.change()
	if starts != "" {
		return fed
	}
	return []dst.Stmt{&dst.IfStmt{
		Cond: w.rtCall(rtnames.Quiescent, task),
		Body: &dst.BlockStmt{List: pruned},
		Else: &dst.BlockStmt{List: fed},
	}}
}

// checksAll reports whether the code being rewritten checks every shared
// access, proofs aside: a -conservative build, or an -hb construct's fed
// version.
func (w *walker) checksAll() bool { return w.cfg.Conservative || w.fed }
