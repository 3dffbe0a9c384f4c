package rt

import (
	"math"
	"math/rand/v2"
	"testing"
)

// repeatsOracle is the obvious test: any two positions with equal values.
func repeatsOracle[T comparable](idx []T) bool {
	for i := range idx {
		for j := range i {
			if idx[i] == idx[j] {
				return true
			}
		}
	}
	return false
}

func TestGuardInjectiveCases(t *testing.T) {
	cases := []struct {
		name string
		ok   bool
		g    func() *Guard
	}{
		{"empty", true, func() *Guard { return GuardInjective(NewGuard(), []int{}) }},
		{"one", true, func() *Guard { return GuardInjective(NewGuard(), []int{7}) }},
		{"permutation", true, func() *Guard { return GuardInjective(NewGuard(), []int{3, 0, 2, 1}) }},
		{"repeat", false, func() *Guard { return GuardInjective(NewGuard(), []int{3, 0, 2, 0}) }},
		{"sparse distinct", true, func() *Guard { return GuardInjective(NewGuard(), []int{math.MinInt, 0, math.MaxInt}) }},
		{"sparse repeat", false, func() *Guard { return GuardInjective(NewGuard(), []int{math.MaxInt, 0, math.MaxInt}) }},
		{"uint64 extremes", true, func() *Guard { return GuardInjective(NewGuard(), []uint64{0, math.MaxUint64, 1 << 63}) }},
		{"uint64 repeat", false, func() *Guard { return GuardInjective(NewGuard(), []uint64{math.MaxUint64, 5, math.MaxUint64}) }},
		{"int8", true, func() *Guard { return GuardInjective(NewGuard(), []int8{-128, 127, 0}) }},
		{"repeat, then apart", false, func() *Guard {
			return GuardW(GuardInjective(NewGuard(), []int{1, 1}), make([]float64, 3))
		}},
		{"two index slices", false, func() *Guard {
			return GuardInjective(GuardInjective(NewGuard(), []int{1, 2}), []int32{4, 4})
		}},
	}
	for _, c := range cases {
		if got := c.g().Disjoint(); got != c.ok {
			t.Errorf("%s: Disjoint() = %v, want %v", c.name, got, c.ok)
		}
	}
	// A failed guard leaves nothing behind in the pool.
	if !GuardInjective(NewGuard(), []int{1, 2, 3}).Disjoint() {
		t.Error("a guard after a repeat still fails")
	}
}

// TestGuardInjectiveProperty compares the guard with the oracle on random
// index slices, dense and sparse, with and without repeats.
func TestGuardInjectiveProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		n := r.IntN(40)
		idx := make([]int64, n)
		spread := []int64{4, 64, 1 << 20, math.MaxInt64}[r.IntN(4)]
		for k := range idx {
			idx[k] = r.Int64N(spread) - spread/2
		}
		if n > 1 && r.IntN(3) == 0 {
			idx[r.IntN(n)] = idx[r.IntN(n)]
		}
		if got, want := GuardInjective(NewGuard(), idx).Disjoint(), !repeatsOracle(idx); got != want {
			t.Fatalf("GuardInjective(%v).Disjoint() = %v, want %v", idx, got, want)
		}
	}
}

func TestGuardInjectiveDoesNotAllocate(t *testing.T) {
	if raceBuild() {
		t.Skip("sync.Pool drops items at random under -race")
	}
	perm := rand.New(rand.NewPCG(3, 4)).Perm(1000)
	sparse := make([]int, 1000)
	for k := range sparse {
		sparse[k] = k * 1_000_003
	}
	for _, idx := range [][]int{perm, sparse} {
		GuardInjective(NewGuard(), idx).Disjoint() // warm the pool's scratch
		if n := testing.AllocsPerRun(100, func() { GuardInjective(NewGuard(), idx).Disjoint() }); n != 0 {
			t.Errorf("GuardInjective allocates %v times per run", n)
		}
	}
}
