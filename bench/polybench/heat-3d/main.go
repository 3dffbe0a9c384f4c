// Command heat-3d is PolyBench/C 4.2's heat-3d, -tsteps pairs of 7-point
// heat-equation sweeps on an n×n×n grid, ported to Go with flat []float64
// grids indexed (i*n+j)*n+k. Each sweep splits the interior planes i into
// blocks of -bs planes, one goroutine per block (wg.Go); PolyBench's A→B,
// B→A alternation is a swap of the two grids between sweeps. It prints a
// checksum of A.
package main

import (
	"flag"
	"fmt"
	"sync"
)

// sweep sets the interior of dst from src, in blocks of bs planes.
func sweep(dst, src []float64, n, bs int) {
	var wg sync.WaitGroup
	nn := n * n
	for b := 0; b*bs < n-2; b++ {
		wg.Go(func() {
			lo, hi := 1+b*bs, min(1+(b+1)*bs, n-1)
			for i := lo; i < hi; i++ {
				for j := 1; j < n-1; j++ {
					c := i*nn + j*n
					for k := 1; k < n-1; k++ {
						x := src[c+k]
						dst[c+k] = 0.125*(src[c+nn+k]-2.0*x+src[c-nn+k]) +
							0.125*(src[c+n+k]-2.0*x+src[c-n+k]) +
							0.125*(src[c+k+1]-2.0*x+src[c+k-1]) +
							x
					}
				}
			}
		})
	}
	wg.Wait()
}

// heat3d runs tsteps pairs of sweeps, A→B then B→A.
func heat3d(tsteps, n, bs int, A, B []float64) {
	a, b := A, B
	for range 2 * tsteps {
		sweep(b, a, n, bs)
		a, b = b, a
	}
}

// initArrays fills A and B as PolyBench's init_array does.
func initArrays(n int) (A, B []float64) {
	A, B = make([]float64, n*n*n), make([]float64, n*n*n)
	for i := range n {
		for j := range n {
			for k := range n {
				v := float64(i+j+(n-k)) * 10 / float64(n)
				A[(i*n+j)*n+k], B[(i*n+j)*n+k] = v, v
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
	heat3d(*tsteps, *n, *bs, A, B)
	sum := 0.0
	for _, v := range A {
		sum += v
	}
	fmt.Printf("heat-3d %d, %d steps: sum %.9e, A[1][1][1] %.9e\n", *n, *tsteps, sum, A[(*n+1)**n+1])
}
