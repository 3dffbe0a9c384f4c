package main

import (
	"fmt"
	"sync"
)

type grid struct {
	cells []float64
	sync.Mutex
	log map[int]bool
}

func (g *grid) set(i int, v float64) {
	g.cells[i] = v
	g.Lock()
	g.log[i] = true
	g.Unlock()
}

func sum[T int | float64](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

func main() {
	g := &grid{cells: make([]float64, 6), log: map[int]bool{}}
	parts := make([]float64, 3)
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.set(i, float64(i))
		}()
	}
	wg.Wait()
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[i] = sum(g.cells[2*i : 2*i+2])
		}()
	}
	wg.Wait()
	fmt.Println(g.cells, len(g.log), sum(parts))
}
