package imaging

// Planted by goanomaly's realmods harness (realmods/testdata/imaging): races
// in the work imaging's internal parallel helper runs, one per test, and a
// clean variant. The helper hands each worker the rows of a channel, so the
// callback decides which memory each row touches.

import (
	"sync/atomic"
	"testing"
)

const realmodsH, realmodsW = 64, 8

func TestRealmodsCounter(t *testing.T) {
	pix := make([]uint8, realmodsH*realmodsW)
	n := 0
	parallel(0, realmodsH, func(ys <-chan int) {
		for y := range ys {
			for x := 0; x < realmodsW; x++ {
				pix[y*realmodsW+x] = uint8(y)
			}
			n++ // RACE: one counter for every row
		}
	})
	_ = n
}

func TestRealmodsRow(t *testing.T) {
	pix := make([]uint8, realmodsH*realmodsW)
	parallel(0, realmodsH, func(ys <-chan int) {
		for y := range ys {
			for x := 0; x < realmodsW; x++ {
				pix[y*realmodsW+x] = uint8(y)
			}
			if y+1 < realmodsH {
				pix[(y+1)*realmodsW] = 0 // RACE: the next row's first pixel
			}
		}
	})
}

func TestRealmodsAppend(t *testing.T) {
	var rows []int
	parallel(0, realmodsH, func(ys <-chan int) {
		for y := range ys {
			rows = append(rows, y) // RACE: one slice for every row
		}
	})
	_ = rows
}

func TestRealmodsMap(t *testing.T) {
	seen := map[int]bool{}
	parallel(0, realmodsH, func(ys <-chan int) {
		for y := range ys {
			seen[y] = true // RACE: one map for every row
		}
	})
	_ = seen
}

func TestRealmodsClean(t *testing.T) {
	pix := make([]uint8, realmodsH*realmodsW)
	sums := make([]int, realmodsH)
	var n int64
	parallel(0, realmodsH, func(ys <-chan int) {
		for y := range ys {
			for x := 0; x < realmodsW; x++ {
				pix[y*realmodsW+x] = uint8(y)
				sums[y] += x
			}
			atomic.AddInt64(&n, 1)
		}
	})
	total := 0
	for _, s := range sums {
		total += s
	}
	if want := realmodsH * realmodsW * (realmodsW - 1) / 2; total != want || n != realmodsH {
		t.Fatalf("total %d, want %d; rows %d", total, want, n)
	}
}
