package main

import (
	"fmt"
	"sync"
)

func main() {
	jobs := make(chan int, 20)
	for i := range 20 {
		jobs <- i
	}
	close(jobs)
	out := make([]int, 20)
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				out[j] = j + 1
			}
		}()
	}
	wg.Wait()
	fmt.Println(out)
}
