package conc_test

// Planted by goanomaly's realmods harness (realmods/testdata/conc): races in
// the functions given to conc's WaitGroup.Go, one per test, and a clean
// variant. The module is go 1.19, so loop variables are copied per call.

import (
	"testing"

	"github.com/sourcegraph/conc"
)

const realmodsN = 32

func TestRealmodsWaitGroupCounter(t *testing.T) {
	var wg conc.WaitGroup
	n := 0
	for i := 0; i < realmodsN; i++ {
		wg.Go(func() {
			n++ // RACE: one counter for every goroutine
		})
	}
	wg.Wait()
	_ = n
}

func TestRealmodsWaitGroupRow(t *testing.T) {
	rows := make([][]int, realmodsN)
	for i := range rows {
		rows[i] = make([]int, 4)
	}
	var wg conc.WaitGroup
	for i := 0; i < realmodsN; i++ {
		i := i
		wg.Go(func() {
			row := rows[i]
			for j := range row {
				row[j] = i
			}
			rows[(i+1)%realmodsN][0] = -i // RACE: the next row's first cell
		})
	}
	wg.Wait()
}

func TestRealmodsWaitGroupMap(t *testing.T) {
	var wg conc.WaitGroup
	seen := map[int]bool{}
	for i := 0; i < realmodsN; i++ {
		i := i
		wg.Go(func() {
			seen[i] = true // RACE: one map for every goroutine
		})
	}
	wg.Wait()
	_ = seen
}

func TestRealmodsWaitGroupClean(t *testing.T) {
	rows := make([][]int, realmodsN)
	for i := range rows {
		rows[i] = make([]int, 4)
	}
	var wg conc.WaitGroup
	for i := 0; i < realmodsN; i++ {
		i := i
		wg.Go(func() {
			row := rows[i]
			for j := range row {
				row[j] = i
			}
		})
	}
	wg.Wait()
	for i, row := range rows {
		if row[3] != i {
			t.Fatalf("row %d: %v", i, row)
		}
	}
}
