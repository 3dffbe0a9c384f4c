// main publishes ready under mu, which it locks and unlocks through a
// dependency built plain (example.com/dep, no construct, so -deps leaves
// it as written); the poller takes mu itself. Every access of ready is
// under mu: no race, and go run -race is silent. goanomaly run -hb at
// 5587ffc reported a DATA RACE on every run (5 of 5): Write of ready at
// main.go:53 by goroutine #1, Previous read of ready at main.go:40 by
// goroutine #2. The poller's Unlock is hooked (rt/hb_wcp_lock.go,
// releaseLock) and releases only to the lock's own clocks, never to the
// global clock G; dep.Lock(&mu) is a Foreign call, whose acquire takes
// only G, so the hand-off from the poller's section to main's is lost.
// Escape (instrument/rewrite/hb.go, hbBefore; rt/hb_sync.go, hbEscape)
// publishes to G only the releases of channels given to code that is not
// rewritten, not those of a mutex. The same false report comes, in about
// one run of three, when main takes mu through method values
// (lock := mu.Lock; lock()), which are calls through values into the
// standard library. It should be silent (a mutex that code goanomaly does
// not follow takes should order fully, as under -race). Fixed on branch
// review17 for a mutex given as an argument (Escape now marks it, and
// rt's escapeLock sends its releases to G); the method-value form is not.
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
	dep.Lock(&mu)
	ready = true
	dep.Unlock(&mu)
	<-done
}
