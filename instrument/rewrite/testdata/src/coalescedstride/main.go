package main

import (
	"fmt"
	"sync"
)

// colmul: out = A*B on flat n×n matrices, one goroutine per row, chosen
// through a formula the static stage does not invert ((i*3)%n), so the
// accesses stay checked. The inner loop over k reads row r of A, a run,
// and column j of B, elements n apart: the column stays checked in the
// loop (its bounds a StrideIn test), and the row's checks move before the
// loop as one span when the run is apart from all of B.
func colmul(out, A, B []float64, n int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			for j := 0; j < n; j++ {
				s := 0.0
				for k := 0; k < n; k++ {
					s += A[r*n+k] * B[k*n+j]
				}
				out[r*n+j] = s
			}
		})
	}
	wg.Wait()
}

// colsub: a column read at an offset, under a branch: each k reads
// B[n*k+n-1-j], the last columns first, when A's row says so.
func colsub(out, A, B []float64, n int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			for j := 0; j < n; j++ {
				s := 0.0
				for k := 0; k < n-1; k++ {
					a := A[r*n+k]
					if a > 0 {
						s += a * B[n*k+n-1-j]
					}
				}
				out[r*n+j] = s
			}
		})
	}
	wg.Wait()
}

// edge: a loop to an inclusive bound (j <= n-2) coalesces as j < n-1.
// Each goroutine then writes two elements of the row another goroutine
// reads: column n-2, which that loop reads last (a race, found only if the
// span ends at n-2 inclusive), and column n-1, which it does not (no
// report, unless the span ran one past).
func edge(M []float64, n int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			s := 0.0
			for j := 0; j <= n-2; j++ {
				s += M[r*n+j]
			}
			p := (r + 1) % n
			M[p*n+n-2] = s
			M[p*n+n-1] = s
		})
	}
	wg.Wait()
}

// axpyT: row r of M gets the rows of A weighted by y, dst[k] += A[j*n+k]
// * y[j] over k: two runs and the entry y[j], checked once before the
// loop when it lies in neither run (pointMove). Given a row of M as y,
// the goroutine that owns that row keeps every check in its loops, and
// the others read y while it writes it: a race.
func axpyT(M, A, y []float64, n int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			dst := M[r*n : (r+1)*n]
			for j := range n {
				for k := range dst {
					dst[k] += A[j*n+k] * y[j]
				}
			}
		})
	}
	wg.Wait()
}

func main() {
	n := 5
	A, B, C := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
	for i := range A {
		A[i], B[i] = float64(i), float64(i%3)
	}
	colmul(C, A, B, n) // A and B apart: the row moves
	colmul(C, A, A, n) // row and column of one matrix: every check stays
	out := make([]float64, n*n)
	colsub(out, A, B, n)
	edge(C, n)
	axpyT(C, A, B[:n], n)        // y apart from every run
	axpyT(C, A, C[n:2*n], n)     // a race: y is row 1 of C
	colmul(B, A, B, n)           // a race: each goroutine writes row r of B, which the others read down their columns
	fmt.Printf("%.3f\n", out[6]) // colsub ran before the races: C's values are theirs, and TestGolden compares the plain and checked output
}
