// Package formsnotes has goroutines the model does not cover, each noted
// with its real reason: a producer feeding a pipe is not "never joined"
// for lack of a Wait, a function value held in a variable is read for its
// signal, and a pipe that only sends is no "never joined" either.
package formsnotes

import "sync"

func pipe(a []int) { // want pipe:"synchronizes: communicates by channel"
	ch := make(chan int)
	go func() { // want `the goroutine feeds ch \(it sends and closes it\) and no worker pool of this block drains it: a pipeline, whose order block tags cannot express — not checked`
		for i := range a {
			ch <- i
		}
		close(ch)
	}()
	for v := range ch {
		a[v] = v
	}
}

func funcValue(a []int) {
	var wg sync.WaitGroup
	work := func() { a[0] = 1 }
	go work() // want `goroutine is never joined \(work, the function literal it runs, signals no WaitGroup, errgroup or join channel\) — not checked`
	wg.Wait()
}

func pipeNoClose(a []int) { // want pipeNoClose:"synchronizes: communicates by channel"
	ch := make(chan int)
	go func() { // want `goroutine is not joined: it signals no WaitGroup, errgroup or join channel, and feeds channel ch \(a pipe, ordered by the channel, which the model does not follow\) — not checked`
		for i := range a {
			ch <- i
		}
	}()
	for range a {
		a[<-ch]++
	}
}
