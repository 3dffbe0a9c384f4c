package parallel_test

// Planted by goanomaly's realmods harness (realmods/testdata/lo): races in
// the callbacks of lo's parallel.Map and parallel.ForEach, one per test,
// and a clean variant.

import (
	"sync/atomic"
	"testing"

	"github.com/samber/lo/parallel"
)

const realmodsN = 32

func realmodsItems() []int {
	xs := make([]int, realmodsN)
	for i := range xs {
		xs[i] = i
	}
	return xs
}

func TestRealmodsCounter(t *testing.T) {
	n := 0
	parallel.Map(realmodsItems(), func(x int, i int) int {
		n++ // RACE: one counter for every item
		return x * 2
	})
	_ = n
}

func TestRealmodsRow(t *testing.T) {
	rows := make([][]int, realmodsN)
	for i := range rows {
		rows[i] = make([]int, 4)
	}
	parallel.ForEach(realmodsItems(), func(x int, i int) {
		row := rows[i]
		for j := range row {
			row[j] = x
		}
		rows[(i+1)%realmodsN][0] = -x // RACE: the next row's first cell
	})
}

func TestRealmodsAppend(t *testing.T) {
	var out []int
	parallel.Map(realmodsItems(), func(x int, i int) int {
		out = append(out, x) // RACE: one slice for every item
		return x
	})
	_ = out
}

func TestRealmodsMap(t *testing.T) {
	seen := map[int]int{}
	parallel.Map(realmodsItems(), func(x int, i int) int {
		seen[i] = x // RACE: one map for every item
		return x
	})
	_ = seen
}

func TestRealmodsClean(t *testing.T) {
	rows := make([][]int, realmodsN)
	for i := range rows {
		rows[i] = make([]int, 4)
	}
	var n int64
	got := parallel.Map(realmodsItems(), func(x int, i int) int {
		row := rows[i]
		for j := range row {
			row[j] = x
		}
		atomic.AddInt64(&n, 1)
		return x * 2
	})
	for i, v := range got {
		if v != 2*i || rows[i][3] != i {
			t.Fatalf("item %d: %d, row %v", i, v, rows[i])
		}
	}
	if n != realmodsN {
		t.Fatalf("%d calls, want %d", n, realmodsN)
	}
}
