// Command matmul is the dense matrix product kernel: C = A·B for -n×-n
// matrices held as [][]float64 rows, repeated -reps times, in a parallel
// loop with one goroutine per row of C. It prints a checksum.
//
// RACY VARIANT, for differential tests: every row's goroutine adds its
// diagonal element into one shared trace, a shared accumulator.
// The line is marked "planted race".
package main

import (
	"flag"
	"fmt"
	"sync"
)

func newMatrix(n int, f func(i, j int) float64) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
		for j := range m[i] {
			m[i][j] = f(i, j)
		}
	}
	return m
}

// mul sets c = a·b, one goroutine per row (i-k-j order: the inner loop
// streams through a row of b and of c).
func mul(c, a, b [][]float64) (trace float64) {
	var wg sync.WaitGroup
	for i := range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ci := c[i]
			clear(ci)
			for k, aik := range a[i] {
				bk := b[k]
				for j := range ci {
					ci[j] += aik * bk[j]
				}
			}
			trace += ci[i] // planted race: one trace shared by every row
		}()
	}
	wg.Wait()
	return trace
}

func main() {
	n := flag.Int("n", 850, "matrix order")
	reps := flag.Int("reps", 1, "products")
	flag.Parse()
	a := newMatrix(*n, func(i, j int) float64 { return float64((i*7+j*3)%11-5) / 8 })
	b := newMatrix(*n, func(i, j int) float64 { return float64((i*5+j*13)%17-8) / 16 })
	c := newMatrix(*n, func(i, j int) float64 { return 0 })
	trace := 0.0
	for range *reps {
		trace = mul(c, a, b)
	}
	sum := 0.0
	for _, row := range c {
		for _, v := range row {
			sum += v
		}
	}
	fmt.Printf("matmul n=%d reps=%d: sum %.6e, trace %.6e\n", *n, *reps, sum, trace)
}
