// Command syrk is PolyBench/C 4.2's syrk, C := alpha·A·Aᵀ + beta·C on the
// lower triangle, ported to Go with flat []float64 matrices (A n×m, C n×n).
// Row i of C has i+1 elements to update, so the rows are dealt cyclically
// to -workers goroutines (row i to worker i mod workers) to balance the
// triangle; each updates its rows through c := C[i*n : i*n+i+1]. It prints
// a checksum of C.
package main

import (
	"flag"
	"fmt"
	"runtime"
	"sync"
)

// syrk updates the lower triangle of C, rows dealt cyclically to workers.
func syrk(n, m, workers int, alpha, beta float64, C, A []float64) {
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				c := C[i*n : i*n+i+1]
				for j := range c {
					c[j] *= beta
				}
				for k := range m {
					a := alpha * A[i*m+k]
					for j := range c {
						c[j] += a * A[j*m+k]
					}
				}
			}
		})
	}
	wg.Wait()
}

// initArrays fills C and A as PolyBench's init_array does.
func initArrays(n, m int) (C, A []float64) {
	C, A = make([]float64, n*n), make([]float64, n*m)
	for i := range n {
		for j := range m {
			A[i*m+j] = float64((i*j+1)%n) / float64(n)
		}
		for j := range n {
			C[i*n+j] = float64((i*j+2)%m) / float64(m)
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
	syrk(*n, *m, *workers, 1.5, 1.2, C, A)
	sum := 0.0
	for _, v := range C {
		sum += v
	}
	fmt.Printf("syrk %dx%d: sum %.9e, C[last] %.9e\n", *n, *m, sum, C[len(C)-1])
}
