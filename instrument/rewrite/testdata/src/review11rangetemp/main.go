package main

import (
	"fmt"
	"sync"
)

// Range loops over expressions (a sub-slice, a row, a call, a conversion)
// in shapes a reader of real code writes. Goroutine 1 writes an element
// each loop of goroutine 0 only reads (B[2], rows[0][3], feed()[3], G[6],
// P[2], H[5]) and reads the one accumulate writes (rows[1][2]), so the
// pairs reported do not depend on which goroutine runs first.

type matrix struct{ rows [][]float64 }

func (m *matrix) row(i int) []float64 { return m.rows[i] }

// scale writes the doubled window into dst, which may be the window
// shifted by one (dst = B[lo+1:]).
func scale(dst, B []float64, lo, hi int) {
	for j, v := range B[lo:hi] {
		dst[j] = v * 2
	}
}

// accumulate adds a row into itself through another name of the row.
func accumulate(m *matrix, r int) {
	out := m.rows[r]
	for j, v := range m.rows[r] {
		out[j] += v
	}
}

// skipZeros copies the non-zero values of a window, continuing past zeros.
func skipZeros(dst, B []float64, lo, hi int) int {
	n := 0
	for j, v := range B[lo:hi] {
		if v == 0 {
			continue
		}
		dst[j] = v
	}
	return n
}

// total sums a window of any float slice.
func total[T ~float64](xs []T, lo, hi int) T {
	var s T
	for _, v := range xs[lo:hi] {
		s += v
	}
	return s
}

// nested sums the tails of the rows of a window of rows.
func nested(rows [][]float64, lo, hi int) float64 {
	s := 0.0
	for _, row := range rows[lo:hi] {
		for _, v := range row[1:] {
			s += v
		}
	}
	return s
}

// fromArray ranges over a pointer to an array made from a slice.
func fromArray(P []float64) float64 {
	s := 0.0
	for _, v := range (*[4]float64)(P[:4]) {
		s += v
	}
	return s
}

// labelled stops at the first negative row.
func labelled(H []float64, lo, hi int) int {
	n := 0
scan:
	for j, v := range H[lo:hi] {
		if v < 0 {
			continue scan
		}
		n += j
	}
	return n
}

type float float64

func main() {
	B := make([]float64, 12)
	G := make([]float, 12)
	P := make([]float64, 4)
	H := make([]float64, 8)
	m := &matrix{rows: [][]float64{make([]float64, 4), make([]float64, 4)}}
	feedRow := make([]float64, 6)
	feed := func() []float64 { return feedRow }
	spare := make([]float64, 16)
	seen := make([]float64, 1)
	res := make([]float64, 8)
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() {
			if g == 1 {
				B[2] = 1
				seen[0] = m.rows[1][2]
				m.rows[0][3] = 1
				feedRow[3] = 1
				G[6] = 1
				P[2] = 1
				H[5] = 1
				return
			}
			scale(B[3:], B, 2, 8) // dst overlaps the window: slow path
			scale(spare, B, 2, 8) // apart
			accumulate(m, 1)      // the row is its own destination
			res[0] = float64(skipZeros(spare[6:], B, 0, 8))
			res[1] = float64(total(G, 4, 9))
			res[2] = nested(m.rows, 0, 2)
			for _, v := range feed()[1:5] { // a call's result
				res[3] += v
			}
			res[4] = fromArray(P)
			res[5] = float64(labelled(H, 2, 7))
		})
	}
	wg.Wait()
	fmt.Println(len(res), len(B))
}
