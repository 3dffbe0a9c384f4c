package analysis

import (
	"go/ast"
	"strings"
)

// This file is the band test for chunks whose bounds are beyond
// polynomials. A goroutine body that works on the chunk [f(i), f(i+step))
// of the construct's index i (lo, hi := w*n/k, (w+1)*n/k; for v := lo;
// v < hi; or dst := q[lo:hi]) has footprints in the chunk's bounds: the
// symbols F0 = f(i) and F1 = f(i+step) (owned.go's chunk, f monotone).
// When an access's footprint lies within
//
//	[F0·P + a, F1·P + b)   with P ≥ 0 and b ≤ a,
//
// P, a and b free of the index, the loop variables and the chunk symbols,
// footprints of different iterations are disjoint: for a non-decreasing f
// and i1 < i2, F1(i1) = f(i1+step) ≤ f(i2) = F0(i2), so the first ends at
// F1(i1)·P + b ≤ F0(i2)·P + a, where the second starts; for a
// non-increasing f, F1 ≤ F0 and every footprint is empty. The footprint
// is stored as a band of the family (foot.fam) with bmax = b + P, so that
// slack = P - (bmax - a) = a - b is the same test. The program's
// arithmetic on f (a product that wraps is not monotone) and on the
// subscripts is bounded by magnitude, as for the index's band.

// chunkLo and chunkHi are the bound symbols F0 and F1 of the chunk family
// fam.
func chunkLo(fam string) poly { return polySym("@c0" + fam) }
func chunkHi(fam string) poly { return polySym("@c1" + fam) }

// chunkFamOf is the chunk family whose lower bound symbol p uses, or "".
func chunkFamOf(p poly) string {
	for _, s := range p.symbols("@c0") {
		return strings.TrimPrefix(s, "@c0")
	}
	return ""
}

// invariantPoly reports whether p is free of the index, loop variables and chunk
// symbols: a polynomial in invariants only.
func invariantPoly(p poly) bool { return len(p.symbols("@")) == 0 }

// chunkFoot is footOf for a lower bound lo in the symbols of the chunk
// family fam; conds are the index range's and the extremes' conditions.
func (h *heapPass) chunkFoot(fam string, lo poly, his []poly, srcs, conds []ast.Expr) (foot, bool) {
	P, a, ok := lo.split("@c0" + fam)
	if !ok || !invariantPoly(P) || !invariantPoly(a) {
		return foot{}, false
	}
	if k, isConst := P.constant(); isConst && k < 0 || !isConst && !h.nonNegativeCoef(P, &conds) {
		return foot{}, false
	}
	for _, e := range srcs {
		if _, ok := h.magnitude(e, &conds, 0); !ok {
			return foot{}, false
		}
	}
	var cands []foot
	for _, hi := range his {
		Q, b, ok := hi.split("@c1" + fam)
		if !ok || Q.key() != P.key() || !invariantPoly(b) {
			continue
		}
		f := foot{P: P, a: a, bmax: b.add(P, 1), conds: conds, fam: fam, width: P}
		cands = append(cands, f)
	}
	return h.bestFoot(cands)
}
