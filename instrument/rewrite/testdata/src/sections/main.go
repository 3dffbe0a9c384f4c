package main

import (
	"fmt"
	"sync"
)

type stats struct {
	sum, max int
	mu       sync.Mutex
}

func main() {
	data := []int{3, 1, 4, 1, 5, 9, 2, 6}
	var st stats
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		s := 0
		for _, v := range data {
			s += v
		}
		st.mu.Lock()
		st.sum = s
		st.mu.Unlock()
	}()
	go func() {
		defer wg.Done()
		m := 0
		for i := range data {
			m = max(m, data[i])
		}
		st.max = m
	}()
	wg.Wait()
	fmt.Println(st.sum, st.max)
}
