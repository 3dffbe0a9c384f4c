// Command 2mm is PolyBench/C 4.2's 2mm, D := alpha·A·B·C + beta·D, ported
// to Go with flat []float64 matrices (A ni×nk, B nk×nj, C nj×nl, D ni×nl).
// Each of the two matrix products runs one goroutine per row of its result
// (wg.Add, go func, defer wg.Done), the first into tmp, the second into D.
// It prints a checksum of D.
package main

import (
	"flag"
	"fmt"
	"sync"
)

// mm2 computes tmp := alpha·A·B, then D := tmp·C + beta·D.
func mm2(ni, nj, nk, nl int, alpha, beta float64, tmp, A, B, C, D []float64) {
	var wg sync.WaitGroup
	for i := 0; i < ni; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < nj; j++ {
				s := 0.0
				for k := 0; k < nk; k++ {
					s += alpha * A[i*nk+k] * B[k*nj+j]
				}
				tmp[i*nj+j] = s
			}
		}(i)
	}
	wg.Wait()
	for i := 0; i < ni; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < nl; j++ {
				d := D[i*nl+j] * beta
				for k := 0; k < nj; k++ {
					d += tmp[i*nj+k] * C[k*nl+j]
				}
				D[i*nl+j] = d
			}
		}(i)
	}
	wg.Wait()
}

// initArrays fills the matrices as PolyBench's init_array does.
func initArrays(ni, nj, nk, nl int) (A, B, C, D []float64) {
	A, B, C, D = make([]float64, ni*nk), make([]float64, nk*nj), make([]float64, nj*nl), make([]float64, ni*nl)
	for i := range ni {
		for k := range nk {
			A[i*nk+k] = float64((i*k+1)%ni) / float64(ni)
		}
		for j := range nl {
			D[i*nl+j] = float64(i*(j+2)%nk) / float64(nk)
		}
	}
	for k := range nk {
		for j := range nj {
			B[k*nj+j] = float64(k*(j+1)%nj) / float64(nj)
		}
	}
	for j := range nj {
		for l := range nl {
			C[j*nl+l] = float64((j*(l+3)+1)%nl) / float64(nl)
		}
	}
	return A, B, C, D
}

func main() {
	ni := flag.Int("ni", 540, "rows of A and D")
	nj := flag.Int("nj", 600, "columns of B, rows of C")
	nk := flag.Int("nk", 740, "columns of A, rows of B")
	nl := flag.Int("nl", 800, "columns of C and D")
	flag.Parse()
	A, B, C, D := initArrays(*ni, *nj, *nk, *nl)
	tmp := make([]float64, *ni**nj)
	mm2(*ni, *nj, *nk, *nl, 1.5, 1.2, tmp, A, B, C, D)
	sum := 0.0
	for _, v := range D {
		sum += v
	}
	fmt.Printf("2mm %dx%dx%dx%d: sum %.9e, D[last] %.9e\n", *ni, *nj, *nk, *nl, sum, D[len(D)-1])
}
