// Command atax is PolyBench/C 4.2's atax, y := Aᵀ·(A·x), ported to Go with
// a [][]float64 matrix A (m×n), each row made on its own. The rows of A
// are split into blocks, one goroutine per block (wg.Go): a block computes
// its part of tmp = A·x through tmp[lo:hi] and its contribution to y into
// a partial vector of its own; the partial vectors are added in block
// order after the join. -reps repeats the kernel. It prints a checksum of
// y.
package main

import (
	"flag"
	"fmt"
	"sync"
)

// atax sets y to Aᵀ·(A·x), with tmp = A·x, in blocks of bs rows.
func atax(bs int, A [][]float64, x, y, tmp []float64) {
	m, n := len(A), len(y)
	nb := (m + bs - 1) / bs
	partial := make([][]float64, nb)
	var wg sync.WaitGroup
	for b := range nb {
		wg.Go(func() {
			lo, hi := b*bs, min((b+1)*bs, m)
			py := make([]float64, n)
			dst := tmp[lo:hi]
			for k, row := range A[lo:hi] {
				t := 0.0
				for j, a := range row {
					t += a * x[j]
				}
				dst[k] = t
				for j, a := range row {
					py[j] += a * t
				}
			}
			partial[b] = py
		})
	}
	wg.Wait()
	clear(y)
	for _, py := range partial {
		for j, v := range py {
			y[j] += v
		}
	}
}

// initArrays fills A and x as PolyBench's init_array does.
func initArrays(m, n int) (A [][]float64, x []float64) {
	A, x = make([][]float64, m), make([]float64, n)
	for j := range n {
		x[j] = 1 + float64(j)/float64(n)
	}
	for i := range A {
		A[i] = make([]float64, n)
		for j := range A[i] {
			A[i][j] = float64((i+j)%n) / float64(5*m)
		}
	}
	return A, x
}

func main() {
	m := flag.Int("m", 1900, "rows of A")
	n := flag.Int("n", 2100, "columns of A")
	bs := flag.Int("bs", 64, "rows per goroutine")
	reps := flag.Int("reps", 90, "times the kernel runs")
	flag.Parse()
	A, x := initArrays(*m, *n)
	y, tmp := make([]float64, *n), make([]float64, *m)
	for range *reps {
		atax(*bs, A, x, y, tmp)
	}
	sum := 0.0
	for _, v := range y {
		sum += v
	}
	fmt.Printf("atax %dx%d: sum %.9e, y[last] %.9e\n", *m, *n, sum, y[len(y)-1])
}
