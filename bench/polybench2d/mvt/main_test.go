package main

import "testing"

// referenceMvt is PolyBench's kernel_mvt loop nest as written, sequential.
func referenceMvt(n int, A [][]float64, x1, x2, y1, y2 []float64) {
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			x1[i] = x1[i] + A[i][j]*y1[j]
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			x2[i] = x2[i] + A[j][i]*y2[j]
		}
	}
}

func TestMvt(t *testing.T) {
	const n = 45
	for _, bs := range []int{1, 8, 64} {
		A, x1, x2, y1, y2 := initArrays(n)
		_, w1, w2, _, _ := initArrays(n)
		mvt(bs, A, x1, x2, y1, y2)
		referenceMvt(n, A, w1, w2, y1, y2)
		for i := range n {
			if x1[i] != w1[i] || x2[i] != w2[i] {
				t.Fatalf("bs=%d: x1[%d], x2[%d] = %v, %v, want %v, %v", bs, i, i, x1[i], x2[i], w1[i], w2[i])
			}
		}
	}
}
