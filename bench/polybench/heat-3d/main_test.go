package main

import "testing"

// referenceHeat3d is PolyBench's kernel_heat_3d loop nest as written,
// sequential.
func referenceHeat3d(tsteps, n int, A, B []float64) {
	at := func(i, j, k int) int { return (i*n+j)*n + k }
	for t := 1; t <= tsteps; t++ {
		for i := 1; i < n-1; i++ {
			for j := 1; j < n-1; j++ {
				for k := 1; k < n-1; k++ {
					B[at(i, j, k)] = 0.125*(A[at(i+1, j, k)]-2.0*A[at(i, j, k)]+A[at(i-1, j, k)]) +
						0.125*(A[at(i, j+1, k)]-2.0*A[at(i, j, k)]+A[at(i, j-1, k)]) +
						0.125*(A[at(i, j, k+1)]-2.0*A[at(i, j, k)]+A[at(i, j, k-1)]) +
						A[at(i, j, k)]
				}
			}
		}
		for i := 1; i < n-1; i++ {
			for j := 1; j < n-1; j++ {
				for k := 1; k < n-1; k++ {
					A[at(i, j, k)] = 0.125*(B[at(i+1, j, k)]-2.0*B[at(i, j, k)]+B[at(i-1, j, k)]) +
						0.125*(B[at(i, j+1, k)]-2.0*B[at(i, j, k)]+B[at(i, j-1, k)]) +
						0.125*(B[at(i, j, k+1)]-2.0*B[at(i, j, k)]+B[at(i, j, k-1)]) +
						B[at(i, j, k)]
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
		heat3d(tsteps, n, bs, A, B)
		referenceHeat3d(tsteps, n, wA, wB)
		for i := range wA {
			if A[i] != wA[i] || B[i] != wB[i] {
				t.Fatalf("bs=%d: A[%d], B[%d] = %v, %v, want %v, %v", bs, i, i, A[i], B[i], wA[i], wB[i])
			}
		}
	}
}
