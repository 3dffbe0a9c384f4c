// context.AfterFunc, time.AfterFunc with Stop, context cancellation
// observed through Done, and a value written before cancel() read after
// <-ctx.Done(). Correct: go run -race is silent.
package main

import (
	"context"
	"fmt"
	"sync"
	"time"
)

type job struct {
	result []int
	err    error
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	j := &job{}
	cleaned := make(chan struct{})
	var log []string
	stop := context.AfterFunc(ctx, func() {
		log = append(log, "cleanup")
		j.result = append(j.result, -1)
		close(cleaned)
	})
	defer stop()
	worker := make(chan struct{})
	var reason string
	go func() {
		defer close(worker)
		<-ctx.Done()
		reason = ctx.Err().Error()
	}()
	j.result = append(j.result, 1, 2, 3)
	cancel()
	<-cleaned
	<-worker
	fmt.Println(len(log), len(j.result), reason)

	var mu sync.Mutex
	fired := 0
	var timers []*time.Timer
	for i := 0; i < 5; i++ {
		timers = append(timers, time.AfterFunc(time.Duration(i)*time.Millisecond, func() {
			mu.Lock()
			fired++
			mu.Unlock()
		}))
	}
	stopped := 0
	if timers[4].Stop() {
		stopped++
	}
	time.Sleep(20 * time.Millisecond)
	mu.Lock()
	f := fired
	mu.Unlock()
	fmt.Println(f+stopped == 5)

	ctx2, cancel2 := context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel2()
	res := make(chan []int, 1)
	go func() {
		out := make([]int, 3)
		select {
		case <-time.After(50 * time.Millisecond):
			out[0] = 1
		case <-ctx2.Done():
			out[0] = 2
		}
		res <- out
	}()
	r := <-res
	r[1] = 5
	fmt.Println(r)
}
