package main

import "testing"

// referenceFdtd2d is PolyBench's kernel_fdtd_2d loop nest as written,
// sequential.
func referenceFdtd2d(tmax, nx, ny int, ex, ey, hz [][]float64, fict []float64) {
	for t := 0; t < tmax; t++ {
		for j := 0; j < ny; j++ {
			ey[0][j] = fict[t]
		}
		for i := 1; i < nx; i++ {
			for j := 0; j < ny; j++ {
				ey[i][j] = ey[i][j] - 0.5*(hz[i][j]-hz[i-1][j])
			}
		}
		for i := 0; i < nx; i++ {
			for j := 1; j < ny; j++ {
				ex[i][j] = ex[i][j] - 0.5*(hz[i][j]-hz[i][j-1])
			}
		}
		for i := 0; i < nx-1; i++ {
			for j := 0; j < ny-1; j++ {
				hz[i][j] = hz[i][j] - 0.7*(ex[i][j+1]-ex[i][j]+ey[i+1][j]-ey[i][j])
			}
		}
	}
}

func TestFdtd2d(t *testing.T) {
	const tmax, nx, ny = 6, 19, 23
	for _, bs := range []int{1, 5, 40} {
		ex, ey, hz, fict := initArrays(tmax, nx, ny)
		wx, wy, wz, _ := initArrays(tmax, nx, ny)
		fdtd2d(bs, ex, ey, hz, fict)
		referenceFdtd2d(tmax, nx, ny, wx, wy, wz, fict)
		for i := range wx {
			for j := range wx[i] {
				if ex[i][j] != wx[i][j] || ey[i][j] != wy[i][j] || hz[i][j] != wz[i][j] {
					t.Fatalf("bs=%d: element [%d][%d] differs", bs, i, j)
				}
			}
		}
	}
}
