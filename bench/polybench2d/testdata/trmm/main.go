// Command trmm is PolyBench/C 4.2's trmm, B := alpha·Aᵀ·B with A unit
// lower triangular, ported to Go with [][]float64 matrices (A m×m, B m×n),
// the rows of each cut from one backing array. Row i of B reads the rows
// below it before they are updated, so the rows cannot be split; the
// columns can: -workers goroutines each own the columns [lo, hi) of B and
// run PolyBench's loop nest on them. It prints a checksum of B.
//
// RACY VARIANT, for differential tests: each worker also updates the first
// column of the next worker (off-by-one upper bound), a race on B.
// The line is marked "planted race".
package main

import (
	"flag"
	"fmt"
	"runtime"
	"sync"
)

// trmm sets B to alpha·Aᵀ·B, the columns of B split among workers.
func trmm(workers int, alpha float64, A, B [][]float64) {
	m, n := len(B), len(B[0])
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			lo, hi := w*n/workers, min((w+1)*n/workers+1, n) // planted race: hi is one column too far
			for i := 0; i < m; i++ {
				bi := B[i][lo:hi]
				for k := i + 1; k < m; k++ {
					a := A[k][i]
					for j, bkj := range B[k][lo:hi] {
						bi[j] += a * bkj
					}
				}
				for j := range bi {
					bi[j] *= alpha
				}
			}
		})
	}
	wg.Wait()
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

// initArrays fills A and B as PolyBench's init_array does.
func initArrays(m, n int) (A, B [][]float64) {
	A, B = newMatrix(m, m), newMatrix(m, n)
	for i := range m {
		for j := range i {
			A[i][j] = float64((i+j)%m) / float64(m)
		}
		A[i][i] = 1
		for j := range n {
			B[i][j] = float64((n+(i-j))%n) / float64(n)
		}
	}
	return A, B
}

func main() {
	m := flag.Int("m", 1050, "rows and columns of A, rows of B")
	n := flag.Int("n", 1250, "columns of B")
	workers := flag.Int("workers", runtime.GOMAXPROCS(0), "goroutines")
	flag.Parse()
	A, B := initArrays(*m, *n)
	trmm(*workers, 1.5, A, B)
	sum := 0.0
	for _, row := range B {
		for _, v := range row {
			sum += v
		}
	}
	fmt.Printf("trmm %dx%d: sum %.9e, B[0] %.9e\n", *m, *n, sum, B[0][0])
}
