package main

import "testing"

// referenceGemm is PolyBench's kernel_gemm loop nest as written, sequential.
func referenceGemm(ni, nj, nk int, alpha, beta float64, C, A, B [][]float64) {
	for i := 0; i < ni; i++ {
		for j := 0; j < nj; j++ {
			C[i][j] *= beta
		}
		for k := 0; k < nk; k++ {
			for j := 0; j < nj; j++ {
				C[i][j] += alpha * A[i][k] * B[k][j]
			}
		}
	}
}

func TestGemm(t *testing.T) {
	for _, bs := range []int{1, 7, 64} {
		C, A, B := initArrays(37, 41, 29)
		want, _, _ := initArrays(37, 41, 29)
		gemm(37, bs, 1.5, 1.2, C, A, B)
		referenceGemm(37, 41, 29, 1.5, 1.2, want, A, B)
		for i := range want {
			for j := range want[i] {
				if C[i][j] != want[i][j] {
					t.Fatalf("bs=%d: C[%d][%d] = %v, want %v", bs, i, j, C[i][j], want[i][j])
				}
			}
		}
	}
}
