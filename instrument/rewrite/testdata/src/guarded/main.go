package main

import (
	"fmt"
	"sync"
)

type grid struct {
	w     int
	cells []float64
}

// smooth averages each row of cur into next, rows split into chunks: the
// writes of next are independent and cur is read-only, when next and cur
// are apart — which only the guard can tell.
func smooth(next, cur []float64, rows, w, chunks int) {
	var wg sync.WaitGroup
	for c := range chunks {
		wg.Go(func() {
			for i := c * rows / chunks; i < (c+1)*rows/chunks; i++ {
				for j := 1; j < w-1; j++ {
					next[i*w+j] = (cur[i*w+j-1] + cur[i*w+j] + cur[i*w+j+1]) / 3
				}
			}
		})
	}
	wg.Wait()
}

// scale multiplies each row of m by f[i] in place: the rows must be distinct.
func scale(m [][]float64, f []float64, g *grid) {
	var wg sync.WaitGroup
	for i := range m {
		wg.Add(1)
		go func() {
			defer wg.Done()
			row := m[i]
			for j := range row {
				row[j] *= f[i] + g.cells[j%g.w]
			}
		}()
	}
	wg.Wait()
}

func main() {
	rows, w := 6, 5
	a, b := make([]float64, rows*w), make([]float64, rows*w)
	for k := range a {
		a[k] = float64(k % 7)
	}
	smooth(b, a, rows, w, 3)
	m := [][]float64{b[:w:w], b[w : 2*w : 2*w], a[:w:w]}
	scale(m, []float64{1, 2, 3}, &grid{w: 2, cells: []float64{0.5, 0.25}})
	sum := 0.0
	for _, x := range b {
		sum += x
	}
	fmt.Printf("%.4f\n", sum)
}
