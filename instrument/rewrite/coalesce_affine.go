package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// Symbolic offsets of check coalescing (coalesce.go). An element access
// x[j+S+d] of a loop over j, S a sum of loop-invariant terms (i*N, b*BS,
// lo, -k) and d a constant, is a run of elements like x[j+d]: the loop
// touches x[lo+S+d : hi+S+d]. Flat matrices written the ordinary way,
// C[i*N+j] += A[i*N+k] * B[k*N+j], are such runs, one row per loop.
//
// Bounds. The program computes the subscript in wrapping int arithmetic,
// in its own association; modulo 2⁶⁴ it is S+d+j whatever the order. The
// loop moves its checks only when rt.SpanIn(S+d, lo, hi, len(x)) holds
// for the least and the greatest d of x and S: SpanIn tests, without
// overflow, that off+j lies in [0, len(x)) for every j of the loop, so
// the subscript of every iteration is that exact sum and no iteration
// panics; the offsets in between lie between the two.
//
// Order. Two accesses whose offsets have the same symbolic part meet an
// element in the order of their constant parts, as x[j+d] do (decreasing
// d, rt.SameOrApart for two slices). Two whose symbolic parts differ, in
// x[i*N+j] and y[k*N+j], may meet one element in either order depending
// on the values; their checks move only when rt.SpansApart tells that
// their spans share no element, and then in any order.

// affine reads subscript e as j+S+d: terms added or subtracted (also under
// unary minus), j exactly once and positive, constants summed into d, and
// every other term loop-invariant, free of j and safe to evaluate before
// the loop (its conditions are added). S is nil when there is no such
// term. A term in which j appears otherwise (2*j, j*N, -j) refuses: its
// elements are not a contiguous run.
func (w *walker) affine(c *coalescing, e ast.Expr) (sym ast.Expr, d int, ok bool) {
	coef, sym, d, ok := w.linear(c, e, false)
	return sym, d, ok && coef == nil
}

// linear reads subscript e as affine does, or, with scaled, also as
// coef*j+S+d: one term j*coef or coef*j, coef loop-invariant, free of j
// and safe to evaluate before the loop (coalesce_stride.go). coef is nil
// for j itself.
func (w *walker) linear(c *coalescing, e ast.Expr, scaled bool) (coef, sym ast.Expr, d int, ok bool) {
	nj := 0
	var walk func(e ast.Expr, neg bool) bool
	walk = func(e ast.Expr, neg bool) bool {
		e = ast.Unparen(e)
		if w.isVar(e, c.j) {
			nj++
			return !neg
		}
		if k := w.scale(c, e); scaled && k != nil {
			nj++
			coef = k
			return !neg
		}
		if v := w.constInt(e); w.isConst(e) && isInteger(w.info.TypeOf(e)) && v > -1<<20 && v < 1<<20 {
			if neg {
				v = -v
			}
			d += v
			return true
		}
		switch x := e.(type) {
		case *ast.BinaryExpr:
			if x.Op == token.ADD || x.Op == token.SUB {
				return walk(x.X, neg) && walk(x.Y, neg != (x.Op == token.SUB))
			}
		case *ast.UnaryExpr:
			if x.Op == token.SUB {
				return walk(x.X, !neg)
			}
		}
		if w.mentions(e, c.j) || !isInteger(w.info.TypeOf(e)) || !w.invariant(c, e) || !w.safe(c, e) {
			return false
		}
		switch {
		case sym == nil && neg:
			sym = &ast.UnaryExpr{Op: token.SUB, X: e}
		case sym == nil:
			sym = e
		case neg:
			sym = &ast.BinaryExpr{X: sym, Op: token.SUB, Y: e}
		default:
			sym = &ast.BinaryExpr{X: sym, Op: token.ADD, Y: e}
		}
		return true
	}
	if !walk(e, false) || nj != 1 {
		return nil, nil, 0, false
	}
	return coef, sym, d, true
}

// mentions reports whether e uses variable v.
func (w *walker) mentions(e ast.Expr, v *types.Var) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && w.info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

// symKey is the text of a symbolic offset, "" for none.
func symKey(sym ast.Expr) string {
	if sym == nil {
		return ""
	}
	return types.ExprString(sym)
}

// symClasses numbers the symbolic offsets of the element checks of g in
// the order they first appear.
func symClasses(g []*loopCheck) map[string]int {
	out := map[string]int{}
	for _, k := range g {
		if _, ok := out[symKey(k.cand.sym)]; !ok {
			out[symKey(k.cand.sym)] = len(out)
		}
	}
	return out
}

// spanOf is the span [lo+S+d, hi+S+d) an element candidate touches, as
// arguments of ReadSpan/WriteSpan (constants folded).
func (w *walker) spanOf(c *coalescing, k *cand) (lo, hi dst.Expr) {
	if k.fixed {
		return &dst.BasicLit{Kind: token.INT, Value: "0"}, copyExpr(lenOf(k.base))
	}
	l, h := c.lo, c.hi
	if l == nil {
		l = &ast.BasicLit{Kind: token.INT, Value: "0"}
	}
	if c.hiLen {
		h = lenOf(h)
	}
	return w.symOffset(l, k.sym, k.d), w.symOffset(h, k.sym, k.d)
}

// symOffset is e+S+d, e a loop bound.
func (w *walker) symOffset(e, sym ast.Expr, d int) dst.Expr {
	if sym == nil {
		return w.offsetExpr(e, d)
	}
	if w.isConst(e) {
		d += w.constInt(e)
	} else {
		sym = &ast.BinaryExpr{X: sym, Op: token.ADD, Y: e}
	}
	x := copyExpr(plusConst(sym, d))
	if p, ok := x.(*dst.ParenExpr); ok {
		x = p.X
	}
	return x
}

// spanIn is the SpanIn test of bound b: for its least and greatest offset.
func (w *walker) spanIn(c *coalescing, b *bound) []dst.Expr {
	lo, hi := c.lo, c.hi
	if lo == nil {
		lo = &ast.BasicLit{Kind: token.INT, Value: "0"}
	}
	if c.hiLen {
		hi = lenOf(hi)
	}
	var out []dst.Expr
	for _, d := range []int{b.dmin, b.dmax} {
		if d == b.dmax && len(out) > 0 && b.dmin == b.dmax {
			break
		}
		off := copyExpr(plusConst(b.sym, d))
		if p, ok := off.(*dst.ParenExpr); ok {
			off = p.X
		}
		out = append(out, w.rtCall(rtnames.SpanIn, off, copyExpr(lo), copyExpr(hi), copyExpr(lenOf(b.x))))
	}
	return out
}

// mathFunc reports whether fun names a function of package math: none
// panics or synchronises, so a loop calling them runs every iteration to
// its end as one without calls.
func (w *walker) mathFunc(fun ast.Expr) bool {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	if _, ok := w.info.Uses[pkg].(*types.PkgName); !ok {
		return false
	}
	f, ok := w.info.Uses[sel.Sel].(*types.Func)
	return ok && f.Pkg() != nil && f.Pkg().Path() == "math"
}
