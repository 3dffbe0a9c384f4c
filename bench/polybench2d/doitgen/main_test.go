package main

import "testing"

// referenceDoitgen is PolyBench's kernel_doitgen loop nest as written,
// sequential.
func referenceDoitgen(nr, nq, np int, A [][][]float64, C4 [][]float64, sum []float64) {
	for r := 0; r < nr; r++ {
		for q := 0; q < nq; q++ {
			for p := 0; p < np; p++ {
				sum[p] = 0
				for s := 0; s < np; s++ {
					sum[p] += A[r][q][s] * C4[s][p]
				}
			}
			for p := 0; p < np; p++ {
				A[r][q][p] = sum[p]
			}
		}
	}
}

func TestDoitgen(t *testing.T) {
	const nr, nq, np = 7, 11, 13
	A, C4 := initArrays(nr, nq, np)
	want, _ := initArrays(nr, nq, np)
	doitgen(A, C4)
	referenceDoitgen(nr, nq, np, want, C4, make([]float64, np))
	for r := range want {
		for q := range want[r] {
			for p := range want[r][q] {
				if A[r][q][p] != want[r][q][p] {
					t.Fatalf("A[%d][%d][%d] = %v, want %v", r, q, p, A[r][q][p], want[r][q][p])
				}
			}
		}
	}
}
