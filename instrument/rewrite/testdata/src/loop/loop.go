package main

import (
	"fmt"
	"sync"
)

type point struct{ x, y int }

var total int

func f(s []int, i int) int { return s[i] * 2 }

func main() {
	a := make([]int, 10)
	idx := []int{0, 1, 2, 3, 3, 5, 6, 7, 8, 9}
	m := map[int]int{}
	var mu sync.Mutex
	pts := make([]point, 10)
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a[idx[i]] += f(idx, i)
			pts[i].x = i
			mu.Lock()
			m[i] = i
			total++
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Println(a, len(m), total, pts[3])
}
