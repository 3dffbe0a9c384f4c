// An exported interface method of the program's own, called by two
// goroutines that nothing else orders: before calls of interface methods
// looked at the method the value holds, each call released to the global
// clock and acquired it, so the worker's write of x, made before its call,
// was ordered before main's read after main's call (the sleep makes the
// worker run first), and the race was reported only when main ran first.
package main

import (
	"fmt"
	"time"
)

type stepper interface{ Step(n int) int }

type inc struct{}

func (*inc) Step(n int) int { return n + 1 }

func main() {
	var s stepper = &inc{}
	x := 0
	done := make(chan int)
	go func() {
		x = 1 // want race with the read below
		done <- s.Step(0)
	}()
	time.Sleep(20 * time.Millisecond)
	n := s.Step(1)
	v := x // want race with the write above
	fmt.Println(v, n+<-done)
}
