package main

import "testing"

// referenceDoitgen is PolyBench's kernel_doitgen loop nest as written,
// sequential.
func referenceDoitgen(nr, nq, np int, A, C4, sum []float64) {
	for r := 0; r < nr; r++ {
		for q := 0; q < nq; q++ {
			for p := 0; p < np; p++ {
				sum[p] = 0
				for s := 0; s < np; s++ {
					sum[p] += A[(r*nq+q)*np+s] * C4[s*np+p]
				}
			}
			for p := 0; p < np; p++ {
				A[(r*nq+q)*np+p] = sum[p]
			}
		}
	}
}

func TestDoitgen(t *testing.T) {
	const nr, nq, np = 7, 11, 13
	A, C4 := initArrays(nr, nq, np)
	want, _ := initArrays(nr, nq, np)
	doitgen(nr, nq, np, A, C4)
	referenceDoitgen(nr, nq, np, want, C4, make([]float64, np))
	for i := range want {
		if A[i] != want[i] {
			t.Fatalf("A[%d] = %v, want %v", i, A[i], want[i])
		}
	}
}
