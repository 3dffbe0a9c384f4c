package main

import "testing"

// referenceHeat3d is PolyBench's kernel_heat_3d loop nest as written,
// sequential.
func referenceHeat3d(tsteps, n int, A, B [][][]float64) {
	for t := 1; t <= tsteps; t++ {
		for i := 1; i < n-1; i++ {
			for j := 1; j < n-1; j++ {
				for k := 1; k < n-1; k++ {
					B[i][j][k] = 0.125*(A[i+1][j][k]-2.0*A[i][j][k]+A[i-1][j][k]) +
						0.125*(A[i][j+1][k]-2.0*A[i][j][k]+A[i][j-1][k]) +
						0.125*(A[i][j][k+1]-2.0*A[i][j][k]+A[i][j][k-1]) +
						A[i][j][k]
				}
			}
		}
		for i := 1; i < n-1; i++ {
			for j := 1; j < n-1; j++ {
				for k := 1; k < n-1; k++ {
					A[i][j][k] = 0.125*(B[i+1][j][k]-2.0*B[i][j][k]+B[i-1][j][k]) +
						0.125*(B[i][j+1][k]-2.0*B[i][j][k]+B[i][j-1][k]) +
						0.125*(B[i][j][k+1]-2.0*B[i][j][k]+B[i][j][k-1]) +
						B[i][j][k]
				}
			}
		}
	}
}

func TestHeat3d(t *testing.T) {
	const n, tsteps = 11, 4
	for _, bs := range []int{1, 4, 20} {
		A, B := initArrays(n)
		wA, wB := initArrays(n)
		heat3d(tsteps, bs, A, B)
		referenceHeat3d(tsteps, n, wA, wB)
		for i := range wA {
			for j := range wA[i] {
				for k := range wA[i][j] {
					if A[i][j][k] != wA[i][j][k] || B[i][j][k] != wB[i][j][k] {
						t.Fatalf("bs=%d: A, B[%d][%d][%d] = %v, %v, want %v, %v", bs, i, j, k, A[i][j][k], B[i][j][k], wA[i][j][k], wB[i][j][k])
					}
				}
			}
		}
	}
}
