package main

import "sync"

func addAll[T int | float64](acc []T, xs []T) {
	for _, x := range xs {
		acc[0] += x
	}
}

func main() {
	acc := make([]float64, 1)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() { addAll(acc, []float64{float64(i)}) })
	}
	wg.Wait()
	println(acc[0] >= 0)
}
