package main

import (
	"fmt"
	"sync"
)

// Range loops over a sub-slice range over a temporary holding it
// (rangetemp.go), and their element reads are checked before the loop as
// one span of the temporary (coalesce.go), as a loop over a slice
// variable is.

// gemm: each block of rows of C adds A·B through the rows of B,
// `for j, bkj := range B[k*nj : (k+1)*nj]`. With racy, block 0 also
// writes an element of row 1 of B, which every block reads: a race,
// reported at the element of the range. The value written is the one B
// holds, so what the program prints does not depend on the race.
func gemm(C, A, B []float64, ni, nj, nk, bs int, racy bool) {
	var wg sync.WaitGroup
	for b := 0; b*bs < ni; b++ {
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs, ni)
			if racy && b == 0 {
				B[1*nj+2] = 3
			}
			for i := lo; i < hi; i++ {
				c := C[i*nj : (i+1)*nj]
				for k := range nk {
					a := A[i*nk+k]
					for j, bkj := range B[k*nj : (k+1)*nj] {
						c[j] += a * bkj
					}
				}
			}
		})
	}
	wg.Wait()
}

// sums: each block sums its own part of in, `for _, v := range
// in[lo:hi]`, and writes its own sum: no race.
func sums(in, out []float64, blocks int) {
	var wg sync.WaitGroup
	for b := range blocks {
		wg.Go(func() {
			s := 0.0
			for _, v := range in[b*len(in)/blocks : (b+1)*len(in)/blocks] {
				s += v
			}
			out[b] = s
		})
	}
	wg.Wait()
}

// shift: blocks 2r and 2r+1 both shift row r of B left by one through
// `range B[r*n+1 : r*n+n]`, writing B[r*n+j]: the run read and the run
// written are one array from different elements, so they are checked per
// element (rt.SpansApart fails), and the two blocks race on the row. The
// row holds one value, so the shift leaves it as it was.
func shift(B []float64, n, rows int) {
	var wg sync.WaitGroup
	for i := range 2 * rows {
		wg.Go(func() {
			r := i / 2
			for j, v := range B[r*n+1 : r*n+n] {
				B[r*n+j] = v
			}
		})
	}
	wg.Wait()
}

func main() {
	ni, nj, nk, bs := 6, 5, 4, 2
	C, A, B := make([]float64, ni*nj), make([]float64, ni*nk), make([]float64, nk*nj)
	for i := range A {
		A[i] = float64(i%3 + 1)
	}
	for i := range B {
		B[i] = 3
	}
	gemm(C, A, B, ni, nj, nk, bs, true)
	out := make([]float64, 3)
	sums(C, out, len(out))
	shift(B, nj, nk)
	fmt.Println(C[0], C[len(C)-1], out[0]+out[1]+out[2], B[0]+B[len(B)-1])
}
