package main

import (
	"fmt"
	"sync"
)

// weights are read by every row sum and written by none: goroutine i of
// rowSums writes weights[0] only when i == rows, which it never is, so
// the reads of weights stay checked.
var weights = []float64{1, 1, 1, 1}

// rowSums sums each row of B, weighted, into sums. It runs as a root
// construct (from main), where the heap proof covers the reads of B's
// rows, and in its clone (from a goroutine), where they are checked: one
// loop, two copies, a temporary in only one of them.
func rowSums(B, sums []float64, rows, n int) {
	var wg sync.WaitGroup
	for i := range rows {
		wg.Go(func() {
			if i == rows {
				weights[0] = 2
			}
			s := 0.0
			for j, v := range B[i*n : (i+1)*n] {
				s += v * weights[j]
			}
			sums[i] = s
		})
	}
	wg.Wait()
}

func main() {
	B := make([]float64, 16)
	for i := range B {
		B[i] = float64(i)
	}
	sums := make([]float64, 4)
	rowSums(B, sums, 4, 4)
	parts := make([][]float64, 2)
	var wg sync.WaitGroup
	for k := range 2 {
		wg.Go(func() {
			parts[k] = make([]float64, 2)
			rowSums(B[k*8:k*8+8], parts[k], 2, 4)
		})
	}
	wg.Wait()
	fmt.Println(sums, parts)
}
