package main

import (
	"math"
	"testing"
)

// referenceBicg is PolyBench's kernel_bicg loop nest as written, sequential.
func referenceBicg(n, m int, A [][]float64, p, r, s, q []float64) {
	for i := 0; i < m; i++ {
		s[i] = 0
	}
	for i := 0; i < n; i++ {
		q[i] = 0
		for j := 0; j < m; j++ {
			s[j] = s[j] + r[i]*A[i][j]
			q[i] = q[i] + A[i][j]*p[j]
		}
	}
}

func TestBicg(t *testing.T) {
	const n, m = 61, 43
	A, p, r := initArrays(n, m)
	for _, workers := range []int{1, 3, 8} {
		s, q := make([]float64, m), make([]float64, n)
		ws, wq := make([]float64, m), make([]float64, n)
		bicg(workers, A, p, r, s, q)
		referenceBicg(n, m, A, p, r, ws, wq)
		for i := range wq {
			if q[i] != wq[i] {
				t.Fatalf("workers=%d: q[%d] = %v, want %v", workers, i, q[i], wq[i])
			}
		}
		for j := range ws { // summed in another order: close, not equal
			if math.Abs(s[j]-ws[j]) > 1e-12*math.Abs(ws[j]) {
				t.Fatalf("workers=%d: s[%d] = %v, want %v", workers, j, s[j], ws[j])
			}
		}
	}
}
