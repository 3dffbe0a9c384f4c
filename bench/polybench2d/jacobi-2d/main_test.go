package main

import "testing"

// referenceJacobi2d is PolyBench's kernel_jacobi_2d loop nest as written,
// sequential.
func referenceJacobi2d(tsteps, n int, A, B [][]float64) {
	for t := 0; t < tsteps; t++ {
		for i := 1; i < n-1; i++ {
			for j := 1; j < n-1; j++ {
				B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j])
			}
		}
		for i := 1; i < n-1; i++ {
			for j := 1; j < n-1; j++ {
				A[i][j] = 0.2 * (B[i][j] + B[i][j-1] + B[i][1+j] + B[1+i][j] + B[i-1][j])
			}
		}
	}
}

func TestJacobi2d(t *testing.T) {
	const n, tsteps = 23, 5
	for _, workers := range []int{1, 3, 30} {
		A, B := initArrays(n)
		wA, wB := initArrays(n)
		jacobi2d(tsteps, workers, A, B)
		referenceJacobi2d(tsteps, n, wA, wB)
		for i := range wA {
			for j := range wA[i] {
				if A[i][j] != wA[i][j] || B[i][j] != wB[i][j] {
					t.Fatalf("workers=%d: A, B[%d][%d] = %v, %v, want %v, %v", workers, i, j, A[i][j], B[i][j], wA[i][j], wB[i][j])
				}
			}
		}
	}
}
