// Command gemm is PolyBench/C 4.2's gemm, C := alpha·A·B + beta·C, ported
// to Go with [][]float64 matrices (A is ni×nk, B nk×nj, C ni×nj), each row
// made on its own. The outer loop over rows of C is split into blocks of
// -bs rows, one goroutine per block started with wg.Go; each block scales
// and accumulates its own rows C[i]. It prints a checksum of C.
package main

import (
	"flag"
	"fmt"
	"sync"
)

// gemm sets C to alpha·A·B + beta·C, in blocks of bs rows.
func gemm(ni, bs int, alpha, beta float64, C, A, B [][]float64) {
	var wg sync.WaitGroup
	for b := 0; b*bs < ni; b++ {
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs, ni)
			for i := lo; i < hi; i++ {
				c := C[i]
				for j := range c {
					c[j] *= beta
				}
				for k, aik := range A[i] {
					a := alpha * aik
					for j, bkj := range B[k] {
						c[j] += a * bkj
					}
				}
			}
		})
	}
	wg.Wait()
}

// newMatrix returns a rows×cols matrix of zeros.
func newMatrix(rows, cols int) [][]float64 {
	m := make([][]float64, rows)
	for i := range m {
		m[i] = make([]float64, cols)
	}
	return m
}

// initArrays fills the matrices as PolyBench's init_array does.
func initArrays(ni, nj, nk int) (C, A, B [][]float64) {
	C, A, B = newMatrix(ni, nj), newMatrix(ni, nk), newMatrix(nk, nj)
	for i := range ni {
		for j := range nj {
			C[i][j] = float64((i*j+1)%ni) / float64(ni)
		}
		for k := range nk {
			A[i][k] = float64(i*(k+1)%nk) / float64(nk)
		}
	}
	for k := range nk {
		for j := range nj {
			B[k][j] = float64(k*(j+2)%nj) / float64(nj)
		}
	}
	return C, A, B
}

func main() {
	ni := flag.Int("ni", 950, "rows of A and C")
	nj := flag.Int("nj", 1050, "columns of B and C")
	nk := flag.Int("nk", 1150, "columns of A, rows of B")
	bs := flag.Int("bs", 16, "rows per goroutine")
	flag.Parse()
	C, A, B := initArrays(*ni, *nj, *nk)
	gemm(*ni, *bs, 1.5, 1.2, C, A, B)
	sum := 0.0
	for _, row := range C {
		for _, v := range row {
			sum += v
		}
	}
	fmt.Printf("gemm %dx%dx%d: sum %.9e, C[last] %.9e\n", *ni, *nj, *nk, sum, C[*ni-1][*nj-1])
}
