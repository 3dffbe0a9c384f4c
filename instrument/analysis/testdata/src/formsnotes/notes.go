// Package formsnotes has goroutines the model does not cover, each noted
// with its real reason: a producer feeding a pipe is not "never joined"
// for lack of a Wait, and a function value is not "in another package".
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
	go work() // want `goroutine runs work, a function value \(a literal stored in a variable, a parameter\), not a literal written at the go statement or a named function; its join cannot be seen — not checked`
	wg.Wait()
}
