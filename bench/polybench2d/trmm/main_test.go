package main

import "testing"

// referenceTrmm is PolyBench's kernel_trmm loop nest as written, sequential.
func referenceTrmm(m, n int, alpha float64, A, B [][]float64) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			for k := i + 1; k < m; k++ {
				B[i][j] += A[k][i] * B[k][j]
			}
			B[i][j] = alpha * B[i][j]
		}
	}
}

func TestTrmm(t *testing.T) {
	const m, n = 37, 43
	for _, workers := range []int{1, 3, 43} {
		A, B := initArrays(m, n)
		_, want := initArrays(m, n)
		trmm(workers, 1.5, A, B)
		referenceTrmm(m, n, 1.5, A, want)
		for i := range want {
			for j := range want[i] {
				if B[i][j] != want[i][j] {
					t.Fatalf("workers=%d: B[%d][%d] = %v, want %v", workers, i, j, B[i][j], want[i][j])
				}
			}
		}
	}
}
