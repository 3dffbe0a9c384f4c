// As testdata/review17/deplock, but publish unlocks mu with a deferred
// call into the plain dependency: defer dep.Unlock(&mu). No race; go run
// -race is silent. goanomaly run -hb reported, on every run, Read of ready
// at main.go:39 by goroutine #2, Previous write of ready at main.go:31 by
// goroutine #1: a deferred call into code that is not rewritten was hooked
// where it runs only when it had no arguments (ForeignLater), so this
// Unlock was no Foreign. Fixed in session 18: such a call is followed by
// defer _ga_rt.ForeignNext(task), which runs right before it, and its
// mutex is escaped at the defer (testscript hb_escape_mutex, modes defer
// and deferracy).
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
