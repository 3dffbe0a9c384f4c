package analysis

import (
	"math"
	"math/bits"
	"sort"
)

// This file decides whether a system of linear inequalities over the
// integers may have a solution, by Fourier–Motzkin elimination: each
// variable in turn is eliminated by combining every lower bound with every
// upper bound. Over the rationals the answer is exact; the integers are
// approximated by tightening each combined row (dividing by the gcd of
// its coefficients and rounding the constant down), which keeps the test
// sound: "infeasible" is only ever said of systems with no integer
// solution. A system too large (or whose coefficients would overflow) is
// reported feasible, which only costs a proof.

// ineq is Σ coef·var + k ≥ 0.
type ineq struct {
	coef map[string]int64
	k    int64
}

// maxRows bounds the rows elimination may create.
const maxRows = 400

// feasible reports whether the system may have an integer solution.
func feasible(rows []ineq) bool {
	for {
		var live []ineq
		for _, r := range rows {
			r, ok := tighten(r)
			if !ok {
				return true
			}
			if len(r.coef) == 0 {
				if r.k < 0 {
					return false
				}
				continue
			}
			live = append(live, r)
		}
		if len(live) == 0 {
			return true
		}
		x := pickVar(live)
		var lower, upper, rest []ineq
		for _, r := range live {
			switch c := r.coef[x]; {
			case c > 0:
				lower = append(lower, r)
			case c < 0:
				upper = append(upper, r)
			default:
				rest = append(rest, r)
			}
		}
		if len(rest)+len(lower)*len(upper) > maxRows {
			return true
		}
		for _, lo := range lower {
			for _, up := range upper {
				r, ok := combine(lo, up, x)
				if !ok {
					return true
				}
				rest = append(rest, r)
			}
		}
		rows = rest
	}
}

// pickVar chooses the variable whose elimination makes the fewest rows,
// by name among equals, so that the result does not depend on map order.
func pickVar(rows []ineq) string {
	count := map[string][2]int{}
	for _, r := range rows {
		for v, c := range r.coef {
			n := count[v]
			if c > 0 {
				n[0]++
			} else {
				n[1]++
			}
			count[v] = n
		}
	}
	names := make([]string, 0, len(count))
	for v := range count {
		names = append(names, v)
	}
	sort.Strings(names)
	best, cost := "", math.MaxInt
	for _, v := range names {
		n := count[v]
		if c := n[0]*n[1] - n[0] - n[1]; c < cost {
			best, cost = v, c
		}
	}
	return best
}

// combine adds lo (coefficient a > 0 of x) times -b and up (coefficient
// b < 0) times a: x cancels.
func combine(lo, up ineq, x string) (ineq, bool) {
	a, b := lo.coef[x], -up.coef[x]
	out := ineq{coef: map[string]int64{}}
	var ok1, ok2 bool
	out.k, ok1 = mulAdd(lo.k, b, up.k, a)
	if !ok1 {
		return ineq{}, false
	}
	for v, c := range lo.coef {
		if v != x {
			out.coef[v], ok2 = mulAdd(c, b, up.coef[v], a)
			if !ok2 {
				return ineq{}, false
			}
		}
	}
	for v, c := range up.coef {
		if _, seen := lo.coef[v]; !seen && v != x {
			if out.coef[v], ok2 = mulAdd(0, b, c, a); !ok2 {
				return ineq{}, false
			}
		}
	}
	for v, c := range out.coef {
		if c == 0 {
			delete(out.coef, v)
		}
	}
	return out, true
}

// mulAdd is x·a + y·b, or false when it overflows.
func mulAdd(x, a, y, b int64) (int64, bool) {
	p, ok1 := mul64(x, a)
	q, ok2 := mul64(y, b)
	if !ok1 || !ok2 {
		return 0, false
	}
	s := p + q
	if (p > 0 && q > 0 && s < 0) || (p < 0 && q < 0 && s >= 0) {
		return 0, false
	}
	return s, true
}

func mul64(x, y int64) (int64, bool) {
	if x == 0 || y == 0 {
		return 0, true
	}
	if x == math.MinInt64 || y == math.MinInt64 {
		return 0, false
	}
	ax, ay := x, y
	if ax < 0 {
		ax = -ax
	}
	if ay < 0 {
		ay = -ay
	}
	hi, lo := bits.Mul64(uint64(ax), uint64(ay))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	if (x < 0) != (y < 0) {
		return -int64(lo), true
	}
	return int64(lo), true
}

// tighten divides r by the gcd g of its coefficients, rounding the
// constant down: Σ c·x ≥ -k over the integers means Σ (c/g)·x ≥
// ⌈-k/g⌉.
func tighten(r ineq) (ineq, bool) {
	var g int64
	for _, c := range r.coef {
		if c == math.MinInt64 {
			return ineq{}, false
		}
		g = gcd64(g, c)
	}
	if g <= 1 {
		return r, true
	}
	out := ineq{coef: make(map[string]int64, len(r.coef)), k: floorDiv(r.k, g)}
	for v, c := range r.coef {
		out.coef[v] = c / g
	}
	return out, true
}

func gcd64(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// floorDiv is ⌊a/b⌋ for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
