package main

import (
	"sync"
	"time"
)

func main() {
	x := 0
	var unrelated sync.Mutex
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		x = 1
		unrelated.Lock()
		unrelated.Unlock()
	}()
	go func() {
		defer wg.Done()
		time.Sleep(10 * time.Millisecond)
		unrelated.Lock()
		unrelated.Unlock()
		println(x)
	}()
	wg.Wait()
}
