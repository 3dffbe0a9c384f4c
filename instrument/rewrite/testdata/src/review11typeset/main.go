package main

import (
	"fmt"
	"sync"
)

// pick sums A at the position idx[0] names while it numbers marks. With
// I = int, idx and marks may be one slice: the loop's first write moves
// idx[0], and the reads of A that follow are of another element than the
// one idx[0] named before the loop.
func pick[I ~int](idx []I, A []float64, marks []int, n int) float64 {
	s := 0.0
	for j := range n {
		marks[j] = j + 1
		s += A[idx[0]]
	}
	return s
}

// cell and slot have one layout and different tags, so a *slot may point
// to a cell: a write of p.At is a write of cs[0].At.
type cell struct {
	At int `json:"at"`
}

type slot struct{ At int }

// shift sums A at cs[0].At while it moves p.At.
func shift(cs []cell, p *slot, A []float64, n int) float64 {
	s := 0.0
	for j := range n {
		p.At = j + 2
		s += A[cs[0].At]
	}
	return s
}

// main: goroutine 0 reads A[1] (pick) and A[2] (shift) only after its
// own writes moved the index there; goroutine 1 writes A[1] and A[2].
func main() {
	A := make([]float64, 8)
	sums := make([]float64, 2)
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() {
			if g == 1 {
				A[1], A[2] = 1, 1
				return
			}
			m := make([]int, 4)
			sums[0] = pick(m, A, m, 4)
			cs := make([]cell, 1)
			sums[1] = shift(cs, (*slot)(&cs[0]), A, 4)
		})
	}
	wg.Wait()
	fmt.Println(len(A), len(sums))
}
