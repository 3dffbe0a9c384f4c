package main

import "testing"

// referenceCovariance is PolyBench's kernel_covariance loop nest as
// written, sequential.
func referenceCovariance(m, n int, data, cov [][]float64, mean []float64) {
	fn := float64(n)
	for j := 0; j < m; j++ {
		mean[j] = 0
		for i := 0; i < n; i++ {
			mean[j] += data[i][j]
		}
		mean[j] /= fn
	}
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			data[i][j] -= mean[j]
		}
	}
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			cov[i][j] = 0
			for k := 0; k < n; k++ {
				cov[i][j] += data[k][i] * data[k][j]
			}
			cov[i][j] /= fn - 1
			cov[j][i] = cov[i][j]
		}
	}
}

func TestCovariance(t *testing.T) {
	const m, n = 29, 37
	want, wmean := newMatrix(m, m), make([]float64, m)
	referenceCovariance(m, n, initArray(m, n), want, wmean)
	for _, bs := range []int{1, 4, 64} {
		cov, mean := newMatrix(m, m), make([]float64, m)
		covariance(bs, initArray(m, n), cov, mean)
		for i := range want {
			for j := range want[i] {
				if cov[i][j] != want[i][j] {
					t.Fatalf("bs=%d: cov[%d][%d] = %v, want %v", bs, i, j, cov[i][j], want[i][j])
				}
			}
		}
	}
}
