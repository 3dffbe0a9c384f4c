// Method values as goroutines and callbacks: go s.run(), a callback
// registry of method values, defer s.Unlock() through an embedded struct,
// an interface's method called from many goroutines, sync.Locker.
// Correct: go run -race is silent.
package main

import (
	"fmt"
	"sync"
)

type base struct {
	sync.Mutex
	count int
}

type server struct {
	base
	name    string
	reqs    chan int
	done    chan struct{}
	handled []int
}

func (s *server) inc() {
	s.Lock()
	defer s.Unlock()
	s.count++
}

func (s *server) run() {
	defer close(s.done)
	for r := range s.reqs {
		s.handled = append(s.handled, r)
		s.inc()
	}
}

type counter interface{ Add(int) }

type safeCounter struct {
	mu sync.RWMutex
	n  map[int]int
}

func (c *safeCounter) Add(k int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[k%3]++
}

func (c *safeCounter) Get(k int) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.n[k]
}

type bus struct {
	mu   sync.Mutex
	subs []func(int)
}

func (b *bus) sub(f func(int)) { b.mu.Lock(); b.subs = append(b.subs, f); b.mu.Unlock() }
func (b *bus) pub(v int) {
	b.mu.Lock()
	subs := append([]func(int){}, b.subs...)
	b.mu.Unlock()
	for _, f := range subs {
		f(v)
	}
}

func main() {
	s := &server{name: "s", reqs: make(chan int), done: make(chan struct{})}
	go s.run()
	var wg sync.WaitGroup
	var c counter = &safeCounter{n: map[int]int{}}
	b := &bus{}
	b.sub(c.Add)
	b.sub(func(int) { s.inc() })
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				b.pub(i * g)
			}
		}()
	}
	for i := 0; i < 10; i++ {
		s.reqs <- i
	}
	wg.Wait()
	close(s.reqs)
	<-s.done
	var l sync.Locker = &s.base
	l.Lock()
	n := s.count
	l.Unlock()
	sc := c.(*safeCounter)
	fmt.Println(len(s.handled), n, sc.Get(0)+sc.Get(1)+sc.Get(2))
}
