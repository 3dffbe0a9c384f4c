// Command jacobi is the 2-D stencil kernel: -sweeps Jacobi sweeps for
// -Δu = 1 on an -n×-n interior grid (flat []float64 with a boundary ring).
// Each sweep is a chunked parallel loop: -chunks goroutines (default
// GOMAXPROCS) over contiguous ranges of rows, started with wg.Go; sweeps
// alternate between two grids. It prints a checksum.
//
// RACY VARIANT, for differential tests: the sweep reads the neighbour above
// from next, the grid being written, instead of cur (a sweep half written
// in place): at each chunk's first row it reads the row the chunk above
// writes.
// The line is marked "planted race".
package main

import (
	"flag"
	"fmt"
	"runtime"
	"sync"
)

// sweep sets the interior of next from cur, rows split among chunks
// goroutines.
func sweep(next, cur []float64, n, chunks int, h2 float64) {
	w := n + 2
	var wg sync.WaitGroup
	for c := range chunks {
		wg.Go(func() {
			for i := 1 + c*n/chunks; i < 1+(c+1)*n/chunks; i++ {
				for j := 1; j <= n; j++ {
					next[i*w+j] = 0.25 * (next[(i-1)*w+j] + cur[(i+1)*w+j] + cur[i*w+j-1] + cur[i*w+j+1] + h2) // planted race: the up neighbour read from next
				}
			}
		})
	}
	wg.Wait()
}

func main() {
	n := flag.Int("n", 768, "interior points per side")
	sweeps := flag.Int("sweeps", 480, "sweeps")
	chunks := flag.Int("chunks", runtime.GOMAXPROCS(0), "goroutines per sweep")
	flag.Parse()
	w := *n + 2
	cur, next := make([]float64, w*w), make([]float64, w*w)
	h := 1 / float64(*n+1)
	for range *sweeps {
		sweep(next, cur, *n, *chunks, h*h)
		cur, next = next, cur
	}
	sum, mid := 0.0, cur[(w/2)*w+w/2]
	for _, v := range cur {
		sum += v
	}
	fmt.Printf("jacobi n=%d sweeps=%d: sum %.6e, centre %.6e\n", *n, *sweeps, sum*h*h, mid)
}
