// A bare return reads the named result that a goroutine the function
// started writes (TestRaceHeapParam of the race detector's suite).
package main

import "fmt"

func main() {
	done := make(chan bool)
	x := func() (x int) {
		go func() {
			x = 42 // want race with the return below
			done <- true
		}()
		return // want race with the write above
	}()
	<-done
	fmt.Println(x >= 0)
}
