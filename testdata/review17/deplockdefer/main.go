// As testdata/review17/deplock, but publish unlocks mu with a deferred
// call into the plain dependency: defer dep.Unlock(&mu). No race; go run
// -race is silent. goanomaly run -hb on branch review17 (after the fix of
// deplock) still reports, on every run, Read of ready at main.go:39 by
// goroutine #2, Previous write of ready at main.go:31 by goroutine #1:
// a deferred call into code that is not rewritten is hooked where it runs
// only when it has no arguments (instrument/rewrite/hb.go, deferLater:
// ForeignLater), so this Unlock is no Foreign: the holder's clock is not
// released to G before it, and the poller's next Lock, which takes G,
// does not follow the write of ready. Not fixed. It should be silent.
package main

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"example.com/dep"
)

var (
	mu    sync.Mutex
	ready bool
	data  int
)

func publish() {
	dep.Lock(&mu)
	defer dep.Unlock(&mu)
	ready = true
}

func main() {
	done := make(chan bool)
	go func() {
		for {
			mu.Lock()
			ok := ready
			mu.Unlock()
			if ok {
				break
			}
			runtime.Gosched()
		}
		fmt.Println(data)
		done <- true
	}()
	time.Sleep(time.Millisecond)
	data = 42
	publish()
	<-done
}
