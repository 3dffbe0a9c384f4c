// A dependency that is not rewritten runs the program's callbacks under
// its own mutex, from callers' goroutines and from a goroutine of its own:
// the callbacks' unsynchronized counter is ordered by that mutex. Correct:
// go run -race is silent (it sees the dependency's mutex). A check of the
// callback-as-thread rule (review19): the dependency's hand-offs reach the
// callbacks' threads through the global clock.
package main

import (
	"fmt"
	"sync"
	"time"

	"example.com/hooks"
)

type stats struct {
	calls int
	last  int
	seen  []int
}

func main() {
	var r hooks.Registry
	st := &stats{}
	r.Register(func(n int) {
		st.calls++
		st.last = n
		st.seen = append(st.seen, n)
	})
	stop := make(chan struct{})
	done := r.Start(100*time.Microsecond, stop)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				r.Fire()
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-done
	fmt.Println(st.calls == len(st.seen), st.last > 0)
}
