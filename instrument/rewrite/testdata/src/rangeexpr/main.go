package main

import (
	"fmt"
	"sync"
)

// The loops below range over expressions that cannot be evaluated again
// (a sub-slice, a row of a [][]T, a call, a pointer to an array): their
// element reads are checked through a temporary holding the expression's
// value. Rows are chosen through (i*3)%n so that nothing is proven.

type grid struct{ rows [][]float64 }

func (g *grid) row(r int) []float64 { return g.rows[r] }

// next: each goroutine writes the first element of its row and sums the
// next row through a sub-slice: a race with the goroutine owning that row.
func next(B []float64, out []float64, n int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			B[r*n] = 1
			s := 0.0
			for _, v := range B[((r+1)%n)*n : ((r+1)%n)*n+n] {
				s += v
			}
			out[r] = s
		})
	}
	wg.Wait()
}

// own: the same over its own row (no race), through a row of a [][]T, a
// method call, and a labelled loop with continue.
func own(g *grid, out []float64, n int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			g.rows[r][0] = 2
			s := 0.0
			for _, v := range g.rows[r] {
				s += v
			}
			for j, v := range g.row(r) {
				s += v * float64(j)
			}
		rows:
			for k, v := range g.rows[r][1:] {
				if v < 0 {
					continue rows
				}
				s += float64(k)
			}
			out[r] = s
		})
	}
	wg.Wait()
}

// arr: a pointer to an array from an expression.
func arr(as []*[4]int, out []int, n int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			for _, v := range as[r%len(as)] {
				out[r] += v
			}
		})
	}
	wg.Wait()
}

func main() {
	n := 5
	B, out := make([]float64, n*n), make([]float64, n)
	next(B, out, n)
	g := &grid{rows: make([][]float64, n)}
	for r := range g.rows {
		g.rows[r] = make([]float64, n)
	}
	own(g, out, n)
	as := []*[4]int{{1, 2, 3, 4}}
	outs := make([]int, n)
	arr(as, outs, n)
	fmt.Println(out[0], outs[0])
}
