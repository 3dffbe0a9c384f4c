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

func produce(ch chan<- int, n int) { // want produce:"synchronizes: communicates by channel"
	for i := range n {
		ch <- i
	}
}

// viaHelper's goroutine feeds the pipe through a helper.
func viaHelper(a []int) { // want viaHelper:"synchronizes: communicates by channel"
	ch := make(chan int)
	go func() { produce(ch, len(a)) }() // want `goroutine is not joined: it signals no WaitGroup, errgroup or join channel, and passes channel ch to produce \(a pipe, ordered by the channel, which the model does not follow\) — not checked`
	for range a {
		a[<-ch]++
	}
}

// recvInExpr receives the goroutine's signal inside an expression.
func recvInExpr(a []int) int { // want recvInExpr:"synchronizes: communicates by channel"
	ch := make(chan int)
	go func() { ch <- len(a) }() // want `goroutine signals channel ch, received by <-ch inside an expression, whose other operands may be evaluated while the goroutines run`
	return <-ch + 1
}
