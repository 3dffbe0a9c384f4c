// Goroutines started in init and in a package variable's initializer: a
// background refresher publishing through a channel, a registry filled
// under a mutex by an init goroutine, and a racy counter that an init
// goroutine bumps while main reads it (a real race: go run -race reports
// the write at main.go:44 against the read at main.go:55).
package main

import (
	"fmt"
	"sync"
	"time"
)

var events = startEvents()

func startEvents() chan []string {
	ch := make(chan []string, 1)
	go func() {
		s := []string{"boot"}
		s = append(s, "ready")
		ch <- s
	}()
	return ch
}

var (
	regMu sync.Mutex
	reg   = map[string]int{}
	ready = make(chan struct{})
)

func init() {
	go func() {
		regMu.Lock()
		reg["a"] = 1
		regMu.Unlock()
		close(ready)
	}()
}

var ticks int

func init() {
	go func() { ticks++ }()
}

func main() {
	ev := <-events
	ev[0] = "seen"
	<-ready
	regMu.Lock()
	n := reg["a"]
	regMu.Unlock()
	time.Sleep(10 * time.Millisecond)
	fmt.Println(ev, n, ticks >= 0)
}
