package quad_test

// Planted by goanomaly's realmods harness (realmods/testdata/gonum): races
// in the integrand that quad.Fixed evaluates on concurrent workers (a
// producer goroutine feeds them the points), one per test, and a clean
// variant. There is no row: the integrand sees only x.

import (
	"math"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
)

const realmodsN, realmodsWorkers = 64, 4

func TestRealmodsCounter(t *testing.T) {
	calls := 0
	quad.Fixed(func(x float64) float64 {
		calls++ // RACE: one counter for every point
		return x
	}, 0, 1, realmodsN, quad.Legendre{}, realmodsWorkers)
	_ = calls
}

func TestRealmodsAppend(t *testing.T) {
	var xs []float64
	quad.Fixed(func(x float64) float64 {
		xs = append(xs, x) // RACE: one slice for every point
		return x
	}, 0, 1, realmodsN, quad.Legendre{}, realmodsWorkers)
	_ = xs
}

func TestRealmodsMap(t *testing.T) {
	seen := map[float64]bool{}
	quad.Fixed(func(x float64) float64 {
		seen[x] = true // RACE: one map for every point
		return x
	}, 0, 1, realmodsN, quad.Legendre{}, realmodsWorkers)
	_ = seen
}

func TestRealmodsClean(t *testing.T) {
	var calls int64
	got := quad.Fixed(func(x float64) float64 {
		atomic.AddInt64(&calls, 1)
		return math.Cos(x)
	}, 0, 1, realmodsN, quad.Legendre{}, realmodsWorkers)
	if math.Abs(got-math.Sin(1)) > 1e-9 || calls != realmodsN {
		t.Fatalf("integral %v, want %v; %d calls", got, math.Sin(1), calls)
	}
}
