package main

import "testing"

// referenceLu is PolyBench's kernel_lu loop nest as written, sequential.
func referenceLu(n int, A [][]float64) {
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			for k := 0; k < j; k++ {
				A[i][j] -= A[i][k] * A[k][j]
			}
			A[i][j] /= A[j][j]
		}
		for j := i; j < n; j++ {
			for k := 0; k < i; k++ {
				A[i][j] -= A[i][k] * A[k][j]
			}
		}
	}
}

func TestLu(t *testing.T) {
	const n = 31
	want := initArray(n)
	referenceLu(n, want)
	for _, workers := range []int{1, 3, 40} {
		A := initArray(n)
		lu(workers, A)
		for i := range want {
			for j := range want[i] {
				if A[i][j] != want[i][j] {
					t.Fatalf("workers=%d: A[%d][%d] = %v, want %v", workers, i, j, A[i][j], want[i][j])
				}
			}
		}
	}
}
