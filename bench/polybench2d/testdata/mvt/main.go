// Command mvt is PolyBench/C 4.2's mvt, x1 += A·y1 and x2 += Aᵀ·y2, ported
// to Go with a [][]float64 matrix A (n×n), each row made on its own. Each
// product is its own parallel loop over blocks of -bs elements of its
// result, one goroutine per block (wg.Go) writing dst := x[lo:hi]: the
// first walks rows of A, the second columns. -reps repeats the kernel. It
// prints a checksum of x1 and x2.
//
// RACY VARIANT, for differential tests: the blocks of the second product
// overlap by one element of x2 (off-by-one upper bound), a read-modify-write
// race on x2.
// The line is marked "planted race".
package main

import (
	"flag"
	"fmt"
	"sync"
)

// mvt adds A·y1 to x1 and Aᵀ·y2 to x2, in blocks of bs elements.
func mvt(bs int, A [][]float64, x1, x2, y1, y2 []float64) {
	n := len(A)
	var wg sync.WaitGroup
	for b := 0; b*bs < n; b++ {
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs, n)
			dst := x1[lo:hi]
			for k, row := range A[lo:hi] {
				for j, a := range row {
					dst[k] += a * y1[j]
				}
			}
		})
	}
	wg.Wait()
	for b := 0; b*bs < n; b++ {
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs+1, n) // planted race: hi is one element too far
			dst := x2[lo:hi]
			for j, row := range A {
				for k, a := range row[lo:hi] {
					dst[k] += a * y2[j]
				}
			}
		})
	}
	wg.Wait()
}

// initArrays fills the arrays as PolyBench's init_array does.
func initArrays(n int) (A [][]float64, x1, x2, y1, y2 []float64) {
	A = make([][]float64, n)
	x1, x2, y1, y2 = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		x1[i] = float64(i%n) / float64(n)
		x2[i] = float64((i+1)%n) / float64(n)
		y1[i] = float64((i+3)%n) / float64(n)
		y2[i] = float64((i+4)%n) / float64(n)
		A[i] = make([]float64, n)
		for j := range n {
			A[i][j] = float64(i*j%n) / float64(n)
		}
	}
	return A, x1, x2, y1, y2
}

func main() {
	n := flag.Int("n", 2000, "rows and columns of A")
	bs := flag.Int("bs", 64, "elements of x1 or x2 per goroutine")
	reps := flag.Int("reps", 24, "times the kernel runs")
	flag.Parse()
	A, x1, x2, y1, y2 := initArrays(*n)
	for range *reps {
		mvt(*bs, A, x1, x2, y1, y2)
	}
	s1, s2 := 0.0, 0.0
	for i := range x1 {
		s1 += x1[i]
		s2 += x2[i]
	}
	fmt.Printf("mvt %d: sum x1 %.9e, sum x2 %.9e\n", *n, s1, s2)
}
