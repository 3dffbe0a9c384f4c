// Command heat-3d is PolyBench/C 4.2's heat-3d, -tsteps pairs of 7-point
// heat-equation sweeps on an n×n×n grid, ported to Go with [][][]float64
// grids indexed A[i][j][k], the rows of each grid cut from one backing
// array. Each sweep splits the interior planes i into blocks of -bs planes,
// one goroutine per block (wg.Go); PolyBench's A→B, B→A alternation is a
// swap of the two grids between sweeps. It prints a checksum of A.
//
// RACY VARIANT, for differential tests: each block also computes the first
// plane of the next block (off-by-one upper bound), a write/write race on
// the destination grid.
// The line is marked "planted race".
package main

import (
	"flag"
	"fmt"
	"sync"
)

// sweep sets the interior of dst from src, in blocks of bs planes.
func sweep(dst, src [][][]float64, bs int) {
	n := len(src)
	var wg sync.WaitGroup
	for b := 0; b*bs < n-2; b++ {
		wg.Go(func() {
			lo, hi := 1+b*bs, min(2+(b+1)*bs, n-1) // planted race: hi is one plane too far
			for i := lo; i < hi; i++ {
				for j := 1; j < n-1; j++ {
					c, out := src[i][j], dst[i][j]
					above, below := src[i+1][j], src[i-1][j]
					north, south := src[i][j+1], src[i][j-1]
					for k := 1; k < n-1; k++ {
						x := c[k]
						out[k] = 0.125*(above[k]-2.0*x+below[k]) +
							0.125*(north[k]-2.0*x+south[k]) +
							0.125*(c[k+1]-2.0*x+c[k-1]) +
							x
					}
				}
			}
		})
	}
	wg.Wait()
}

// heat3d runs tsteps pairs of sweeps, A→B then B→A.
func heat3d(tsteps, bs int, A, B [][][]float64) {
	a, b := A, B
	for range 2 * tsteps {
		sweep(b, a, bs)
		a, b = b, a
	}
}

// newGrid returns an n×n×n grid of zeros, its rows cut from one
// allocation.
func newGrid(n int) [][][]float64 {
	data := make([]float64, n*n*n)
	g := make([][][]float64, n)
	for i := range g {
		g[i] = make([][]float64, n)
		for j := range g[i] {
			off := (i*n + j) * n
			g[i][j] = data[off : off+n : off+n]
		}
	}
	return g
}

// initArrays fills A and B as PolyBench's init_array does.
func initArrays(n int) (A, B [][][]float64) {
	A, B = newGrid(n), newGrid(n)
	for i := range n {
		for j := range n {
			for k := range n {
				v := float64(i+j+(n-k)) * 10 / float64(n)
				A[i][j][k], B[i][j][k] = v, v
			}
		}
	}
	return A, B
}

func main() {
	n := flag.Int("n", 100, "points per side")
	tsteps := flag.Int("tsteps", 110, "pairs of sweeps")
	bs := flag.Int("bs", 8, "planes per goroutine")
	flag.Parse()
	A, B := initArrays(*n)
	heat3d(*tsteps, *bs, A, B)
	sum := 0.0
	for _, plane := range A {
		for _, row := range plane {
			for _, v := range row {
				sum += v
			}
		}
	}
	fmt.Printf("heat-3d %d, %d steps: sum %.9e, A[1][1][1] %.9e\n", *n, *tsteps, sum, A[1][1][1])
}
