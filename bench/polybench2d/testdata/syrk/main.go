// Command syrk is PolyBench/C 4.2's syrk, C := alpha·A·Aᵀ + beta·C on the
// lower triangle, ported to Go with [][]float64 matrices (A n×m, C n×n),
// each row made on its own. Row i of C has i+1 elements to update, so the
// rows are dealt cyclically to -workers goroutines (row i to worker
// i mod workers) to balance the triangle; each updates its rows through
// c := C[i][:i+1]. It prints a checksum of C.
//
// RACY VARIANT, for differential tests: one worker too many is started;
// worker `workers` takes rows workers, 2·workers, … which worker 0 also
// updates, a write/write race on C.
// The line is marked "planted race".
package main

import (
	"flag"
	"fmt"
	"runtime"
	"sync"
)

// syrk updates the lower triangle of C, rows dealt cyclically to workers.
func syrk(workers int, alpha, beta float64, C, A [][]float64) {
	n := len(C)
	var wg sync.WaitGroup
	for w := 0; w <= workers; w++ { // planted race: one worker too many
		wg.Go(func() {
			for i := w; i < n; i += workers {
				c := C[i][:i+1]
				for j := range c {
					c[j] *= beta
				}
				for k, aik := range A[i] {
					a := alpha * aik
					for j := range c {
						c[j] += a * A[j][k]
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

// initArrays fills C and A as PolyBench's init_array does.
func initArrays(n, m int) (C, A [][]float64) {
	C, A = newMatrix(n, n), newMatrix(n, m)
	for i := range n {
		for j := range m {
			A[i][j] = float64((i*j+1)%n) / float64(n)
		}
		for j := range n {
			C[i][j] = float64((i*j+2)%m) / float64(m)
		}
	}
	return C, A
}

func main() {
	n := flag.Int("n", 1150, "rows and columns of C, rows of A")
	m := flag.Int("m", 820, "columns of A")
	workers := flag.Int("workers", runtime.GOMAXPROCS(0), "goroutines")
	flag.Parse()
	C, A := initArrays(*n, *m)
	syrk(*workers, 1.5, 1.2, C, A)
	sum := 0.0
	for _, row := range C {
		for _, v := range row {
			sum += v
		}
	}
	fmt.Printf("syrk %dx%d: sum %.9e, C[last] %.9e\n", *n, *m, sum, C[*n-1][*n-1])
}
