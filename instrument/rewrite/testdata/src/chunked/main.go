package main

import (
	"fmt"
	"sync"
)

func main() {
	const n, k = 1000, 4
	a := make([]float64, n)
	var wg sync.WaitGroup
	for c := 0; c < k; c++ {
		lo, hi := c*n/k, (c+1)*n/k
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				a[i] = float64(i) / 2
			}
		}(lo, hi)
	}
	wg.Wait()
	s := 0.0
	for _, v := range a {
		s += v
	}
	fmt.Println(s)
}
