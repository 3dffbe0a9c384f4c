package main

import "testing"

// referenceFdtd2d is PolyBench's kernel_fdtd_2d loop nest as written,
// sequential.
func referenceFdtd2d(tmax, nx, ny int, ex, ey, hz, fict []float64) {
	for t := 0; t < tmax; t++ {
		for j := 0; j < ny; j++ {
			ey[j] = fict[t]
		}
		for i := 1; i < nx; i++ {
			for j := 0; j < ny; j++ {
				ey[i*ny+j] = ey[i*ny+j] - 0.5*(hz[i*ny+j]-hz[(i-1)*ny+j])
			}
		}
		for i := 0; i < nx; i++ {
			for j := 1; j < ny; j++ {
				ex[i*ny+j] = ex[i*ny+j] - 0.5*(hz[i*ny+j]-hz[i*ny+j-1])
			}
		}
		for i := 0; i < nx-1; i++ {
			for j := 0; j < ny-1; j++ {
				hz[i*ny+j] = hz[i*ny+j] - 0.7*(ex[i*ny+j+1]-ex[i*ny+j]+ey[(i+1)*ny+j]-ey[i*ny+j])
			}
		}
	}
}

func TestFdtd2d(t *testing.T) {
	const tmax, nx, ny = 6, 19, 23
	for _, bs := range []int{1, 5, 40} {
		ex, ey, hz, fict := initArrays(tmax, nx, ny)
		wx, wy, wz, _ := initArrays(tmax, nx, ny)
		fdtd2d(tmax, nx, ny, bs, ex, ey, hz, fict)
		referenceFdtd2d(tmax, nx, ny, wx, wy, wz, fict)
		for i := range wx {
			if ex[i] != wx[i] || ey[i] != wy[i] || hz[i] != wz[i] {
				t.Fatalf("bs=%d: element %d differs", bs, i)
			}
		}
	}
}
