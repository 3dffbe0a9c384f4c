package main

import "testing"

// reference2mm is PolyBench's kernel_2mm loop nest as written, sequential.
func reference2mm(ni, nj, nk, nl int, alpha, beta float64, tmp, A, B, C, D [][]float64) {
	for i := 0; i < ni; i++ {
		for j := 0; j < nj; j++ {
			tmp[i][j] = 0
			for k := 0; k < nk; k++ {
				tmp[i][j] += alpha * A[i][k] * B[k][j]
			}
		}
	}
	for i := 0; i < ni; i++ {
		for j := 0; j < nl; j++ {
			D[i][j] *= beta
			for k := 0; k < nj; k++ {
				D[i][j] += tmp[i][k] * C[k][j]
			}
		}
	}
}

func Test2mm(t *testing.T) {
	const ni, nj, nk, nl = 13, 17, 19, 23
	A, B, C, D := initArrays(ni, nj, nk, nl)
	_, _, _, want := initArrays(ni, nj, nk, nl)
	mm2(1.5, 1.2, newMatrix(ni, nj), A, B, C, D)
	reference2mm(ni, nj, nk, nl, 1.5, 1.2, newMatrix(ni, nj), A, B, C, want)
	for i := range want {
		for j := range want[i] {
			if D[i][j] != want[i][j] {
				t.Fatalf("D[%d][%d] = %v, want %v", i, j, D[i][j], want[i][j])
			}
		}
	}
}
