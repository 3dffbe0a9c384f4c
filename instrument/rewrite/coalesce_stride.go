package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// Strided element accesses of check coalescing (coalesce.go). A loop over
// k that walks a column of a flat matrix, s += A[i*N+k] * B[k*N+j], reads
// B[coef*k+S+d]: elements coef apart, not a run, so its checks cannot
// become one span. Before, such an access kept the whole loop from
// coalescing (its subscript is neither invariant nor a run); now it stays
// in the loop, checked at each iteration, and the rest may move:
//
//   - bounds: rt.StrideIn(S+d, coef, lo, hi, len(x)), tested before the
//     loop with the other conditions, tells that the subscript lies in x
//     for every iteration, computed without overflow, so no iteration
//     panics there;
//   - order: where it may touch is taken to be all of x, an
//     over-approximation, so a run of its group moves before the loop only
//     when rt.SpansApart tells that the run shares no element with x
//     (partialMove): the loop then meets no element from both, and the
//     order of their checks does not matter. Two arrays of one kernel are
//     apart; a run and a column of the same matrix are not, and the loop
//     keeps every check (the test fails at run time, or is refused here
//     when both name the same slice).
//
// Fully checked, 2mm's inner loop made two checks per iteration, the row
// of A and the column of B; it now makes one, and a ReadSpan per row.

// stride is the StrideIn test of one strided access x[coef*j+S+d].
type stride struct {
	x, coef, sym ast.Expr
	d            int
}

// strided returns the footprint of x when it is x[coef*j+S+d] on an
// invariant slice, recording its StrideIn test; nil otherwise.
func (w *walker) strided(c *coalescing, x *ast.IndexExpr, order int) *cand {
	if _, ok := underlying(w.info.TypeOf(x.X)).(*types.Slice); !ok {
		return nil
	}
	if !w.invariant(c, x.X) || !w.safe(c, x.X) {
		return nil
	}
	coef, sym, d, ok := w.linear(c, x.Index, true)
	if !ok || coef == nil {
		return nil
	}
	st := &stride{x: x.X, coef: coef, sym: sym, d: d}
	c.strides[types.ExprString(x.X)+" "+types.ExprString(coef)+" "+symKey(sym)+" "+itoa(d)] = st
	return &cand{base: x.X, whole: true, order: order}
}

// scale returns C when e is j*C or C*j, C an integer loop-invariant that
// does not mention j and is safe to evaluate before the loop; else nil.
func (w *walker) scale(c *coalescing, e ast.Expr) ast.Expr {
	b, ok := e.(*ast.BinaryExpr)
	if !ok || b.Op != token.MUL {
		return nil
	}
	k := b.Y
	switch {
	case w.isVar(ast.Unparen(b.X), c.j):
	case w.isVar(ast.Unparen(b.Y), c.j):
		k = b.X
	default:
		return nil
	}
	if w.mentions(k, c.j) || !isInteger(w.info.TypeOf(k)) || !w.invariant(c, k) || !w.safe(c, k) {
		return nil
	}
	return k
}

// strideIns are the StrideIn tests of the loop's strided accesses, in a
// fixed order, for iterations [lo, hi).
func (w *walker) strideIns(c *coalescing, lo, hi ast.Expr) []dst.Expr {
	var out []dst.Expr
	for _, key := range slices.Sorted(maps.Keys(c.strides)) {
		st := c.strides[key]
		var off dst.Expr = &dst.BasicLit{Kind: token.INT, Value: itoa(st.d)}
		if st.d < 0 {
			off = &dst.ParenExpr{X: off}
		}
		if st.sym != nil {
			off = copyExpr(plusConst(st.sym, st.d))
		}
		if p, ok := off.(*dst.ParenExpr); ok {
			off = p.X
		}
		out = append(out, w.rtCall(rtnames.StrideIn, off, copyExpr(st.coef), copyExpr(lo), copyExpr(hi), copyExpr(lenOf(st.x))))
	}
	return out
}
