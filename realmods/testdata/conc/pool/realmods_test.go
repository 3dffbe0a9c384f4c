package pool_test

// Planted by goanomaly's realmods harness (realmods/testdata/conc): races in
// the tasks given to conc's pool.New().Go, one per test, and a clean
// variant. The module is go 1.19, so loop variables are copied per task.

import (
	"testing"

	"github.com/sourcegraph/conc/pool"
)

const realmodsN = 32

func TestRealmodsPoolCounter(t *testing.T) {
	p := pool.New().WithMaxGoroutines(4)
	n := 0
	for i := 0; i < realmodsN; i++ {
		p.Go(func() {
			n++ // RACE: one counter for every task
		})
	}
	p.Wait()
	_ = n
}

func TestRealmodsPoolAppend(t *testing.T) {
	p := pool.New()
	var out []int
	for i := 0; i < realmodsN; i++ {
		i := i
		p.Go(func() {
			out = append(out, i) // RACE: one slice for every task
		})
	}
	p.Wait()
	_ = out
}

func TestRealmodsPoolMap(t *testing.T) {
	p := pool.New().WithMaxGoroutines(4)
	seen := map[int]bool{}
	for i := 0; i < realmodsN; i++ {
		i := i
		p.Go(func() {
			seen[i] = true // RACE: one map for every task
		})
	}
	p.Wait()
	_ = seen
}

func TestRealmodsPoolClean(t *testing.T) {
	p := pool.New().WithMaxGoroutines(4)
	out := make([]int, realmodsN)
	for i := 0; i < realmodsN; i++ {
		i := i
		p.Go(func() {
			out[i] = i * i
		})
	}
	p.Wait()
	for i, v := range out {
		if v != i*i {
			t.Fatalf("out[%d] = %d", i, v)
		}
	}
}
