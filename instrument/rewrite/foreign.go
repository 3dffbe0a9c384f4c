package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/plan"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// foreignArgs checks, at a call of a function of another package that runs
// as written, the memory its arguments reach, as the table of
// analysis.ForeignCall says: sort.Ints(s) becomes
// sort.Ints(_ga_rt.WriteAll(t, s, site)), fmt.Sprint(s) reads every element
// of s, maps.Clone(m) reads the map m, binary.LittleEndian.PutUint32(b, v)
// writes b[0:4]. Arguments the table does not know are noted by the
// analysis, not checked. x.Args are already rewritten.
func (w *walker) foreignArgs(x *dst.CallExpr, a *ast.CallExpr) {
	if w.task == "" || len(x.Args) != len(a.Args) {
		return
	}
	uses, ok := w.res.ForeignCall(w.info, a)
	if !ok {
		return
	}
	for i, u := range uses {
		arg := a.Args[i]
		if u.Kind == analysis.ArgNone || u.Kind == analysis.ArgUnknown || w.res.WorkerOwnedElems(arg) {
			continue // a pool worker's own slice or map is private
		}
		site := siteLit(w.site(arg.Pos(), types.ExprString(arg)))
		op := plan.Read
		if u.Kind == analysis.ArgWrite || u.Kind == analysis.ArgWriteHead {
			op = plan.Write
		}
		w.recordAt(arg.Pos(), types.ExprString(arg), op)
		w.change()
		if isMapType(w.info.TypeOf(arg)) {
			fn := rtnames.MR
			if op == plan.Write {
				fn = rtnames.MW
			}
			x.Args[i] = w.rtCall(fn, w.taskExpr(), x.Args[i], site)
			continue
		}
		switch u.Kind {
		case analysis.ArgRead:
			x.Args[i] = w.rtCall(rtnames.ReadAll, w.taskExpr(), x.Args[i], site)
		case analysis.ArgWrite:
			x.Args[i] = w.rtCall(rtnames.WriteAll, w.taskExpr(), x.Args[i], site)
		case analysis.ArgReadHead, analysis.ArgWriteHead:
			fn := rtnames.ReadHead
			if op == plan.Write {
				fn = rtnames.WriteHead
			}
			n := &dst.BasicLit{Kind: token.INT, Value: itoa(u.Head)}
			x.Args[i] = w.rtCall(fn, w.taskExpr(), x.Args[i], n, site)
		}
	}
}
