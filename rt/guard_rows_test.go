package rt

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// carvePlanesOp returns a random GuardPlanesW or GuardPlanesR call on up to
// four planes of up to four rows of T each, carved from the arena; the
// oracle sees every row of every plane.
func carvePlanesOp[T any](gg *guardGen, elem string, write bool) guardOp {
	o := guardOp{write: write, rows: true, elem: "planes of " + elem}
	m := make([][][]T, gg.r.IntN(4))
	for p := range m {
		m[p] = make([][]T, gg.r.IntN(4))
		for k := range m[p] {
			var sp [2]int
			m[p][k], sp = carve[T](gg)
			o.spans = append(o.spans, sp)
		}
	}
	if write {
		o.apply = func(g *Guard) *Guard { return GuardPlanesW(g, m) }
	} else {
		o.apply = func(g *Guard) *Guard { return GuardPlanesR(g, m) }
	}
	return o
}

// carveRangeOp returns a random GuardRowsWRange call on up to six rows of
// T, with bounds in [-1, len+1]: the oracle sees the rows m[lo:hi] when
// 0 ≤ lo ≤ hi ≤ len(m), every row otherwise.
func carveRangeOp[T any](gg *guardGen, elem string) guardOp {
	m := make([][]T, gg.r.IntN(7))
	spans := make([][2]int, len(m))
	for k := range m {
		m[k], spans[k] = carve[T](gg)
	}
	lo, hi := gg.r.IntN(len(m)+3)-1, gg.r.IntN(len(m)+3)-1
	o := guardOp{write: true, rows: true, elem: fmt.Sprintf("rows [%d:%d] of %d %s", lo, hi, len(m), elem), spans: spans}
	if 0 <= lo && lo <= hi && hi <= len(m) {
		o.spans = spans[lo:hi]
	}
	o.apply = func(g *Guard) *Guard { return GuardRowsWRange(g, m, lo, hi) }
	return o
}

