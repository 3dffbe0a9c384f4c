package main

import (
	"fmt"
	"sync"
)

type acc struct{ sum int }

// rows: goroutine i writes row i from row i+1, which goroutine i+1
// writes (a race the checks before the loop find at the element's
// position), adds row i into the shared x.sum (a race, checked once per
// loop), smooths its row (the spans of one row checked by decreasing
// offset, the order in which the loop meets each element), and increments its row in a loop with a break, which keeps its
// per-element checks.
func rows(a [][]int, x *acc, m int) {
	var wg sync.WaitGroup
	for i := range len(a) {
		wg.Go(func() {
			r, r0 := i, (i+1)%len(a)
			for j := range m {
				a[r][j] = a[r0][j] + j
			}
			for j := 1; j < m; j++ {
				x.sum += a[r][j-1]
			}
			for j := 1; j < m; j++ {
				a[r][j] += a[r][j-1] * a[r][j+1]
			}
			for j := range m {
				if a[r][j] > 100 {
					break
				}
				a[r][j]++
			}
		})
	}
	wg.Wait()
}

func main() {
	a := make([][]int, 4)
	for r := range a {
		a[r] = make([]int, 9)
	}
	x := &acc{}
	rows(a, x, 8)
	fmt.Println(len(a), len(a[0]))
}
