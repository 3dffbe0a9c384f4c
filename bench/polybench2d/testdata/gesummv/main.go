// Command gesummv is PolyBench/C 4.2's gesummv, y := alpha·A·x + beta·B·x,
// ported to Go with [][]float64 matrices A and B (n×n), each row made on
// its own. A worker pool of -workers goroutines takes blocks of -bs rows
// from a channel; a block writes tmp[lo:hi] and y[lo:hi]. -reps repeats
// the kernel. It prints a checksum of y.
//
// RACY VARIANT, for differential tests: the row accumulators t and s are
// declared once, outside the workers, and shared by all of them, a race on t
// and s.
// The line is marked "planted race".
package main

import (
	"flag"
	"fmt"
	"runtime"
	"sync"
)

// gesummv sets y to alpha·A·x + beta·B·x, with tmp = A·x, by a pool of
// workers over blocks of bs rows.
func gesummv(bs, workers int, alpha, beta float64, A, B [][]float64, x, tmp, y []float64) {
	n := len(y)
	blocks := make(chan int)
	var wg sync.WaitGroup
	var t, s float64 // planted race: the accumulators are shared by the workers
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for lo := range blocks {
				hi := min(lo+bs, n)
				for i := lo; i < hi; i++ {
					t, s = 0, 0
					a, b := A[i], B[i]
					for j, xj := range x {
						t = a[j]*xj + t
						s = b[j]*xj + s
					}
					tmp[i] = t
					y[i] = alpha*t + beta*s
				}
			}
		}()
	}
	for lo := 0; lo < n; lo += bs {
		blocks <- lo
	}
	close(blocks)
	wg.Wait()
}

// initArrays fills A, B and x as PolyBench's init_array does.
func initArrays(n int) (A, B [][]float64, x []float64) {
	A, B, x = make([][]float64, n), make([][]float64, n), make([]float64, n)
	for i := range n {
		x[i] = float64(i%n) / float64(n)
		A[i], B[i] = make([]float64, n), make([]float64, n)
		for j := range n {
			A[i][j] = float64((i*j+1)%n) / float64(n)
			B[i][j] = float64((i*j+2)%n) / float64(n)
		}
	}
	return A, B, x
}

func main() {
	n := flag.Int("n", 1800, "rows and columns of A and B")
	bs := flag.Int("bs", 32, "rows per block")
	workers := flag.Int("workers", runtime.GOMAXPROCS(0), "goroutines in the pool")
	reps := flag.Int("reps", 120, "times the kernel runs")
	flag.Parse()
	A, B, x := initArrays(*n)
	tmp, y := make([]float64, *n), make([]float64, *n)
	for range *reps {
		gesummv(*bs, *workers, 1.5, 1.2, A, B, x, tmp, y)
	}
	sum := 0.0
	for _, v := range y {
		sum += v
	}
	fmt.Printf("gesummv %d: sum %.9e, y[last] %.9e\n", *n, sum, y[len(y)-1])
}
