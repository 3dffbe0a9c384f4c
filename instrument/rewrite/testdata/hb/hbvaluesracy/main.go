// A callback of the program's own, called through a value by two
// goroutines that nothing else orders: the worker's write of x and main's
// read of it race on every schedule. Before calls through values into
// rewritten code stopped releasing to the global clock, the worker's call
// released its write and main's call acquired it when the worker ran
// first (as the sleep makes it), so the race was reported only when main
// ran first.
package main

import (
	"fmt"
	"time"
)

func main() {
	next := func(n int) int { return n + 1 }
	x := 0
	done := make(chan int)
	go func() {
		x = 1 // want race with the read below
		done <- next(0)
	}()
	time.Sleep(20 * time.Millisecond)
	n := next(1)
	v := x // want race with the write above
	fmt.Println(v, n+<-done)
}
