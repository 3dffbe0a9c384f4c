package main

import (
	"fmt"
	"math"
	"sync"
)

// The kernels below choose their rows through a formula the static stage
// does not invert ((i*3)%n), so their accesses stay checked, and show the
// loops whose checks move before them as spans with symbolic offsets.

// gemm: C = A*B on flat n×n matrices, one goroutine per row; the inner
// loop over j touches row r of C and row k of B: two spans whose symbolic
// offsets differ (SpansApart), A[r*n+k] an invariant address.
func gemm(C, A, B []float64, n int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			for k := 0; k < n; k++ {
				for j := 0; j < n; j++ {
					C[r*n+j] += A[r*n+k] * B[k*n+j]
				}
			}
		})
	}
	wg.Wait()
}

// blocks: block b clamps its rows with min and normalises each row, with
// a call to math.Sqrt and a sum into a local variable.
func blocks(M []float64, n, bs int) {
	var wg sync.WaitGroup
	for b := range (n + bs - 1) / bs {
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs, n)
			for i := lo; i < hi; i++ {
				r := (i * 3) % n
				s := 0.0
				for j := range n {
					s += M[r*n+j] * M[r*n+j]
				}
				s = math.Sqrt(s) + 1
				for j := range n {
					M[r*n+j] /= s
				}
			}
		})
	}
	wg.Wait()
}

// border: a stencil whose borders take a branch with continue: the reads
// after it are conditional and stay per element; the write of each row
// before the branch moves.
func border(out, in []float64, n int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			for j := 0; j < n; j++ {
				out[r*n+j] = 0
				if j == 0 || j == n-1 {
					continue
				}
				out[r*n+j] = math.Abs(in[r*n+j-1] - in[r*n+j+1])
			}
		})
	}
	wg.Wait()
}

// rows: a row slice of a flat matrix ranged over; the range moves.
func rows(M []float64, n int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			row := M[r*n : (r+1)*n]
			for j, v := range row {
				row[j] = v * 2
			}
		})
	}
	wg.Wait()
}

func main() {
	n := 4
	A, B, C := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
	for i := range A {
		A[i], B[i] = float64(i), float64(i%3)
	}
	gemm(C, A, B, n)
	blocks(C, n, 3)
	out := make([]float64, n*n)
	border(out, C, n)
	rows(out, n)
	fmt.Printf("%.3f %.3f\n", C[5], out[6])
}
