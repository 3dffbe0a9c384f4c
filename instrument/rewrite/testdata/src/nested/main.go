package main

import (
	"fmt"
	"sync"
)

func row(m [][]int, i int) {
	var wg sync.WaitGroup
	for j := range m[i] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m[i][j] = i * j
		}()
	}
	wg.Wait()
}

func main() {
	m := make([][]int, 4)
	for i := range m {
		m[i] = make([]int, 3)
	}
	var wg sync.WaitGroup
	for i := range m {
		wg.Add(1)
		go func() {
			defer wg.Done()
			row(m, i)
		}()
	}
	wg.Wait()
	fmt.Println(m)
}
