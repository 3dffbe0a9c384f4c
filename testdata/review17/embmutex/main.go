// A struct embeds a sync.Mutex; the publisher takes it as g.Lock() (the
// promoted method), the poller as g.Mutex.Lock(). data is written before
// the publisher's section and read after the poller saw ready: ordered
// by the mutex, no race; go run -race is silent. goanomaly run -hb at
// 5587ffc reported two DATA RACEs on every run (g.ready at main.go:34 /
// main.go:40, data at main.go:32 / main.go:47): the promoted call was
// hooked as a generic sync object (instrument/rewrite/hb.go, hbSyncCall
// → hbPromoted → SyncOp), with a clock of its own, while g.Mutex.Lock()
// was hooked as a lock (lockCall → Task.Acquire), so the poller's
// acquires never saw the publisher's releases. It should be silent.
package main

import (
	"fmt"
	"runtime"
	"sync"
)

type guarded struct {
	sync.Mutex
	ready bool
}

var (
	g    guarded
	data int
)

func main() {
	done := make(chan bool)
	go func() {
		data = 42
		g.Lock()
		g.ready = true
		g.Unlock()
	}()
	go func() {
		for {
			g.Mutex.Lock()
			ok := g.ready
			g.Mutex.Unlock()
			if ok {
				break
			}
			runtime.Gosched()
		}
		fmt.Println(data)
		done <- true
	}()
	<-done
}
