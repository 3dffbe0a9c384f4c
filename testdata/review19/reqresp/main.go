// Idioms: a server goroutine answering requests that carry their own
// reply channel (a channel of channels), a callback stored in a struct
// field and started as a goroutine, an interface's method started with
// go, a generic function started with go, sync.Pool buffers handed
// between goroutines, an embedded *sync.Mutex, a named result computed
// under a deferred unlock, wg.Go. Correct: go run -race is silent.
package main

import (
	"bytes"
	"fmt"
	"sync"
)

type request struct {
	key   string
	reply chan *answer
}

type answer struct {
	val  []byte
	hits int
}

type store struct {
	*sync.Mutex
	data map[string][]byte
	hits map[string]int
}

func (s *store) lookup(k string) (a *answer) {
	s.Lock()
	defer s.Unlock()
	s.hits[k]++
	a = &answer{val: append([]byte(nil), s.data[k]...), hits: s.hits[k]}
	return
}

func serve(s *store, reqs <-chan request) {
	for r := range reqs {
		r.reply <- s.lookup(r.key)
	}
}

type runner interface{ Run(out chan<- string) }

type job struct {
	name string
	cb   func()
}

func (j *job) Run(out chan<- string) { j.cb(); out <- j.name }

func drain[T any](in <-chan T, done chan<- int) {
	n := 0
	for range in {
		n++
	}
	done <- n
}

var bufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func main() {
	s := &store{Mutex: &sync.Mutex{}, data: map[string][]byte{"a": []byte("x")}, hits: map[string]int{}}
	reqs := make(chan request)
	go serve(s, reqs)
	var wg sync.WaitGroup
	got := make([]int, 4)
	for g := range 4 {
		wg.Go(func() {
			r := request{key: "a", reply: make(chan *answer)}
			reqs <- r
			a := <-r.reply
			a.val[0] = 'y'
			got[g] = a.hits + len(a.val)
		})
	}
	wg.Wait()
	close(reqs)

	shared := 0
	j := &job{name: "j"}
	j.cb = func() { shared = 42 }
	out := make(chan string)
	var r runner = j
	go r.Run(out)
	name := <-out
	fmt.Println(shared, name)

	ints := make(chan int)
	done := make(chan int)
	go drain(ints, done)
	for i := range 10 {
		ints <- i
	}
	close(ints)
	n := <-done

	pass := make(chan *bytes.Buffer)
	go func() {
		b := bufs.Get().(*bytes.Buffer)
		b.Reset()
		b.WriteString("hello")
		pass <- b
	}()
	b := <-pass
	str := b.String()
	bufs.Put(b)
	var wg2 sync.WaitGroup
	lens := make([]int, 3)
	for g := range 3 {
		wg2.Go(func() {
			b := bufs.Get().(*bytes.Buffer)
			b.Reset()
			fmt.Fprintf(b, "%d", g*100)
			lens[g] = b.Len()
			bufs.Put(b)
		})
	}
	wg2.Wait()
	fmt.Println(got, n, str, lens)
}
