// Bare returns whose named results goroutines wrote in an order the
// program makes: the write is received before the return, or a deferred
// Lock follows the goroutine's Unlock (the result is read after the
// deferred calls). An -hb build reports nothing.
package main

import (
	"fmt"
	"sync"
)

func received() (x int) {
	done := make(chan bool)
	go func() {
		x = 1
		done <- true
	}()
	<-done
	return
}

func waited() (x int, err error) {
	var mu sync.Mutex
	mu.Lock()
	defer mu.Lock() // after the goroutine's Unlock
	go func() {
		x = 2
		mu.Unlock()
	}()
	return
}

func main() {
	fmt.Println(received())
	fmt.Println(waited())
}
