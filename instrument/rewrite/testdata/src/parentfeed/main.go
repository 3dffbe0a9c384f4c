// Package main is a worker pool the parent feeds between the starts and
// the join (PolyBench's gesummv): each block of rows a worker receives is
// a block of the construct (Item), the parent's sends check nothing.
package main

import (
	"fmt"
	"sync"
)

func main() {
	n, bs := 20, 3
	y := make([]float64, n)
	blocks := make(chan int)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for lo := range blocks {
				hi := min(lo+bs, n)
				for i := lo; i < hi; i++ {
					y[i] = float64(i) * 2
				}
			}
		}()
	}
	for lo := 0; lo < n; lo += bs {
		blocks <- lo
	}
	close(blocks)
	wg.Wait()
	sum := 0.0
	for _, v := range y {
		sum += v
	}
	fmt.Println(sum, buffered(n))
}

// buffered feeds a buffered channel, workers started by wg.Go.
func buffered(n int) int {
	sq := make([]int, n)
	jobs := make(chan int, 4)
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			for i := range jobs {
				sq[i] = i * i
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	sum := 0
	for _, v := range sq {
		sum += v
	}
	return sum
}
