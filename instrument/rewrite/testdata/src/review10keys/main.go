package main

import (
	"fmt"
	"sync"
)

// clash: goroutine r reads column r+2 of B and writes its row r of A, a
// view of B from row 1 on: the column crosses the row, and goroutine r
// reads B[(r+1)*n+r+2] (k = r+1) before it writes it (k = r+2). The
// row's checks may move before the loop only if it is apart from all of
// B; a conditional read of B[k] beside them has an apartness test of its
// own, against B[0:n], which the row passes.
func clash(A, B []float64, flag []bool, n int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			if r == 1 {
				B[n+2] = 1 // the element goroutine 0 reads, then writes
			}
			s := 0.0
			for k := 0; k < n; k++ {
				if flag[k] {
					s += B[k]
				}
				s += B[k*n+r+2]
				A[r*n+k] = s
			}
		})
	}
	wg.Wait()
}

func main() {
	n := 4
	B := make([]float64, n*n+2*n)
	flag := make([]bool, n)
	flag[1] = true
	clash(B[n:], B, flag, n)
	fmt.Println(len(B)) // B[n+2] is the race's: TestGolden compares the plain and checked output
}
