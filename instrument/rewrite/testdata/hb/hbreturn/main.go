// Bare returns whose named results goroutines wrote in an order the
// program makes: the write is received before the return, or a deferred
// Wait follows the goroutine (the result is read after the deferred
// calls). An -hb build reports nothing.
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
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Add(1)
	go func() {
		defer wg.Done()
		x = 2
	}()
	return
}

func main() {
	fmt.Println(received())
	fmt.Println(waited())
}
