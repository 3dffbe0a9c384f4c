// Command search is the multi-directional search kernel: Torczon's parallel
// direct search on the chained Rosenbrock function in -n dimensions, for
// -steps steps. Every step moves the n non-best vertices of the simplex in
// parallel loops that update S[index[i]][j] through the index array (the
// paper's Figure 4 pattern), one goroutine per vertex, each calling the
// sequential function f on its vertex. It prints a checksum.
//
// RACY VARIANT, for differential tests: the move loop starts at vertex 0,
// the best one, which every other goroutine reads (off-by-one lower bound).
// The line is marked "planted race".
package main

import (
	"flag"
	"fmt"
	"sync"
)

type simplex struct {
	n     int
	S     [][]float64
	fv    []float64
	index []int
}

func newSimplex(n int) *simplex {
	s := &simplex{n: n, S: make([][]float64, n+1), fv: make([]float64, n+1), index: make([]int, n+1)}
	for k := range s.S {
		s.S[k] = make([]float64, n)
		for j := range n {
			s.S[k][j] = -1.2 + 0.01*float64(j%5)
		}
		if k > 0 {
			s.S[k][k-1] += 0.5
		}
		s.index[k] = k
	}
	s.move(1) // evaluates every vertex but the first; v0 + 1*(v - v0) == v
	s.fv[s.index[0]] = s.f(s.index[0])
	s.promote()
	return s
}

// f is the chained Rosenbrock function at vertex k.
func (s *simplex) f(k int) float64 {
	x := s.S[k]
	sum := 0.0
	for j := 0; j+1 < len(x); j++ {
		a := x[j+1] - x[j]*x[j]
		b := 1 - x[j]
		sum += 100*a*a + b*b
	}
	return sum
}

// move sets every vertex but the best to v0 + c*(v - v0) and evaluates it.
func (s *simplex) move(c float64) {
	var wg sync.WaitGroup
	for i := 0; i <= s.n; i++ { // planted race: 0 is the best vertex, read by every goroutine
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range s.n {
				s.S[s.index[i]][j] = s.S[s.index[0]][j] + c*(s.S[s.index[i]][j]-s.S[s.index[0]][j])
			}
			s.fv[s.index[i]] = s.f(s.index[i])
		}()
	}
	wg.Wait()
}

func (s *simplex) best() int {
	b := 1
	for i := 2; i <= s.n; i++ {
		if s.fv[s.index[i]] < s.fv[s.index[b]] {
			b = i
		}
	}
	return b
}

func (s *simplex) promote() {
	b := s.best()
	if s.fv[s.index[b]] < s.fv[s.index[0]] {
		s.index[0], s.index[b] = s.index[b], s.index[0]
	}
}

func (s *simplex) step() {
	f0 := s.fv[s.index[0]]
	s.move(-1)
	fr := s.fv[s.index[s.best()]]
	if fr < f0 {
		s.move(2)
		if s.fv[s.index[s.best()]] >= fr {
			s.move(0.5)
		}
	} else {
		s.move(-0.5)
	}
	s.promote()
}

func main() {
	n := flag.Int("n", 600, "dimensions")
	steps := flag.Int("steps", 160, "steps")
	flag.Parse()
	s := newSimplex(*n)
	for range *steps {
		s.step()
	}
	sum := 0.0
	for _, x := range s.S[s.index[0]] {
		sum += x
	}
	fmt.Printf("search n=%d steps=%d: best f %.6e, coordinate sum %.6e\n", *n, *steps, s.fv[s.index[0]], sum)
}
