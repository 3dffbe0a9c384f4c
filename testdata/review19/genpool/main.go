// A generic worker pool Pool[T, R] with Submit returning a future, a
// generic ParallelMap, and a generic mutex-guarded SafeMap[K, V].
// Correct: go run -race is silent. goanomaly run (and run -hb) at 8f1699e
// reported a DATA RACE on append(v, g) at main.go:106 on every run: the
// methods of generic types were never cloned (analysis.Callee gave the
// instantiated method, whose declaration Decls does not hold), so Update
// ran as written, its Lock unseen, while the callback it calls ran
// checked through its prologue without the lock. The same gap missed
// races inside such methods (testscript race_review19_generic_method).
package main

import (
	"fmt"
	"sync"
)

type future[R any] struct {
	done chan struct{}
	val  R
	err  error
}

func (f *future[R]) Get() (R, error) { <-f.done; return f.val, f.err }

type task[T, R any] struct {
	in  T
	fn  func(T) (R, error)
	out *future[R]
}

type Pool[T, R any] struct {
	tasks chan task[T, R]
	wg    sync.WaitGroup
}

func NewPool[T, R any](n int) *Pool[T, R] {
	p := &Pool[T, R]{tasks: make(chan task[T, R])}
	for i := 0; i < n; i++ {
		p.wg.Add(1)
		go p.worker()
	}
	return p
}

func (p *Pool[T, R]) worker() {
	defer p.wg.Done()
	for t := range p.tasks {
		t.out.val, t.out.err = t.fn(t.in)
		close(t.out.done)
	}
}

func (p *Pool[T, R]) Submit(in T, fn func(T) (R, error)) *future[R] {
	f := &future[R]{done: make(chan struct{})}
	p.tasks <- task[T, R]{in, fn, f}
	return f
}

func (p *Pool[T, R]) Close() { close(p.tasks); p.wg.Wait() }

func ParallelMap[T, R any](xs []T, f func(T) R) []R {
	out := make([]R, len(xs))
	var wg sync.WaitGroup
	for i, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = f(x)
		}()
	}
	wg.Wait()
	return out
}

type SafeMap[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

func (s *SafeMap[K, V]) Update(k K, f func(V) V) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = make(map[K]V)
	}
	s.m[k] = f(s.m[k])
}

type point struct{ x, y int }

func main() {
	p := NewPool[*point, int](3)
	var fs []*future[int]
	for i := 0; i < 20; i++ {
		pt := &point{i, i * 2}
		fs = append(fs, p.Submit(pt, func(q *point) (int, error) { q.x++; return q.x + q.y, nil }))
	}
	sum := 0
	for _, f := range fs {
		v, _ := f.Get()
		sum += v
	}
	p.Close()
	sq := ParallelMap([]int{1, 2, 3, 4, 5}, func(x int) int { return x * x })
	var sm SafeMap[string, []int]
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				sm.Update(fmt.Sprint(i%3), func(v []int) []int { return append(v, g) })
			}
		}()
	}
	wg.Wait()
	fmt.Println(sum, sq, len(sm.m["0"])+len(sm.m["1"])+len(sm.m["2"]))
}
