// Correctly synchronized goroutines outside any construct: every access
// pair below is ordered by the Go memory model, so an -hb build reports
// nothing.
package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

var published int

type box struct {
	mu sync.Mutex
	v  []int
}

func (b *box) put(x int) {
	b.mu.Lock()
	b.v = append(b.v, x)
	b.mu.Unlock()
}

func produce(out chan<- []int) {
	s := make([]int, 4)
	for i := range s {
		s[i] = i
	}
	out <- s // the slice's elements are handed over with it
}

func main() {
	// A value handed over a channel.
	ch := make(chan []int)
	go produce(ch)
	s := <-ch
	s[0] = 10
	fmt.Println(s)

	// A buffered channel as a semaphore.
	sem := make(chan struct{}, 1)
	n := 0
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			n++
			<-sem
		}()
	}
	wg.Wait()
	fmt.Println(n)

	// A flag published with an atomic store.
	var ready atomic.Bool
	go func() {
		published = 42
		ready.Store(true)
	}()
	for !ready.Load() {
	}
	fmt.Println(published)

	// A mutex, a Once and a context.
	b := &box{}
	var once sync.Once
	init := 0
	ctx, cancel := context.WithCancel(context.Background())
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			once.Do(func() { init = 7 })
			b.put(i)
		}()
	}
	wg.Wait()
	fmt.Println(init, len(b.v))
	data := 0
	go func() {
		data = 5
		cancel()
	}()
	<-ctx.Done()
	fmt.Println(data)

	// A goroutine closing its channel when done; range until closed.
	out := make(chan int)
	total := 0
	go func() {
		for i := range 5 {
			total += i
			out <- i
		}
		close(out)
	}()
	got := 0
	for v := range out {
		got += v
	}
	fmt.Println(got, total)

	// sync.Cond.
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	flag := false
	msg := ""
	go func() {
		msg = "hello"
		mu.Lock()
		flag = true
		cond.Signal()
		mu.Unlock()
	}()
	mu.Lock()
	for !flag {
		cond.Wait()
	}
	mu.Unlock()
	fmt.Println(msg)
}
