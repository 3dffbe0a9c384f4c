// Command racy minimises the chained Rosenbrock function in n dimensions
// with Torczon's multi-directional search, the parallel direct search that
// Hood, Kennedy and Mellor-Crummey (1990) use as their example. It is the
// version with a planted race; ../clean is the race-free version.
//
// The simplex S has n+1 vertices. index orders them only as far as the
// search needs: index[0] is the best vertex v0. Every step moves all other
// vertices v to v0 + c*(v - v0) in a parallel loop over the vertices and
// evaluates f at each, through the index array, as in the paper's Figure 4:
//
//	S[index[i]][j] = S[index[0]][j] + c*(S[index[i]][j]-S[index[0]][j])
//	fv[index[i]] = f(index[i])
//
// Whether two iterations touch the same vertex depends on the values in
// index, so a compiler cannot prove the loop independent; goanomaly checks
// these accesses at run time.
package main

import (
	"flag"
	"fmt"
	"sync"
)

// simplex is the state of the search.
type simplex struct {
	n     int
	S     [][]float64 // S[k] is vertex k
	fv    []float64   // fv[k] = f(S[k])
	index []int       // index[0] is the best vertex; index[1:] are the others
}

// newSimplex returns the simplex with vertices x0 and x0 + h*e_j, evaluated.
func newSimplex(n int, x0, h float64) *simplex {
	s := &simplex{n: n, S: make([][]float64, n+1), fv: make([]float64, n+1), index: make([]int, n+1)}
	for k := range s.S {
		s.S[k] = make([]float64, n)
		for j := range n {
			s.S[k][j] = x0
		}
		if k > 0 {
			s.S[k][k-1] += h
		}
		s.index[k] = k
	}
	// Evaluate the n+1 vertices in parallel, joined by a channel: each
	// goroutine sends once at its end, the parent receives n+1 times.
	done := make(chan struct{})
	for k := range n + 1 {
		go func() {
			s.fv[k] = s.f(k)
			done <- struct{}{}
		}()
	}
	for range n + 1 {
		<-done
	}
	s.promote()
	return s
}

// f is the chained Rosenbrock function at vertex k. It is sequential, reads
// the shared simplex, and is called from the parallel loops.
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

// move sets every vertex but the best to v0 + c*(v - v0) and evaluates it:
// c = -1 rotates the simplex through v0, 2 expands a rotated simplex,
// 0.5 undoes that expansion, -0.5 contracts a rotated simplex.
func (s *simplex) move(c float64) {
	var wg sync.WaitGroup
	for i := 1; i <= s.n; i++ {
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

// best returns the position in index of the best vertex other than v0.
func (s *simplex) best() int {
	b := 1
	for i := 2; i <= s.n; i++ {
		if s.fv[s.index[i]] < s.fv[s.index[b]] {
			b = i
		}
	}
	return b
}

// promote makes the best vertex v0 by putting it at the front of index.
//
// The planted bug: it copies instead of swapping, so after the first
// promotion index[0] == index[b] and the old best vertex is lost. In the
// next move, iteration b of the parallel loop writes S[index[b]] — the best
// vertex — while every other iteration reads it as S[index[0]]: a data race
// that depends on the data (it needs a vertex other than index[0] to become
// best). Iteration b writes the value it read (v0 + c*0 == v0), so the output
// does not depend on the schedule; the lost vertex makes it differ from
// ../clean's.
func (s *simplex) promote() {
	b := s.best()
	if s.fv[s.index[b]] < s.fv[s.index[0]] {
		s.index[0] = s.index[b]
	}
}

// step is one iteration of the multi-directional search: rotate; if that
// found a better point, try to expand, else contract. It reports which.
func (s *simplex) step() string {
	f0 := s.fv[s.index[0]]
	s.move(-1)
	fr := s.fv[s.index[s.best()]]
	what := "contract"
	if fr < f0 {
		what = "rotate"
		s.move(2)
		if s.fv[s.index[s.best()]] < fr {
			what = "expand"
		} else {
			s.move(0.5)
		}
	} else {
		s.move(-0.5)
	}
	s.promote()
	return what
}

// summary computes the simplex's diameter (max-norm distance of a vertex
// from v0) and its centroid's mean coordinate in two parallel sections.
func (s *simplex) summary() (diam, mean float64) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 1; i <= s.n; i++ {
			for j := range s.n {
				diam = max(diam, abs(s.S[s.index[i]][j]-s.S[s.index[0]][j]))
			}
		}
	}()
	go func() {
		defer wg.Done()
		for _, k := range s.index {
			for j := range s.n {
				mean += s.S[k][j]
			}
		}
		mean /= float64((s.n + 1) * s.n)
	}()
	wg.Wait()
	return diam, mean
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func main() {
	n := flag.Int("n", 6, "dimensions")
	x0 := flag.Float64("x0", -1.2, "start point coordinate")
	h := flag.Float64("h", 0.5, "initial edge length")
	steps := flag.Int("steps", 3000, "maximum number of steps")
	tol := flag.Float64("tol", 1e-7, "stop when the simplex diameter is below this")
	flag.Parse()

	s := newSimplex(*n, *x0, *h)
	count := map[string]int{}
	k := 0
	for ; k < *steps; k++ {
		if diam, _ := s.summary(); diam < *tol {
			break
		}
		count[s.step()]++
	}
	diam, mean := s.summary()
	fmt.Printf("steps %d (rotate %d, expand %d, contract %d)\n", k, count["rotate"], count["expand"], count["contract"])
	fmt.Printf("best f %.6e at vertex %d\n", s.fv[s.index[0]], s.index[0])
	fmt.Printf("best x")
	for _, x := range s.S[s.index[0]] {
		fmt.Printf(" %.4f", x)
	}
	fmt.Printf("\ndiameter %.3e, mean coordinate %.4f\n", diam, mean)
}
