// Constructs joined by defer wg.Wait(): the Join is deferred right before
// the user's defer, and the rest of the body is the parent's code in the
// construct, returns included.
package main

import (
	"fmt"
	"runtime"
	"sync"
)

// blocks is gonum's Dgemm shape: an early return before the construct,
// a semaphore whose capacity the run time gives (each start forks with
// rt.ForkIf), starts in a nested loop, the join at the function's end.
func blocks(c []int, m, n int) {
	if m == 0 {
		return
	}
	lim := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	defer wg.Wait()
	for i := 0; i < m; i += 2 {
		for j := 0; j < n; j += 2 {
			lim <- struct{}{}
			wg.Add(1)
			go func(i, j int) {
				defer func() {
					wg.Done()
					<-lim
				}()
				c[i*n+j] = i + j
			}(i, j)
		}
	}
}

// total returns while the goroutines may still run: the return's reads
// are the parent's, checked in the construct.
func total(a []int, extra int) int {
	var wg sync.WaitGroup
	defer wg.Wait()
	for i := range a {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a[i] += i
		}()
	}
	if extra < 0 {
		return 0
	}
	return extra * 2
}

// rows runs a construct joined by a deferred Wait in each goroutine of
// an outer loop (fill is cloned with the outer goroutine's task).
func rows(grid [][]int) {
	var wg sync.WaitGroup
	for r := range grid {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fill(grid[r], r)
		}()
	}
	wg.Wait()
}

func fill(row []int, r int) {
	var wg sync.WaitGroup
	defer wg.Wait()
	for k := range row {
		wg.Add(1)
		go func() {
			defer wg.Done()
			row[k] = r*10 + k
		}()
	}
}

func main() {
	c := make([]int, 16)
	blocks(c, 4, 4)
	fmt.Println(c)
	a := []int{1, 2, 3}
	fmt.Println(total(a, 5))
	fmt.Println(a)
	grid := [][]int{make([]int, 3), make([]int, 3)}
	rows(grid)
	fmt.Println(grid)
}
