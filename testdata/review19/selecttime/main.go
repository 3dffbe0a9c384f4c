// select with time.After, a ticker, default branches and non-blocking
// sends; a result published through a buffered channel or dropped.
// Correct: go run -race is silent.
package main

import (
	"fmt"
	"time"
)

type state struct {
	n    int
	logs []string
}

func fetch(i int) <-chan *state {
	ch := make(chan *state, 1)
	go func() {
		s := &state{n: i}
		s.logs = append(s.logs, fmt.Sprint("fetched ", i))
		if i%3 == 0 {
			time.Sleep(20 * time.Millisecond)
		}
		ch <- s
	}()
	return ch
}

func main() {
	got, timedOut := 0, 0
	for i := 0; i < 12; i++ {
		select {
		case s := <-fetch(i):
			s.logs = append(s.logs, "seen")
			got += s.n
		case <-time.After(10 * time.Millisecond):
			timedOut++
		}
	}
	events := make(chan int, 2)
	dropped := 0
	for i := 0; i < 10; i++ {
		select {
		case events <- i:
		default:
			dropped++
		}
	}
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	stop := make(chan struct{})
	var last int
	done := make(chan int)
	go func() {
		n := 0
		for {
			select {
			case <-tick.C:
				n++
			case <-stop:
				last = n
				done <- n
				return
			}
		}
	}()
	time.Sleep(5 * time.Millisecond)
	close(stop)
	<-done
	_ = last
	fmt.Println(got+timedOut > 0, dropped, len(events), last >= 0)
}
