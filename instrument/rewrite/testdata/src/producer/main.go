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
	fmt.Println(sum)
}
