package main

import "testing"

// referenceJacobi2d is PolyBench's kernel_jacobi_2d loop nest as written,
// sequential.
func referenceJacobi2d(tsteps, n int, A, B []float64) {
	for t := 0; t < tsteps; t++ {
		for i := 1; i < n-1; i++ {
			for j := 1; j < n-1; j++ {
				B[i*n+j] = 0.2 * (A[i*n+j] + A[i*n+j-1] + A[i*n+1+j] + A[(1+i)*n+j] + A[(i-1)*n+j])
			}
		}
		for i := 1; i < n-1; i++ {
			for j := 1; j < n-1; j++ {
				A[i*n+j] = 0.2 * (B[i*n+j] + B[i*n+j-1] + B[i*n+1+j] + B[(1+i)*n+j] + B[(i-1)*n+j])
			}
		}
	}
}

func TestJacobi2d(t *testing.T) {
	const n, tsteps = 23, 5
	for _, workers := range []int{1, 3, 30} {
		A, B := initArrays(n)
		wA, wB := initArrays(n)
		jacobi2d(tsteps, n, workers, A, B)
		referenceJacobi2d(tsteps, n, wA, wB)
		for i := range wA {
			if A[i] != wA[i] || B[i] != wB[i] {
				t.Fatalf("workers=%d: A[%d], B[%d] = %v, %v, want %v, %v", workers, i, i, A[i], B[i], wA[i], wB[i])
			}
		}
	}
}
