package main

import "testing"

// referenceCovariance is PolyBench's kernel_covariance loop nest as
// written, sequential.
func referenceCovariance(m, n int, data, cov, mean []float64) {
	fn := float64(n)
	for j := 0; j < m; j++ {
		mean[j] = 0
		for i := 0; i < n; i++ {
			mean[j] += data[i*m+j]
		}
		mean[j] /= fn
	}
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			data[i*m+j] -= mean[j]
		}
	}
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			cov[i*m+j] = 0
			for k := 0; k < n; k++ {
				cov[i*m+j] += data[k*m+i] * data[k*m+j]
			}
			cov[i*m+j] /= fn - 1
			cov[j*m+i] = cov[i*m+j]
		}
	}
}

func TestCovariance(t *testing.T) {
	const m, n = 29, 37
	want, wmean := make([]float64, m*m), make([]float64, m)
	referenceCovariance(m, n, initArray(m, n), want, wmean)
	for _, bs := range []int{1, 4, 64} {
		cov, mean := make([]float64, m*m), make([]float64, m)
		covariance(m, n, bs, initArray(m, n), cov, mean)
		for i := range want {
			if cov[i] != want[i] {
				t.Fatalf("bs=%d: cov[%d] = %v, want %v", bs, i, cov[i], want[i])
			}
		}
	}
}
