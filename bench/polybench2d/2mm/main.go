// Command 2mm is PolyBench/C 4.2's 2mm, D := alpha·A·B·C + beta·D, ported
// to Go with [][]float64 matrices (A ni×nk, B nk×nj, C nj×nl, D ni×nl),
// the rows of each sliced from one backing array. Each of the two matrix
// products runs one goroutine per row of its result (wg.Add, go func,
// defer wg.Done), the first into tmp, the second into D. It prints a
// checksum of D.
package main

import (
	"flag"
	"fmt"
	"sync"
)

// mm2 computes tmp := alpha·A·B, then D := tmp·C + beta·D.
func mm2(alpha, beta float64, tmp, A, B, C, D [][]float64) {
	var wg sync.WaitGroup
	for i := range tmp {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := range tmp[i] {
				s := 0.0
				for k, a := range A[i] {
					s += alpha * a * B[k][j]
				}
				tmp[i][j] = s
			}
		}(i)
	}
	wg.Wait()
	for i := range D {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := range D[i] {
				d := D[i][j] * beta
				for k, t := range tmp[i] {
					d += t * C[k][j]
				}
				D[i][j] = d
			}
		}(i)
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

// initArrays fills the matrices as PolyBench's init_array does.
func initArrays(ni, nj, nk, nl int) (A, B, C, D [][]float64) {
	A, B, C, D = newMatrix(ni, nk), newMatrix(nk, nj), newMatrix(nj, nl), newMatrix(ni, nl)
	for i := range ni {
		for k := range nk {
			A[i][k] = float64((i*k+1)%ni) / float64(ni)
		}
		for j := range nl {
			D[i][j] = float64(i*(j+2)%nk) / float64(nk)
		}
	}
	for k := range nk {
		for j := range nj {
			B[k][j] = float64(k*(j+1)%nj) / float64(nj)
		}
	}
	for j := range nj {
		for l := range nl {
			C[j][l] = float64((j*(l+3)+1)%nl) / float64(nl)
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
	tmp := newMatrix(*ni, *nj)
	mm2(1.5, 1.2, tmp, A, B, C, D)
	sum := 0.0
	for _, row := range D {
		for _, v := range row {
			sum += v
		}
	}
	fmt.Printf("2mm %dx%dx%dx%d: sum %.9e, D[last] %.9e\n", *ni, *nj, *nk, *nl, sum, D[*ni-1][*nl-1])
}
