// Command doitgen is PolyBench/C 4.2's doitgen, the multiresolution
// analysis kernel A[r][q][:] := A[r][q][:]·C4, ported to Go with flat
// []float64 arrays (A nr×nq×np, C4 np×np). One goroutine per r (wg.Go),
// each with its own sum buffer of np elements, rewrites the nq rows of
// its slab A[r*nq*np : (r+1)*nq*np]. -reps repeats the kernel. It prints a
// checksum of A.
package main

import (
	"flag"
	"fmt"
	"sync"
)

// doitgen multiplies every row A[r][q][:] by C4, one goroutine per r.
func doitgen(nr, nq, np int, A, C4 []float64) {
	var wg sync.WaitGroup
	for r := range nr {
		wg.Go(func() {
			sum := make([]float64, np)
			slab := A[r*nq*np : (r+1)*nq*np]
			for q := range nq {
				row := slab[q*np : (q+1)*np]
				for p := range np {
					s := 0.0
					for k, a := range row {
						s += a * C4[k*np+p]
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
func initArrays(nr, nq, np int) (A, C4 []float64) {
	A, C4 = make([]float64, nr*nq*np), make([]float64, np*np)
	for r := range nr {
		for q := range nq {
			for p := range np {
				A[(r*nq+q)*np+p] = float64((r*q+p)%np) / float64(np)
			}
		}
	}
	for i := range np {
		for j := range np {
			C4[i*np+j] = float64(i*j%np) / float64(np)
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
		doitgen(*nr, *nq, *np, A, C4)
	}
	sum := 0.0
	for _, v := range A {
		sum += v
	}
	fmt.Printf("doitgen %dx%dx%d: sum %.9e, A[last] %.9e\n", *nr, *nq, *np, sum, A[len(A)-1])
}
