// Package formsnotes has goroutines the model does not cover, each noted
// with its real reason: a producer feeding a pipe is not "never joined"
// for lack of a Wait, and a function value is not "in another package".
package formsnotes

import "sync"

func pipe(a []int) { // want pipe:"synchronizes: communicates by channel"
	ch := make(chan int)
	go func() { // want `goroutine is not joined: it signals no WaitGroup, errgroup or join channel, and feeds channel ch \(a pipe, ordered by the channel, which the model does not follow\) — not checked`
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
	go work() // want `goroutine runs a function value \(work\); which function it is, and so its join, cannot be seen — not checked`
	wg.Wait()
}
