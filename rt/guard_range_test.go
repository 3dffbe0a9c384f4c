package rt

import (
	"math/rand/v2"
	"testing"
)

// TestGuardRangeCases covers the narrowed spans on lu's shape: a pivot row
// read up to its len while the rows below it are written.
func TestGuardRangeCases(t *testing.T) {
	const n = 6
	A := make([]float64, n*n)
	g := NewGuard
	k := 2
	urow := A[k*n+k+1 : (k+1)*n] // row k right of the diagonal; cap runs to the end of A
	cases := []struct {
		name string
		g    *Guard
		want bool
	}{
		{"whole arrays: urow shares A's array", GuardR(GuardW(g(), A), urow), false},
		{"len only, A whole", GuardRLen(GuardW(g(), A), urow), false},
		{"lu: rows below k written, urow by len", GuardRLen(GuardWRange(g(), A, (k+1)*n, n*n), urow), true},
		{"lu, tighter lower bound", GuardRLen(GuardWRange(g(), A, (k+1)*n+k, n*n), urow), true},
		{"written rows start in row k", GuardRLen(GuardWRange(g(), A, (k+1)*n-1, n*n), urow), false},
		{"urow read up to cap", GuardR(GuardWRange(g(), A, (k+1)*n, n*n), urow), false},
		{"urow taken from row k+1", GuardRLen(GuardWRange(g(), A, (k+1)*n, n*n), A[(k+1)*n+k+1:(k+2)*n]), false},
		{"urow touching the range's end", GuardRLen(GuardWRange(g(), A, 0, k*n+k+1), urow), true},
		{"empty range", GuardRLen(GuardWRange(g(), A, 7, 7), A), true},
		{"empty read", GuardRLen(GuardW(g(), A), A[3:3]), true},
		{"hi past cap: whole array", GuardRLen(GuardWRange(g(), A, (k+1)*n, n*n+1), urow), false},
		{"lo negative: whole array", GuardRLen(GuardWRange(g(), A, -1, 0), urow), false},
		{"lo above hi: whole array", GuardRLen(GuardWRange(g(), A, n*n, (k+1)*n), urow), false},
		{"range within cap beyond len", GuardRLen(GuardWRange(g(), A[:1], (k+1)*n, n*n), urow), true},
		{"two ranges of one array apart", GuardWRange(GuardWRange(g(), A, 0, 5), A, 5, 10), true},
		{"two ranges overlapping", GuardWRange(GuardWRange(g(), A, 0, 6), A, 5, 10), false},
	}
	for _, c := range cases {
		if got := c.g.Disjoint(); got != c.want {
			t.Errorf("%s: Disjoint() = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestGuardRangeDoesNotAllocate(t *testing.T) {
	if raceBuild() {
		t.Skip("sync.Pool drops items at random under -race")
	}
	const n = 100
	A := make([]float64, n*n)
	k := 40
	urow := A[k*n+k+1 : (k+1)*n]
	var ok bool
	run := func() { ok = GuardRLen(GuardWRange(NewGuard(), A, (k+1)*n+k, n*n), urow).Disjoint() }
	if a := testing.AllocsPerRun(1000, run); a != 0 || !ok {
		t.Errorf("%v allocs per run, Disjoint %v", a, ok)
	}
}

// TestGuardRangeProperty compares Disjoint over GuardRLen, GuardWRange,
// GuardR and GuardW of slices of one array with an oracle over elements:
// a guard passes exactly when no element is in a written span and in
// another span, the spans being [0, len) of a GuardRLen, [lo, hi) of a
// GuardWRange within cap (else [0, cap)), and [0, cap) of the others.
func TestGuardRangeProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 11))
	arena := make([]int32, 64)
	for c := range 20000 {
		var ops []func(*Guard) *Guard
		var spans [][3]int // lo, hi (element offsets in arena), written
		for range 1 + rng.IntN(4) {
			lo := rng.IntN(len(arena))
			hi := lo + rng.IntN(len(arena)-lo+1)
			m := hi + rng.IntN(len(arena)-hi+1)
			s := arena[lo:hi:m]
			switch rng.IntN(4) {
			case 0:
				ops = append(ops, func(g *Guard) *Guard { return GuardRLen(g, s) })
				spans = append(spans, [3]int{lo, hi, 0})
			case 1:
				ops = append(ops, func(g *Guard) *Guard { return GuardR(g, s) })
				spans = append(spans, [3]int{lo, m, 0})
			case 2:
				ops = append(ops, func(g *Guard) *Guard { return GuardW(g, s) })
				spans = append(spans, [3]int{lo, m, 1})
			default:
				a, b := rng.IntN(m-lo+3)-1, rng.IntN(m-lo+3)-1
				ops = append(ops, func(g *Guard) *Guard { return GuardWRange(g, s, a, b) })
				if a < 0 || a > b || b > m-lo {
					spans = append(spans, [3]int{lo, m, 1})
				} else {
					spans = append(spans, [3]int{lo + a, lo + b, 1})
				}
			}
		}
		want := true
		for x := range spans {
			for y := range spans {
				p, q := spans[x], spans[y]
				if x != y && p[2] == 1 && max(p[0], q[0]) < min(p[1], q[1]) {
					want = false
				}
			}
		}
		g := NewGuard()
		for _, op := range ops {
			g = op(g)
		}
		if got := g.Disjoint(); got != want {
			t.Fatalf("case %d: Disjoint() = %v, oracle %v; spans %v", c, got, want, spans)
		}
	}
}
