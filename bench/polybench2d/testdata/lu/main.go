// Command lu is PolyBench/C 4.2's lu, the LU decomposition of an n×n matrix
// without pivoting (L unit lower, U upper, both stored in A), ported to Go
// with a [][]float64 matrix, its rows cut from one backing array.
// PolyBench's loop nest is row by row (Doolittle), which carries a
// dependence between rows; the parallel version is the right-looking one a
// Go programmer would write: for each pivot k, the rows below it are split
// among -workers goroutines (wg.Go), each dividing its rows' column k by
// the pivot and updating the rest of its rows from row k. The two orders do
// the same operations in the same sequence per element. It prints a
// checksum of A.
//
// RACY VARIANT, for differential tests: each worker starts one row early:
// the first worker rewrites the pivot row that the others read as urow, and
// neighbouring workers share a row.
// The line is marked "planted race".
package main

import (
	"flag"
	"fmt"
	"runtime"
	"sync"
)

// lu factors A in place, the rows below each pivot split among workers.
func lu(workers int, A [][]float64) {
	n := len(A)
	var wg sync.WaitGroup
	for k := 0; k < n; k++ {
		pivot := A[k][k]
		urow := A[k][k+1:]
		rows := n - k - 1
		nw := min(workers, rows)
		for w := range nw {
			wg.Go(func() {
				lo, hi := k+w*rows/nw, k+1+(w+1)*rows/nw // planted race: lo lost its +1
				for _, r := range A[lo:hi] {
					r[k] /= pivot
					l := r[k]
					rest := r[k+1:]
					for j, u := range urow {
						rest[j] -= l * u
					}
				}
			})
		}
		wg.Wait()
	}
}

// newMatrix returns an n×n matrix of zeros, its rows cut from one
// allocation.
func newMatrix(n int) [][]float64 {
	data := make([]float64, n*n)
	m := make([][]float64, n)
	for i := range m {
		m[i] = data[i*n : (i+1)*n : (i+1)*n]
	}
	return m
}

// initArray fills A as PolyBench's init_array does: a lower triangular L
// with unit diagonal, then A = L·Lᵀ, positive definite. The sum skips the
// zeros above L's diagonal (PolyBench adds them), which leaves every sum
// the same and makes the set-up n³/3 instead of n³.
func initArray(n int) [][]float64 {
	L := newMatrix(n)
	for i := range n {
		for j := 0; j <= i; j++ {
			L[i][j] = float64(-j%n)/float64(n) + 1
		}
		L[i][i] = 1
	}
	A := newMatrix(n)
	for r := range n {
		for s := range n {
			sum := 0.0
			for t := range min(r, s) + 1 {
				sum += L[r][t] * L[s][t]
			}
			A[r][s] = sum
		}
	}
	return A
}

func main() {
	n := flag.Int("n", 950, "rows and columns of A")
	workers := flag.Int("workers", runtime.GOMAXPROCS(0), "goroutines per pivot")
	flag.Parse()
	A := initArray(*n)
	lu(*workers, A)
	sum := 0.0
	for _, row := range A {
		for _, v := range row {
			sum += v
		}
	}
	fmt.Printf("lu %d: sum %.9e, A[last] %.9e\n", *n, sum, A[*n-1][*n-1])
}
