package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// Partial moves of check coalescing (coalesce.go). A group of checks that
// may share memory moves as a whole, except that element accesses of the
// loop under a branch (after an `if … { continue }`, inside an `if`) need
// not hold the group's other element checks in the loop: they stay, checked
// in the iterations that make them, and the unconditional element checks
// x[j+S+d] move before the loop when, for every element, each moved check
// still comes before each kept one, as it did in the loop:
//
//   - a kept access y[j+S'+d'] of the same slice text and symbolic part
//     (S' = S) meets an element at iteration e-S-d', a moved one at
//     e-S-d: the moved one is first when d > d', or d = d' and it comes
//     first in the body (body order);
//   - otherwise its span [lo+S'+d', hi+S'+d') — where it may touch, an
//     over-approximation, which is all an apartness test needs — must be
//     apart from the moved one's (rt.SpansApart, tested before the loop).
//
// A strided access x[coef*j+S+d] (coalesce_stride.go) is kept, conditional
// or not, with all of x as where it may touch: the apartness test is then
// against x[0:len(x)], and a moved run of the same slice text refuses.
//
// A kept access that is not an element x[j+S+d] of an invariant slice
// (a field, a variable, an invariant address), or a pair that fails the
// order test, keeps the whole group in the loop, as before. No range is
// claimed for a conditional access: a range check claims every element of
// the span, and a branch the values decide may skip some of them.

// footprint is where the conditional element access x may touch: x[j+S+d]
// on an invariant slice of non-aggregate elements; nil otherwise.
func (w *walker) footprint(c *coalescing, x *ast.IndexExpr, order int) *cand {
	if _, ok := underlying(w.info.TypeOf(x.X)).(*types.Slice); !ok || aggregate(w.info.TypeOf(x)) {
		return nil
	}
	if !w.invariant(c, x.X) || !w.safe(c, x.X) {
		return nil
	}
	sym, d, ok := w.affine(c, x.Index)
	if !ok {
		return nil
	}
	return &cand{base: x.X, sym: sym, d: d, order: order}
}

// partialMove splits group g into the element candidates, which move, and
// the rest, which stay; it returns the moved checks and the SpansApart
// conditions the split needs, or false when some check that stays may
// meet an element before a moved one.
func (w *walker) partialMove(c *coalescing, g []*loopCheck) ([]*loopCheck, []dst.Expr, bool) {
	var moved, kept []*loopCheck
	for _, k := range g {
		switch {
		case k.cand != nil && k.cand.base != nil:
			moved = append(moved, k)
		case k.foot != nil:
			kept = append(kept, k)
		default:
			return nil, nil, false
		}
	}
	if len(moved) == 0 || len(kept) == 0 {
		return nil, nil, false
	}
	var conds []dst.Expr
	seen := map[string]bool{}
	for _, m := range moved {
		for _, k := range kept {
			a, b := m.cand, k.foot
			if b.whole && types.ExprString(a.base) == types.ExprString(b.base) {
				return nil, nil, false // a run and a column of one matrix: never apart
			}
			if !b.whole && types.ExprString(a.base) == types.ExprString(b.base) && symKey(a.sym) == symKey(b.sym) {
				if a.d > b.d || a.d == b.d && a.order < b.order {
					continue
				}
				return nil, nil, false
			}
			alo, ahi := w.spanOf(c, a)
			blo, bhi := w.spanOf(c, b)
			if b.whole {
				blo, bhi = &dst.BasicLit{Kind: token.INT, Value: "0"}, copyExpr(lenOf(b.base))
			}
			e := w.rtCall(rtnames.SpansApart, copyExpr(a.base), alo, ahi, copyExpr(b.base), blo, bhi)
			// whole is part of the key: a strided access's test (all of x)
			// and a conditional x[j+d]'s (x[lo+d:hi+d]) differ, and the
			// narrower alone passes a run that meets the column.
			if key := fmt.Sprintf("%s %s %d %s %s %d %v", types.ExprString(a.base), symKey(a.sym), a.d, types.ExprString(b.base), symKey(b.sym), b.d, b.whole); !seen[key] {
				seen[key] = true
				conds = append(conds, e)
			}
		}
	}
	return moved, conds, true
}

// pointMove moves group g whole when it mixes element runs x[j+S+d] with
// invariant elements y[k] of slices (a vector's entry read in every
// iteration, dst[k] += A[j*n+lo+k] * y2[j] over k), which movableGroup
// refuses: each invariant element is checked once before the loop, as an
// invariant group's are, when rt.SpansApart tells that it lies in no run.
// An element apart from every run meets its checks in the loop's order
// whatever runs come before it, and among themselves the invariant
// elements keep body order (movedChecks). It returns the apartness
// conditions, or false when some check is neither.
func (w *walker) pointMove(c *coalescing, g []*loopCheck) ([]dst.Expr, bool) {
	var runs, points []*loopCheck
	for _, k := range g {
		switch {
		case k.cand != nil && k.cand.base != nil:
			runs = append(runs, k)
		case k.cand != nil && w.sliceElem(k.a):
			points = append(points, k)
		default:
			return nil, false
		}
	}
	if len(runs) == 0 || len(points) == 0 {
		return nil, false
	}
	var conds []dst.Expr
	seen := map[string]bool{}
	for _, r := range runs {
		for _, p := range points {
			ix := ast.Unparen(p.a).(*ast.IndexExpr)
			key := fmt.Sprintf("%s %s %d %s", types.ExprString(r.cand.base), symKey(r.cand.sym), r.cand.d, types.ExprString(ix))
			if seen[key] {
				continue
			}
			seen[key] = true
			lo, hi := w.spanOf(c, r.cand)
			at := copyExpr(ix.Index)
			conds = append(conds, w.rtCall(rtnames.SpansApart, copyExpr(r.cand.base), lo, hi, copyExpr(ix.X), at, plusOne(copyExpr(ix.Index))))
		}
	}
	return conds, true
}

// sliceElem reports whether a is an element x[k] of a slice of
// non-aggregate elements.
func (w *walker) sliceElem(a ast.Expr) bool {
	ix, ok := ast.Unparen(a).(*ast.IndexExpr)
	if !ok {
		return false
	}
	_, ok = underlying(w.info.TypeOf(ix.X)).(*types.Slice)
	return ok && !aggregate(w.info.TypeOf(ix))
}

// plusOne is e+1.
func plusOne(e dst.Expr) dst.Expr {
	return &dst.BinaryExpr{X: e, Op: token.ADD, Y: &dst.BasicLit{Kind: token.INT, Value: "1"}}
}
