package main

import (
"fmt"
"runtime"
"sync"
)

type simplex struct {
	rows  [][]float64
	val   []float64
	index []int
}

// sum reads row k.
func (s *simplex) sum(k int) float64 {
	row := s.rows[k]
	t := 0.0
	for j := range row {
		t += row[j]
	}
	return t
}

func (s *simplex) move() {
	var wg sync.WaitGroup
	for i := 0; i < len(s.index); i++ {
		wg.Go(func() {
			for j := range s.rows[s.index[i]] {
				s.rows[s.index[i]][j] += s.rows[s.index[1]][j]
			}
			s.val[s.index[i]] = s.sum(s.index[i])
		})
	}
	wg.Wait()
}

func count(c []int, idx []int) {
	var wg sync.WaitGroup
	for i := range idx {
		wg.Go(func() {
			c[idx[i]] += 1
		})
	}
	wg.Wait()
}

func assemble(y []float64, elemNode [][3]int, byColour [][]int, chunks int) {
	for _, elems := range byColour {
		var wg sync.WaitGroup
		for c := range chunks {
			wg.Go(func() {
				for _, e := range elems[c*len(elems)/chunks : (c+1)*len(elems)/chunks] {
					en := &elemNode[e]
					for k := range 3 {
						y[en[k]] += 1
					}
				}
			})
		}
		wg.Wait()
	}
}

// planted: every iteration writes a[0].
func planted(a []float64) {
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			a[0] = float64(i)
		})
	}
	wg.Wait()
}

func main() {
	runtime.GOMAXPROCS(1)
	s := &simplex{val: make([]float64, 5), index: []int{3, 1, 4, 0, 2}}
	for range 5 {
		s.rows = append(s.rows, make([]float64, 2))
	}
	s.move()
	c := make([]int, 5)
	count(c, []int{1, 4, 0, 2, 2})
	y := make([]float64, 9)
	assemble(y, [][3]int{{1, 7, 8}, {6, 2, 5}, {2, 4, 3}, {2, 0, 7}, {2, 3, 6}}, [][]int{[]int{0, 1, 2, 3, 4}}, 1)
	a := make([]float64, 1)
	planted(a)
	fmt.Println(s.val, c, y, a)
}
