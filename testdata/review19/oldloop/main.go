// A module at go 1.21: loop variables are one per loop. Goroutines that
// read the loop variable while the loop increments it race (go run -race
// reports the read at main.go:19 against the loop's increment, and the
// range loop's v likewise at main.go:27); the join through a channel
// makes the first loop a construct, the second is joined by a WaitGroup.
package main

import (
	"fmt"
	"sync"
	"time"
)

func main() {
	done := make(chan int)
	sum := 0
	for i := 0; i < 4; i++ {
		go func() {
			time.Sleep(time.Millisecond)
			done <- i
		}()
	}
	for k := 0; k < 4; k++ {
		sum += <-done
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := []string{}
	for _, v := range []string{"a", "b", "c"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Millisecond)
			mu.Lock()
			seen = append(seen, v)
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Println(sum >= 0, len(seen))
}
