// Command fdtd-2d is PolyBench/C 4.2's fdtd-2d, -tmax steps of the 2-D
// finite-difference time-domain kernel on nx×ny fields ex, ey, hz, ported
// to Go with flat []float64 fields. Each step sets the boundary row of ey
// from the source, then runs three parallel loops over blocks of -bs rows
// (errgroup, one g.Go per block): ey from hz, ex from hz, hz from ex and
// ey. It prints a checksum of the three fields.
package main

import (
	"flag"
	"fmt"

	"golang.org/x/sync/errgroup"
)

// rows runs body over [from, to) in blocks of bs rows and waits.
func rows(from, to, bs int, body func(lo, hi int)) {
	var g errgroup.Group
	for lo := from; lo < to; lo += bs {
		g.Go(func() error {
			body(lo, min(lo+bs, to))
			return nil
		})
	}
	g.Wait()
}

// fdtd2d runs tmax steps, blocks of bs rows per goroutine.
func fdtd2d(tmax, nx, ny, bs int, ex, ey, hz, fict []float64) {
	for t := range tmax {
		for j := range ny {
			ey[j] = fict[t]
		}
		rows(1, nx, bs, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				for j := range ny {
					ey[i*ny+j] = ey[i*ny+j] - 0.5*(hz[i*ny+j]-hz[(i-1)*ny+j])
				}
			}
		})
		rows(0, nx, bs, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				for j := 1; j < ny; j++ {
					ex[i*ny+j] = ex[i*ny+j] - 0.5*(hz[i*ny+j]-hz[i*ny+j-1])
				}
			}
		})
		rows(0, nx-1, bs, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				for j := 0; j < ny-1; j++ {
					hz[i*ny+j] = hz[i*ny+j] - 0.7*(ex[i*ny+j+1]-ex[i*ny+j]+ey[(i+1)*ny+j]-ey[i*ny+j])
				}
			}
		})
	}
}

// initArrays fills the fields and the source as PolyBench's init_array
// does.
func initArrays(tmax, nx, ny int) (ex, ey, hz, fict []float64) {
	ex, ey, hz, fict = make([]float64, nx*ny), make([]float64, nx*ny), make([]float64, nx*ny), make([]float64, tmax)
	for t := range tmax {
		fict[t] = float64(t)
	}
	for i := range nx {
		for j := range ny {
			ex[i*ny+j] = float64(i) * float64(j+1) / float64(nx)
			ey[i*ny+j] = float64(i) * float64(j+2) / float64(ny)
			hz[i*ny+j] = float64(i) * float64(j+3) / float64(nx)
		}
	}
	return ex, ey, hz, fict
}

func main() {
	tmax := flag.Int("tmax", 160, "time steps")
	nx := flag.Int("nx", 800, "rows")
	ny := flag.Int("ny", 1000, "columns")
	bs := flag.Int("bs", 32, "rows per goroutine")
	flag.Parse()
	ex, ey, hz, fict := initArrays(*tmax, *nx, *ny)
	fdtd2d(*tmax, *nx, *ny, *bs, ex, ey, hz, fict)
	var sx, sy, sz float64
	for i := range ex {
		sx += ex[i]
		sy += ey[i]
		sz += hz[i]
	}
	fmt.Printf("fdtd-2d %dx%d, %d steps: sum ex %.9e, ey %.9e, hz %.9e\n", *nx, *ny, *tmax, sx, sy, sz)
}
