// errgroup's TryGo under SetLimit, with a fallback that runs the work on
// the caller's goroutine when the group is full; results written per
// index, read after Wait; and a semaphore.Weighted bounding goroutines.
// Correct: go run -race is silent.
package main

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
)

type cell struct{ v []int }

func work(c *cell, i int) {
	c.v = make([]int, 3)
	for k := range c.v {
		c.v[k] = i + k
	}
}

func main() {
	var g errgroup.Group
	g.SetLimit(2)
	cells := make([]*cell, 12)
	for i := range cells {
		cells[i] = &cell{}
		if !g.TryGo(func() error { work(cells[i], i); return nil }) {
			work(cells[i], i)
		}
	}
	_ = g.Wait()
	s := 0
	for _, c := range cells {
		s += c.v[2]
	}
	sem := semaphore.NewWeighted(3)
	ctx := context.Background()
	out := make([]int, 8)
	for i := range out {
		_ = sem.Acquire(ctx, 1)
		go func() {
			defer sem.Release(1)
			out[i] = i * i
		}()
	}
	_ = sem.Acquire(ctx, 3)
	t := 0
	for _, v := range out {
		t += v
	}
	fmt.Println(s, t)
}
