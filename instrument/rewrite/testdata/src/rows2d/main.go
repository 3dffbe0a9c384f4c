// Command rows2d runs [][]float64 kernels the static stage proves by rows
// (instrument/analysis/rows.go) on matrices made in three ways: rows
// allocated one by one, rows cut from one array whose capacities reach
// the next row, and a matrix with one row aliased on purpose. The proofs
// hold only while the rows are apart: the guard finds the aliased row and
// the overlapping capacities, and the checked copy runs; the aliased row
// written by two blocks is a race, reported by both builds.
package main

import (
	"fmt"
	"sync"
)

// fill sets every row of M to its columns' indices, blocks of bs rows per
// goroutine.
func fill(M [][]float64, bs int) {
	n := len(M)
	var wg sync.WaitGroup
	for b := 0; b*bs < n; b++ {
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs, n)
			for i := lo; i < hi; i++ {
				row := M[i]
				for j := range row {
					row[j] = float64(j)
				}
			}
		})
	}
	wg.Wait()
}

// columns adds 1 to the columns [lo, hi) of every row, one block of
// columns per worker: apart whatever the rows.
func columns(M [][]float64, workers int) {
	n := len(M[0])
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			lo, hi := w*n/workers, (w+1)*n/workers
			for _, row := range M {
				for j := range row[lo:hi] {
					row[lo+j]++
				}
			}
		})
	}
	wg.Wait()
}

// plane is a named type of rows: the guards' type parameters infer the
// rows of a []plane, which a [][][]T parameter would not.
type plane [][]float64

// line is a named row type.
type line []float64

// planes sets plane p of P to p, one goroutine per plane.
func planes(P []plane) {
	var wg sync.WaitGroup
	for p := range P {
		wg.Go(func() {
			for _, row := range P[p] {
				for k := range row {
					row[k] = float64(p)
				}
			}
		})
	}
	wg.Wait()
}

// byRow allocates each row on its own.
func byRow(n, m int) [][]float64 {
	M := make([][]float64, n)
	for i := range M {
		M[i] = make([]float64, m)
	}
	return M
}

// shared cuts the rows from one array without a capacity: each row's
// capacity reaches the end of the array.
func shared(n, m int) [][]float64 {
	data := make([]float64, n*m)
	M := make([][]float64, n)
	for i := range M {
		M[i] = data[i*m : (i+1)*m]
	}
	return M
}

// double doubles every element of L, one goroutine per line.
func double(L []line) {
	var wg sync.WaitGroup
	for i := range L {
		wg.Go(func() {
			for k := range L[i] {
				L[i][k] *= 2
			}
		})
	}
	wg.Wait()
}

func sum(M [][]float64) float64 {
	s := 0.0
	for _, row := range M {
		for _, v := range row {
			s += v
		}
	}
	return s
}

func main() {
	a, b, c := byRow(8, 6), shared(8, 6), byRow(8, 6)
	c[5] = c[2] // rows 2 and 5 are one row: blocks 1 and 2 both write it
	for _, M := range [][][]float64{a, b, c} {
		fill(M, 2)
		columns(M, 3)
		fmt.Println(sum(M))
	}
	P := []plane{byRow(3, 4), byRow(2, 4), byRow(3, 4)}
	planes(P)
	fmt.Println(sum(P[0]), sum(P[1]), sum(P[2]))
	L := []line{{1, 2}, {3, 4}, {5, 6}}
	double(L)
	fmt.Println(L)
}
