package main

import "testing"

// reference2mm is PolyBench's kernel_2mm loop nest as written, sequential.
func reference2mm(ni, nj, nk, nl int, alpha, beta float64, tmp, A, B, C, D []float64) {
	for i := 0; i < ni; i++ {
		for j := 0; j < nj; j++ {
			tmp[i*nj+j] = 0
			for k := 0; k < nk; k++ {
				tmp[i*nj+j] += alpha * A[i*nk+k] * B[k*nj+j]
			}
		}
	}
	for i := 0; i < ni; i++ {
		for j := 0; j < nl; j++ {
			D[i*nl+j] *= beta
			for k := 0; k < nj; k++ {
				D[i*nl+j] += tmp[i*nj+k] * C[k*nl+j]
			}
		}
	}
}

func Test2mm(t *testing.T) {
	const ni, nj, nk, nl = 13, 17, 19, 23
	A, B, C, D := initArrays(ni, nj, nk, nl)
	_, _, _, want := initArrays(ni, nj, nk, nl)
	mm2(ni, nj, nk, nl, 1.5, 1.2, make([]float64, ni*nj), A, B, C, D)
	reference2mm(ni, nj, nk, nl, 1.5, 1.2, make([]float64, ni*nj), A, B, C, want)
	for i := range want {
		if D[i] != want[i] {
			t.Fatalf("D[%d] = %v, want %v", i, D[i], want[i])
		}
	}
}
