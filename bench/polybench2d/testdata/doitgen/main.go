// Command doitgen is PolyBench/C 4.2's doitgen, the multiresolution
// analysis kernel A[r][q][:] := A[r][q][:]·C4, ported to Go with a
// [][][]float64 array A (nr×nq×np) and a [][]float64 matrix C4 (np×np),
// every innermost row made on its own. One goroutine per r (wg.Go), each
// with its own sum buffer of np elements, rewrites the nq rows A[r][q].
// -reps repeats the kernel. It prints a checksum of A.
//
// RACY VARIANT, for differential tests: the sum buffer is allocated once,
// outside the goroutines, and shared by all of them, a race on sum.
// The line is marked "planted race".
package main

import (
	"flag"
	"fmt"
	"sync"
)

// doitgen multiplies every row A[r][q] by C4, one goroutine per r.
func doitgen(A [][][]float64, C4 [][]float64) {
	np := len(C4)
	var wg sync.WaitGroup
	sum := make([]float64, np) // planted race: one sum buffer shared by every goroutine
	for r := range A {
		wg.Go(func() {
			for _, row := range A[r] {
				for p := range sum {
					s := 0.0
					for k, a := range row {
						s += a * C4[k][p]
					}
					sum[p] = s
				}
				copy(row, sum)
			}
		})
	}
	wg.Wait()
}

// initArrays fills A and C4 as PolyBench's init_array does.
func initArrays(nr, nq, np int) (A [][][]float64, C4 [][]float64) {
	A, C4 = make([][][]float64, nr), make([][]float64, np)
	for r := range A {
		A[r] = make([][]float64, nq)
		for q := range A[r] {
			A[r][q] = make([]float64, np)
			for p := range A[r][q] {
				A[r][q][p] = float64((r*q+p)%np) / float64(np)
			}
		}
	}
	for i := range C4 {
		C4[i] = make([]float64, np)
		for j := range C4[i] {
			C4[i][j] = float64(i*j%np) / float64(np)
		}
	}
	return A, C4
}

func main() {
	nr := flag.Int("nr", 90, "r extent")
	nq := flag.Int("nq", 110, "q extent")
	np := flag.Int("np", 128, "p extent")
	reps := flag.Int("reps", 4, "times the kernel runs")
	flag.Parse()
	A, C4 := initArrays(*nr, *nq, *np)
	for range *reps {
		doitgen(A, C4)
	}
	sum := 0.0
	for _, slab := range A {
		for _, row := range slab {
			for _, v := range row {
				sum += v
			}
		}
	}
	fmt.Printf("doitgen %dx%dx%d: sum %.9e, A[last] %.9e\n", *nr, *nq, *np, sum, A[*nr-1][*nq-1][*np-1])
}
