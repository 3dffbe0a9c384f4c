// Goroutines outside any construct: v is written by the goroutine before
// its send and by main before its receive, unordered (a data race in every
// schedule); the rest is synchronized.
package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) inc() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
}

var global int

func worker(id int, in <-chan int, out chan<- int, wg *sync.WaitGroup) {
	defer wg.Done()
	for v := range in {
		out <- v * id
	}
}

func main() {
	v := 0
	c := make(chan int, 10)
	go func() {
		v = 1 // want race with the write below
		c <- 0
	}()
	v = 2
	<-c
	_ = v
	fmt.Println("v set")

	in, out := make(chan int), make(chan int, 100)
	var wg sync.WaitGroup
	for i := 1; i <= 3; i++ {
		wg.Add(1)
		go worker(i, in, out, &wg)
	}
	for i := 0; i < 10; i++ {
		in <- i
	}
	close(in)
	wg.Wait()
	close(out)
	sum := 0
	for x := range out {
		sum += x
	}
	fmt.Println(sum > 0)

	var once sync.Once
	var ready atomic.Bool
	cnt := &counter{}
	done := make(chan struct{})
	go func() {
		once.Do(func() { global = 1 })
		cnt.inc()
		ready.Store(true)
		close(done)
	}()
	extra := make(chan int)
	select {
	case <-done:
	case extra <- 1:
	}
	ctx, cancel := context.WithCancel(context.Background())
	go cancel()
	<-ctx.Done()
	var wg2 sync.WaitGroup
	wg2.Go(func() { cnt.inc() })
	wg2.Wait()
	fmt.Println(cnt.n, ready.Load())
}
