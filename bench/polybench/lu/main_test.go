package main

import "testing"

// referenceLu is PolyBench's kernel_lu loop nest as written, sequential.
func referenceLu(n int, A []float64) {
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			for k := 0; k < j; k++ {
				A[i*n+j] -= A[i*n+k] * A[k*n+j]
			}
			A[i*n+j] /= A[j*n+j]
		}
		for j := i; j < n; j++ {
			for k := 0; k < i; k++ {
				A[i*n+j] -= A[i*n+k] * A[k*n+j]
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
		lu(n, workers, A)
		for i := range want {
			if A[i] != want[i] {
				t.Fatalf("workers=%d: A[%d] = %v, want %v", workers, i, A[i], want[i])
			}
		}
	}
}
