package rt

import (
	"math"
	"math/big"
	"testing"
)

// Magnitudes near the edges of int that the tests also run on 32-bit
// platforms: 1<<40 and 1<<31 where int has 64 bits.
const (
	big40 = math.MaxInt>>23 + 1
	big41 = math.MaxInt>>22 + 1
	big31 = math.MaxInt>>32 + 1
)

// TestSpanIn compares SpanIn with exact arithmetic at the edges of int.
func TestSpanIn(t *testing.T) {
	vals := []int{math.MinInt, math.MinInt + 1, -big40, -5, -1, 0, 1, 3, 5, 8, big40, math.MaxInt - 1, math.MaxInt}
	for _, off := range vals {
		for _, lo := range vals {
			for _, hi := range vals {
				for _, n := range []int{0, 1, 5, 8, math.MaxInt} {
					want := true
					if lo < hi {
						first := new(big.Int).Add(big.NewInt(int64(off)), big.NewInt(int64(lo)))
						end := new(big.Int).Add(big.NewInt(int64(off)), big.NewInt(int64(hi)))
						want = first.Sign() >= 0 && end.Cmp(big.NewInt(int64(n))) <= 0
					}
					if got := SpanIn(off, lo, hi, n); got != want {
						t.Errorf("SpanIn(%d, %d, %d, %d) = %v, want %v", off, lo, hi, n, got, want)
					}
				}
			}
		}
	}
}

func TestSpansApart(t *testing.T) {
	x := make([]float64, 20)
	y := make([]float64, 20)
	for _, c := range []struct {
		alo, ahi, blo, bhi int
		same, want         bool
	}{
		{0, 5, 5, 10, true, true},
		{0, 6, 5, 10, true, false},
		{5, 10, 0, 5, true, true},
		{3, 3, 0, 20, true, true},
		{0, 20, 0, 20, false, true},
	} {
		b := x
		if !c.same {
			b = y
		}
		if got := SpansApart(x, c.alo, c.ahi, b, c.blo, c.bhi); got != c.want {
			t.Errorf("SpansApart(x[%d:%d], %d:%d, same %v) = %v", c.alo, c.ahi, c.blo, c.bhi, c.same, got)
		}
	}
	if SpansApart(x, 0, 2, x[1:], 0, 1) {
		t.Error("x[0:2] and x[1:2] are not apart")
	}
	if n := testing.AllocsPerRun(10, func() { _ = SpansApart(x, 0, 5, y, 0, 5) && SpanIn(1, 0, 5, 20) }); n != 0 {
		t.Errorf("allocates %v", n)
	}
}

// TestStrideIn compares StrideIn with exact arithmetic over every j of
// small loops and at the ends of large ones, at the edges of int.
func TestStrideIn(t *testing.T) {
	vals := []int{math.MinInt, math.MinInt + 1, -big40, -big31, -7, -1, 0, 1, 2, 7, big31, big40, math.MaxInt/2 + 1, math.MaxInt - 1, math.MaxInt}
	exact := func(off, coef, j int) *big.Int {
		p := new(big.Int).Mul(big.NewInt(int64(coef)), big.NewInt(int64(j)))
		return p.Add(p, big.NewInt(int64(off)))
	}
	for _, off := range vals {
		for _, coef := range vals {
			for _, lo := range vals {
				for _, span := range []int{0, 1, 2, 5} {
					hi := lo + span
					if hi < lo {
						continue // lo+span overflowed
					}
					for _, n := range []int{0, 1, 8, big41, math.MaxInt} {
						want, prodFits := true, true
						for j := lo; j < hi; j++ {
							if v := exact(off, coef, j); v.Sign() < 0 || v.Cmp(big.NewInt(int64(n))) >= 0 {
								want = false
							}
							if p := exact(0, coef, j); p.Cmp(big.NewInt(math.MinInt)) < 0 || p.Cmp(big.NewInt(math.MaxInt)) > 0 {
								prodFits = false
							}
						}
						got := StrideIn(off, coef, lo, hi, n)
						if got && !want || !got && want && prodFits {
							t.Errorf("StrideIn(%d, %d, %d, %d, %d) = %v, want %v", off, coef, lo, hi, n, got, want)
						}
					}
				}
			}
		}
	}
	if n := testing.AllocsPerRun(10, func() { _ = StrideIn(3, 100, 0, 50, 5000) }); n != 0 {
		t.Errorf("allocates %v", n)
	}
}
