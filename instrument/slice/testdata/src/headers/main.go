// Package main declares variables in headers (a select case's receive, an
// if's and a for's init, a switch's) that only dropped statements read:
// the headers stay, and each such variable gets _ = v, or the sliced
// program would not compile (declared and not used).
package main

import "fmt"

func main() {
	ch := make(chan float64, 1)
	ch <- 1.5
	sum := 0.0
	select {
	case v := <-ch:
		sum += v
	default:
	}
	m := map[int]float64{1: 2.5}
	if v, ok := m[1]; ok {
		sum += v
	}
	for x, y := 0.5, 1; y < 3; y++ {
		sum += x
	}
	switch w := len(m); {
	case w > 0:
		sum += float64(w)
	}
	fmt.Println(sum)
}
