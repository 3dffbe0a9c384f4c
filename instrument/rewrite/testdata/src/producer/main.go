package main

import (
	"fmt"
	"sync"
)

func main() {
	n := 16
	fx := make([]float64, n)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				fx[i] = float64(i) * float64(i)
			}
		}()
	}
	go func() {
		for i := range n {
			jobs <- i
		}
		close(jobs)
	}()
	wg.Wait()
	sum := 0.0
	for _, v := range fx {
		sum += v
	}
	fmt.Println(sum, first(n))
}

// first starts the producer before the workers.
func first(n int) int {
	sq := make([]int, n)
	jobs := make(chan int, 4)
	go func() {
		for i := 0; i < n; i++ {
			jobs <- i
		}
		close(jobs)
	}()
	var wg sync.WaitGroup
	for w := 0; w < 3; w++ {
		wg.Go(func() {
			for i := range jobs {
				sq[i] = i * i
			}
		})
	}
	wg.Wait()
	return sq[n-1]
}
