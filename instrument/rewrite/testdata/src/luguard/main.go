// Command luguard is PolyBench's lu: the pivot row urow, a slice of A, is
// read while the rows below it are written. Its guard is urow up to its
// len against the hull of A's rows (GuardRLen, GuardWRange), which holds,
// so the pruned copy runs as written.
package main

import (
	"fmt"
	"sync"
)

func lu(n, workers int, A []float64) {
	var wg sync.WaitGroup
	for k := 0; k < n; k++ {
		pivot := A[k*n+k]
		urow := A[k*n+k+1 : (k+1)*n]
		rows := n - k - 1
		nw := min(workers, rows)
		for w := range nw {
			wg.Go(func() {
				lo, hi := k+1+w*rows/nw, k+1+(w+1)*rows/nw
				for i := lo; i < hi; i++ {
					r := A[i*n : (i+1)*n]
					r[k] /= pivot
					l := r[k]
					for j, u := range urow {
						r[k+1+j] -= l * u
					}
				}
			})
		}
		wg.Wait()
	}
}

func main() {
	const n = 8
	A := make([]float64, n*n)
	for i := range n {
		for j := range n {
			A[i*n+j] = float64(1 + min(i, j))
		}
	}
	lu(n, 3, A)
	fmt.Println(A[n*n-1])
}
