// A bounded queue on sync.Cond with producers and consumers and a Close
// that wakes everyone. Correct: go run -race is silent.
package main

import (
	"fmt"
	"sync"
)

type Queue[T any] struct {
	mu       sync.Mutex
	notEmpty *sync.Cond
	notFull  *sync.Cond
	items    []T
	cap      int
	closed   bool
}

func NewQueue[T any](n int) *Queue[T] {
	q := &Queue[T]{cap: n}
	q.notEmpty = sync.NewCond(&q.mu)
	q.notFull = sync.NewCond(&q.mu)
	return q
}

func (q *Queue[T]) Put(v T) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == q.cap && !q.closed {
		q.notFull.Wait()
	}
	if q.closed {
		return false
	}
	q.items = append(q.items, v)
	q.notEmpty.Signal()
	return true
}

func (q *Queue[T]) Get() (T, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.notEmpty.Wait()
	}
	var zero T
	if len(q.items) == 0 {
		return zero, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	q.notFull.Signal()
	return v, true
}

func (q *Queue[T]) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.notEmpty.Broadcast()
	q.notFull.Broadcast()
}

type msg struct {
	from, seq int
	payload   []byte
}

func main() {
	q := NewQueue[*msg](3)
	var prod, cons sync.WaitGroup
	counts := make([]int, 3)
	for p := 0; p < 3; p++ {
		prod.Add(1)
		go func() {
			defer prod.Done()
			for s := 0; s < 100; s++ {
				m := &msg{from: p, seq: s, payload: make([]byte, 8)}
				m.payload[0] = byte(s)
				q.Put(m)
			}
		}()
	}
	var mu sync.Mutex
	got := 0
	for c := 0; c < 2; c++ {
		cons.Add(1)
		go func() {
			defer cons.Done()
			for {
				m, ok := q.Get()
				if !ok {
					return
				}
				m.payload[1] = m.payload[0] + 1
				mu.Lock()
				got++
				counts[m.from]++
				mu.Unlock()
			}
		}()
	}
	prod.Wait()
	q.Close()
	cons.Wait()
	fmt.Println(got, counts)
}
