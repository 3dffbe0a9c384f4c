// A reader goroutine is still running when main enters a parallel loop
// whose goroutines use a labeled loop (continue next): its reads of a[0]
// race with the loop's writes of a[i]. go run -race reports it; goanomaly
// run -hb did not, and noted "its statements declare names or labels ...
// so it has no fully checked version": a label inside a goroutine's
// function literal kept the construct from being rewritten twice, though
// each copy of the literal has its own label, so the loop ran pruned and
// a[i], proven apart among the iterations, was not checked against the
// reader. Fixed in session 18 (rewrite.movable does not look into function
// literals). Testscript review18_hb_block_label.
package main

import (
	"fmt"
	"os"
	"sync"
	"time"
)

var a = make([]int, 10)

func reader(rounds int, done chan<- int) {
	s := 0
	for range rounds {
		s += a[0]
		time.Sleep(time.Millisecond)
	}
	done <- s
}

func fill(tries int) {
	var wg sync.WaitGroup
	for i := range a {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := 0
		next:
			for t := 0; t < tries; t++ {
				for k := 0; k < t; k++ {
					if (i+k)%3 == 0 {
						continue next
					}
				}
				v++
			}
			a[i] = i + v
		}()
	}
	wg.Wait()
}

func main() {
	done := make(chan int, 1)
	if len(os.Args) > 1 && os.Args[1] == "racy" {
		go reader(200, done) // still reading while fill runs
		time.Sleep(20 * time.Millisecond)
		fill(4)
	} else {
		go reader(3, done)
		<-done // joined: everything it did happens before fill
		fill(4)
	}
	s := 0
	for _, v := range a {
		s += v
	}
	fmt.Println(s)
}
