// Command fdtd-2d is PolyBench/C 4.2's fdtd-2d, -tmax steps of the 2-D
// finite-difference time-domain kernel on nx×ny fields ex, ey, hz, ported
// to Go with [][]float64 fields, the rows of each cut from one backing
// array. Each step sets the boundary row of ey from the source, then runs
// three parallel loops over blocks of -bs rows (errgroup, one g.Go per
// block): ey from hz, ex from hz, hz from ex and ey. It prints a checksum
// of the three fields.
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

// fdtd2d runs len(fict) steps, blocks of bs rows per goroutine.
func fdtd2d(bs int, ex, ey, hz [][]float64, fict []float64) {
	nx := len(ey)
	for _, f := range fict {
		for j := range ey[0] {
			ey[0][j] = f
		}
		rows(1, nx, bs, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				e, h, hup := ey[i], hz[i], hz[i-1]
				for j := range e {
					e[j] = e[j] - 0.5*(h[j]-hup[j])
				}
			}
		})
		rows(0, nx, bs, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				e, h := ex[i], hz[i]
				for j := 1; j < len(e); j++ {
					e[j] = e[j] - 0.5*(h[j]-h[j-1])
				}
			}
		})
		rows(0, nx-1, bs, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				h, x, y, ydown := hz[i], ex[i], ey[i], ey[i+1]
				for j := 0; j < len(h)-1; j++ {
					h[j] = h[j] - 0.7*(x[j+1]-x[j]+ydown[j]-y[j])
				}
			}
		})
	}
}

// newMatrix returns a rows×cols matrix of zeros, its rows cut from one
// allocation.
func newMatrix(rows, cols int) [][]float64 {
	data := make([]float64, rows*cols)
	m := make([][]float64, rows)
	for i := range m {
		m[i] = data[i*cols : (i+1)*cols : (i+1)*cols]
	}
	return m
}

// initArrays fills the fields and the source as PolyBench's init_array
// does.
func initArrays(tmax, nx, ny int) (ex, ey, hz [][]float64, fict []float64) {
	ex, ey, hz, fict = newMatrix(nx, ny), newMatrix(nx, ny), newMatrix(nx, ny), make([]float64, tmax)
	for t := range tmax {
		fict[t] = float64(t)
	}
	for i := range nx {
		for j := range ny {
			ex[i][j] = float64(i) * float64(j+1) / float64(nx)
			ey[i][j] = float64(i) * float64(j+2) / float64(ny)
			hz[i][j] = float64(i) * float64(j+3) / float64(nx)
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
	fdtd2d(*bs, ex, ey, hz, fict)
	var sx, sy, sz float64
	for i := range ex {
		for j := range ex[i] {
			sx += ex[i][j]
			sy += ey[i][j]
			sz += hz[i][j]
		}
	}
	fmt.Printf("fdtd-2d %dx%d, %d steps: sum ex %.9e, ey %.9e, hz %.9e\n", *nx, *ny, *tmax, sx, sy, sz)
}