// TestGuardRowsProperty compares Disjoint with the O(n²) oracle on 20,000
// random guards mixing slices and rows (guard_test.go's kinds) with the
// planes of [][][]T and row ranges of [][]T: spans in a few ascending runs
// (merged) and in many (sorted).
func TestGuardRowsProperty(t *testing.T) {
	const cases = 20000
	gg := &guardGen{r: rand.New(rand.NewPCG(5, 6)), arena: make([]uint64, 32)}
	r := gg.r
	kinds := []func(write bool) guardOp{
		func(w bool) guardOp { return carveOp[uint64](gg, "uint64", w, r.IntN(2) == 0) },
		func(w bool) guardOp { return carveOp[[3]byte](gg, "[3]byte", w, r.IntN(2) == 0) },
		func(w bool) guardOp { return carvePlanesOp[uint64](gg, "uint64", w) },
		func(w bool) guardOp { return carvePlanesOp[uint32](gg, "uint32", w) },
		func(bool) guardOp { return carveRangeOp[uint64](gg, "uint64") },
		func(bool) guardOp { return carveRangeOp[[2]uint64](gg, "[2]uint64") },
	}
	disjoint, planes, ranges, merged := 0, 0, 0, 0
	for i := range cases {
		gg.bounds = gg.bounds[:0]
		ops := make([]guardOp, 1+r.IntN(5))
		for k := range ops {
			kind := r.IntN(len(kinds))
			ops[k] = kinds[kind](r.IntN(2) == 0)
			planes += btoi(kind == 2 || kind == 3)
			ranges += btoi(kind >= 4)
		}
		g := NewGuard()
		for _, o := range ops {
			g = o.apply(g)
		}
		merged += btoi(len(g.runs) < maxMergedRuns)
		got := g.Disjoint()
		want, _ := guardOracle(ops)
		if got != want {
			var b strings.Builder
			for _, o := range ops {
				fmt.Fprintf(&b, "\n\t%v", o)
			}
			t.Fatalf("case %d: Disjoint() = %v, oracle %v; calls (byte spans in the arena):%s", i, got, want, b.String())
		}
		disjoint += btoi(got)
	}
	t.Logf("%d cases: %d disjoint, %d not; %d plane groups, %d row ranges; %d merged, %d sorted", cases, disjoint, cases-disjoint, planes, ranges, merged, cases-merged)
	if disjoint < cases/5 || cases-disjoint < cases/5 || merged < cases/10 || cases-merged < cases/10 {
		t.Errorf("unbalanced cases: %d of %d disjoint, %d merged", disjoint, cases, merged)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestGuardRowsCases are the guards the analysis emits for the
// [][]float64 kernels: lu's rows below the pivot against the pivot row,
// heat-3d's planes, and rows that share an array.
func TestGuardRowsCases(t *testing.T) {
	data := make([]float64, 16)
	A := [][]float64{data[0:4:4], data[4:8:8], data[8:12:12], data[12:16:16]}
	urow := A[1][2:] // the pivot row, row 1
	if !GuardRLen(GuardRowsWRange(NewGuard(), A, 2, 4), urow).Disjoint() {
		t.Error("rows 2 and 3 written, row 1 read: not Disjoint")
	}
	if GuardRLen(GuardRowsWRange(NewGuard(), A, 1, 4), urow).Disjoint() {
		t.Error("rows 1 to 3 written, row 1 read: Disjoint")
	}
	if GuardRLen(GuardRowsWRange(NewGuard(), A, 2, 5), urow).Disjoint() {
		t.Error("a range past len(A) must add every row, the pivot's too: Disjoint")
	}
	wide := [][]float64{data[0:4], data[4:8]} // cap reaches the next row
	if GuardRowsW(NewGuard(), wide).Disjoint() {
		t.Error("rows whose capacity reaches the next row: Disjoint")
	}
	P := [][][]float64{{data[0:2:2], data[2:4:4]}, {data[4:6:6], data[6:8:8]}}
	if !GuardPlanesR(GuardPlanesW(NewGuard(), P), [][][]float64{{data[8:16]}}).Disjoint() {
		t.Error("two planes of two rows each, apart from a third: not Disjoint")
	}
	P[1][1] = P[0][0] // a row in two planes
	if GuardPlanesW(NewGuard(), P).Disjoint() {
		t.Error("one row in two planes: Disjoint")
	}
}

// TestGuardRowsNamedTypes: matrices of named row types ([]line, []plane)
// are what user code declares; the guards' type parameters infer them
// (with [][]T parameters, the rewritten program did not compile).
func TestGuardRowsNamedTypes(t *testing.T) {
	type line []float64
	type plane []line
	data := make([]float64, 8)
	L := []line{data[0:4:4], data[4:8:8]}
	P := []plane{{L[0]}, {L[1]}}
	if !GuardRowsR(GuardRowsW(NewGuard(), L[:1]), L[1:]).Disjoint() {
		t.Error("two lines apart: not Disjoint")
	}
	if GuardRowsWRange(GuardPlanesR(NewGuard(), P), L, 0, 1).Disjoint() {
		t.Error("line 0 written and read through a plane: Disjoint")
	}
	if !GuardPlanesW(NewGuard(), P).Disjoint() {
		t.Error("two planes of one line each: not Disjoint")
	}
}

// BenchmarkGuardPlanes measures heat-3d's guard at its default size: two
// grids of 100 planes of 100 rows, each cut from one array, one written
// and one read.
func BenchmarkGuardPlanes(b *testing.B) {
	grid := func() [][][]float64 {
		data := make([]float64, 100*100*100)
		P := make([][][]float64, 100)
		for p := range P {
			P[p] = make([][]float64, 100)
			for q := range P[p] {
				o := (p*100 + q) * 100
				P[p][q] = data[o : o+100 : o+100]
			}
		}
		return P
	}
	dst, src := grid(), grid()
	b.ReportAllocs()
	for b.Loop() {
		sinkBool = GuardPlanesR(GuardPlanesW(NewGuard(), dst), src).Disjoint()
	}
	if !sinkBool {
		b.Fatal("two grids apart: not Disjoint")
	}
}
