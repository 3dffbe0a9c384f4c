package main

import (
	"fmt"
	"sync"
)

// sumRow sums a window of B, jumping past the loop when the window is
// empty: the goto jumps over the temporary the loop ranges over, which
// must not be declared in the goto's block.
func sumRow(B []float64, lo, hi int) float64 {
	s := 0.0
	if lo >= hi {
		goto done
	}
	for _, v := range B[lo:hi] {
		s += v
	}
done:
	return s
}

// scan is the same with a labelled loop that continues itself.
func scan(B []float64, lo, hi int) int {
	n := 0
	if lo >= hi {
		goto out
	}
rows:
	for j, v := range B[lo:hi] {
		if v < 0 {
			continue rows
		}
		n += j
	}
out:
	return n
}

// gather fills out from in through idx in parallel, unless there is
// nothing to do: the goto jumps past the whole construct, over the
// variables its rewrite declares.
func gather(out, in []float64, idx []int) int {
	var wg sync.WaitGroup
	if len(out) == 0 {
		goto done
	}
	for i := range out {
		wg.Go(func() {
			out[i] = in[idx[i]]
		})
	}
	wg.Wait()
done:
	return len(out)
}

func main() {
	B := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	out := make([]float64, 4)
	idx := make([]int, 4)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			out[i] = sumRow(B, 2*i, 2*i+2)
			idx[i] = scan(B, 2*i, 2*i+2) + scan(B, i, i)
		})
	}
	wg.Wait()
	g := make([]float64, 3)
	n := gather(g, B, []int{7, 0, 3}) + gather(nil, B, nil)
	fmt.Println(out, idx, g, n)
}
