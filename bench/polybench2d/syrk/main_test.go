package main

import "testing"

// referenceSyrk is PolyBench's kernel_syrk loop nest as written, sequential.
func referenceSyrk(n, m int, alpha, beta float64, C, A [][]float64) {
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			C[i][j] *= beta
		}
		for k := 0; k < m; k++ {
			for j := 0; j <= i; j++ {
				C[i][j] += alpha * A[i][k] * A[j][k]
			}
		}
	}
}

func TestSyrk(t *testing.T) {
	const n, m = 41, 29
	for _, workers := range []int{1, 3, 50} {
		C, A := initArrays(n, m)
		want, _ := initArrays(n, m)
		syrk(workers, 1.5, 1.2, C, A)
		referenceSyrk(n, m, 1.5, 1.2, want, A)
		for i := range want {
			for j := range want[i] {
				if C[i][j] != want[i][j] {
					t.Fatalf("workers=%d: C[%d][%d] = %v, want %v", workers, i, j, C[i][j], want[i][j])
				}
			}
		}
	}
}
