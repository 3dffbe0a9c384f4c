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
	mesh := make([][3]int, 300)
	for k := range mesh {
		mesh[k] = [3]int{perm[3*k], perm[3*k+1], perm[3*k+2]}
	}
	sel := rand.New(rand.NewPCG(7, 8)).Perm(300)
	ok := false
	run := func() { ok = GuardInjectiveCellsOf(GuardInjectiveCells(NewGuard(), mesh, 0), mesh, sel, 0).Disjoint() }
	run()
	if n := testing.AllocsPerRun(100, run); n != 0 || !ok {
		t.Errorf("the cells guards: %v allocs per run, Disjoint %v", n, ok)
	}
}

// cellsOracle lists the cells of the rows sel lists (every row when sel is
// nil), the slow way.
func cellsOracle(rows [][3]int32, sel []int) []int32 {
	var out []int32
	if sel == nil {
		for _, r := range rows {
			out = append(out, r[:]...)
		}
		return out
	}
	for _, k := range sel {
		out = append(out, rows[k][:]...)
	}
	return out
}

// TestGuardInjectiveCellsProperty compares the cells guards with the
// oracle on random meshes: rows of three nodes, and random selections of
// rows, some of which repeat a node or a row.
func TestGuardInjectiveCellsProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		rows := make([][3]int32, r.IntN(12))
		nodes := 1 + r.IntN(60)
		for k := range rows {
			for c := range 3 {
				rows[k][c] = int32(r.IntN(nodes)) - int32(nodes/2)
			}
		}
		if got, want := GuardInjectiveCells(NewGuard(), rows, int32(0)).Disjoint(), !repeatsOracle(cellsOracle(rows, nil)); got != want {
			t.Fatalf("GuardInjectiveCells(%v) = %v, want %v", rows, got, want)
		}
		if len(rows) == 0 {
			continue
		}
		sel := make([]int, r.IntN(5))
		for k := range sel {
			sel[k] = r.IntN(len(rows))
		}
		if got, want := GuardInjectiveCellsOf(NewGuard(), rows, sel, int32(0)).Disjoint(), !repeatsOracle(cellsOracle(rows, sel)); got != want {
			t.Fatalf("GuardInjectiveCellsOf(%v, %v) = %v, want %v", rows, sel, got, want)
		}
	}
}

func TestGuardInjectiveCellsOutOfRange(t *testing.T) {
	rows := [][2]uint8{{1, 2}, {3, 4}}
	for _, sel := range [][]int{{0, 2}, {-1}, {1, 0}} {
		want := sel[0] >= 0 && sel[len(sel)-1] < 2
		if got := GuardInjectiveCellsOf(NewGuard(), rows, sel, uint8(0)).Disjoint(); got != want {
			t.Errorf("GuardInjectiveCellsOf(rows, %v) = %v, want %v", sel, got, want)
		}
	}
}
