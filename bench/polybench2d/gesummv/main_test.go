package main

import "testing"

// referenceGesummv is PolyBench's kernel_gesummv loop nest as written,
// sequential.
func referenceGesummv(n int, alpha, beta float64, A, B [][]float64, x, tmp, y []float64) {
	for i := 0; i < n; i++ {
		tmp[i] = 0
		y[i] = 0
		for j := 0; j < n; j++ {
			tmp[i] = A[i][j]*x[j] + tmp[i]
			y[i] = B[i][j]*x[j] + y[i]
		}
		y[i] = alpha*tmp[i] + beta*y[i]
	}
}

func TestGesummv(t *testing.T) {
	const n = 57
	A, B, x := initArrays(n)
	want, wtmp := make([]float64, n), make([]float64, n)
	referenceGesummv(n, 1.5, 1.2, A, B, x, wtmp, want)
	for _, c := range []struct{ bs, workers int }{{1, 1}, {5, 3}, {100, 2}} {
		tmp, y := make([]float64, n), make([]float64, n)
		gesummv(c.bs, c.workers, 1.5, 1.2, A, B, x, tmp, y)
		for i := range want {
			if y[i] != want[i] || tmp[i] != wtmp[i] {
				t.Fatalf("%+v: y[%d] = %v, want %v", c, i, y[i], want[i])
			}
		}
	}
}
