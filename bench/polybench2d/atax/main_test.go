package main

import (
	"math"
	"testing"
)

// referenceAtax is PolyBench's kernel_atax loop nest as written, sequential.
func referenceAtax(m, n int, A [][]float64, x, y, tmp []float64) {
	for i := 0; i < n; i++ {
		y[i] = 0
	}
	for i := 0; i < m; i++ {
		tmp[i] = 0
		for j := 0; j < n; j++ {
			tmp[i] = tmp[i] + A[i][j]*x[j]
		}
		for j := 0; j < n; j++ {
			y[j] = y[j] + A[i][j]*tmp[i]
		}
	}
}

func TestAtax(t *testing.T) {
	const m, n = 53, 47
	A, x := initArrays(m, n)
	for _, bs := range []int{1, 8, 100} {
		y, tmp := make([]float64, n), make([]float64, m)
		wy, wtmp := make([]float64, n), make([]float64, m)
		atax(bs, A, x, y, tmp)
		referenceAtax(m, n, A, x, wy, wtmp)
		for i := range wtmp {
			if tmp[i] != wtmp[i] {
				t.Fatalf("bs=%d: tmp[%d] = %v, want %v", bs, i, tmp[i], wtmp[i])
			}
		}
		for j := range wy { // summed in another order: close, not equal
			if math.Abs(y[j]-wy[j]) > 1e-12*math.Abs(wy[j]) {
				t.Fatalf("bs=%d: y[%d] = %v, want %v", bs, j, y[j], wy[j])
			}
		}
	}
}
