package iter_test

// Planted by goanomaly's realmods harness (realmods/testdata/conc): races in
// the callbacks of conc's iter.ForEach and iter.ForEachIdx, one per test,
// and a clean variant.

import (
	"sync/atomic"
	"testing"

	"github.com/sourcegraph/conc/iter"
)

const realmodsN = 32

func TestRealmodsIterCounter(t *testing.T) {
	xs := make([]int, realmodsN)
	n := 0
	iter.ForEach(xs, func(x *int) {
		*x = 1
		n++ // RACE: one counter for every item
	})
	_ = n
}

func TestRealmodsIterRow(t *testing.T) {
	rows := make([][]int, realmodsN)
	for i := range rows {
		rows[i] = make([]int, 4)
	}
	iter.ForEachIdx(rows, func(i int, row *[]int) {
		for j := range *row {
			(*row)[j] = i
		}
		rows[(i+1)%realmodsN][0] = -i // RACE: the next row's first cell
	})
}

func TestRealmodsIterAppend(t *testing.T) {
	xs := make([]int, realmodsN)
	var out []int
	iter.ForEach(xs, func(x *int) {
		out = append(out, *x) // RACE: one slice for every item
	})
	_ = out
}

func TestRealmodsIterMap(t *testing.T) {
	xs := make([]int, realmodsN)
	for i := range xs {
		xs[i] = i
	}
	seen := map[int]bool{}
	iter.ForEach(xs, func(x *int) {
		seen[*x] = true // RACE: one map for every item
	})
	_ = seen
}

func TestRealmodsIterClean(t *testing.T) {
	rows := make([][]int, realmodsN)
	for i := range rows {
		rows[i] = make([]int, 4)
	}
	var n int64
	iter.ForEachIdx(rows, func(i int, row *[]int) {
		for j := range *row {
			(*row)[j] = i
		}
		atomic.AddInt64(&n, 1)
	})
	for i, row := range rows {
		if row[3] != i {
			t.Fatalf("row %d: %v", i, row)
		}
	}
	if n != realmodsN {
		t.Fatalf("%d calls, want %d", n, realmodsN)
	}
}
