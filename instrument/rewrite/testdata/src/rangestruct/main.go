package main

import (
	"fmt"
	"sync"
)

// Range loops whose value is a struct (or an array) read every leaf of the
// element: the loop's reads are checked before it as one span of whole
// elements (rt.ReadSpan checks each leaf, coalesce.go), where they were
// checked element by element with RA.

type body struct{ x, y, z float64 }

// pull: each block sums, for its own bodies, the pull of every body,
// `for j, p := range ps`. With racy, block 0 also writes the y of body 3,
// which every block reads: a race, reported at the range's value. The
// value written is the one body 3 holds, so the output does not depend on
// the race.
func pull(ps []body, acc []float64, blocks int, racy bool) {
	var wg sync.WaitGroup
	for b := range blocks {
		wg.Go(func() {
			if racy && b == 0 {
				ps[3].y = 2
			}
			for i := b; i < len(ps); i += blocks {
				s := 0.0
				for j, p := range ps {
					if j != i {
						s += p.x + 2*p.y - p.z
					}
				}
				acc[i] = s
			}
		})
	}
	wg.Wait()
}

// cells: each block reads every [2]int pair of grid and writes its own
// total: no race.
func cells(grid [][2]int, out []int, blocks int) {
	var wg sync.WaitGroup
	for b := range blocks {
		wg.Go(func() {
			t := 0
			for _, pr := range grid {
				t += pr[0] * pr[1]
			}
			out[b] = t
		})
	}
	wg.Wait()
}

// rewrite: block 0 rewrites the z of every body through the range loop
// (ps[j].z = p.z: the value it holds), while the other blocks range over
// ps: a race on each z. The field write keeps the range's span in the loop
// with it (the two may share memory), so both are checked per element.
func rewrite(ps []body, blocks int) float64 {
	var wg sync.WaitGroup
	sums := make([]float64, blocks)
	for b := range blocks {
		wg.Go(func() {
			for j, p := range ps {
				if b == 0 {
					ps[j].z = p.z
				}
				sums[b] += p.x
			}
		})
	}
	wg.Wait()
	return sums[blocks-1]
}

func main() {
	ps := make([]body, 8)
	for i := range ps {
		ps[i] = body{float64(i), 2, float64(i % 3)}
	}
	acc := make([]float64, len(ps))
	pull(ps, acc, 3, false)
	fmt.Println(acc)
	pull(ps, acc, 3, true)
	fmt.Println(acc)
	grid := make([][2]int, 10)
	for i := range grid {
		grid[i] = [2]int{i, i + 1}
	}
	out := make([]int, 4)
	cells(grid, out, 4)
	fmt.Println(out)
	fmt.Println(rewrite(ps, 3))
}
