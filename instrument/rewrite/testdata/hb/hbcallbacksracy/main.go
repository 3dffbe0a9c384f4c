// Two timers' functions write one variable, and nothing orders them: each
// runs on a goroutine of the timer's, begun after the AfterFunc call
// (TestRaceAfterFunc3 of the race detector's suite).
package main

import (
	"fmt"
	"time"
)

func main() {
	c := make(chan bool, 2)
	x := 0
	_ = x
	time.AfterFunc(time.Millisecond, func() {
		x = 1 // want race with the write below
		c <- true
	})
	time.AfterFunc(20*time.Millisecond, func() {
		x = 2 // want race with the write above
		c <- true
	})
	<-c
	<-c
	fmt.Println("both fired")
}
