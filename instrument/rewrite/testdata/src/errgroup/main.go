package main

import (
	"fmt"

	"golang.org/x/sync/errgroup"
)

func square(out []int, i int) error {
	out[i] = i * i
	return nil
}

func main() {
	out := make([]int, 8)
	var g errgroup.Group
	g.SetLimit(3)
	for i := range out {
		g.Go(func() error { return square(out, i) })
	}
	if err := g.Wait(); err != nil {
		fmt.Println(err)
	}
	fmt.Println(out)
}
