// Command jacobi-2d is PolyBench/C 4.2's jacobi-2d, -tsteps pairs of
// 5-point Jacobi sweeps on an n×n grid, ported to Go with [][]float64
// grids, each row made on its own. Each sweep writes the interior of one
// grid from the other, the interior rows split among -workers goroutines
// (wg.Go) that read three rows of the source and write one of the
// destination; the grids are swapped between sweeps, as PolyBench
// alternates A→B and B→A. It prints a checksum of A.
//
// RACY VARIANT, for differential tests: the row above is read from dst
// instead of src; at the first row of a block that row is written by the
// block above, a read/write race.
// The line is marked "planted race".
package main

import (
	"flag"
	"fmt"
	"runtime"
	"sync"
)

// sweep sets the interior of dst from src, rows split among workers.
func sweep(dst, src [][]float64, workers int) {
	n := len(src)
	var wg sync.WaitGroup
	rows := n - 2
	for w := range workers {
		wg.Go(func() {
			lo, hi := 1+w*rows/workers, 1+(w+1)*rows/workers
			for i := lo; i < hi; i++ {
				up, mid, down := dst[i-1], src[i], src[i+1] // planted race: up from dst
				out := dst[i]
				for j := 1; j < n-1; j++ {
					out[j] = 0.2 * (mid[j] + mid[j-1] + mid[1+j] + down[j] + up[j])
				}
			}
		})
	}
	wg.Wait()
}

// jacobi2d runs tsteps pairs of sweeps, A→B then B→A.
func jacobi2d(tsteps, workers int, A, B [][]float64) {
	a, b := A, B
	for range 2 * tsteps {
		sweep(b, a, workers)
		a, b = b, a
	}
}

// initArrays fills A and B as PolyBench's init_array does.
func initArrays(n int) (A, B [][]float64) {
	A, B = make([][]float64, n), make([][]float64, n)
	for i := range n {
		A[i], B[i] = make([]float64, n), make([]float64, n)
		for j := range n {
			A[i][j] = (float64(i)*float64(j+2) + 2) / float64(n)
			B[i][j] = (float64(i)*float64(j+3) + 3) / float64(n)
		}
	}
	return A, B
}

func main() {
	n := flag.Int("n", 1000, "points per side")
	tsteps := flag.Int("tsteps", 250, "pairs of sweeps")
	workers := flag.Int("workers", runtime.GOMAXPROCS(0), "goroutines per sweep")
	flag.Parse()
	A, B := initArrays(*n)
	jacobi2d(*tsteps, *workers, A, B)
	sum := 0.0
	for _, row := range A {
		for _, v := range row {
			sum += v
		}
	}
	fmt.Printf("jacobi-2d %d, %d steps: sum %.9e, A[mid] %.9e\n", *n, *tsteps, sum, A[*n/2][*n/2])
}
