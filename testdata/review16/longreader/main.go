// Two readers hold an RWMutex while more than 64 other read sections come
// and go; then A writes x inside a read section it began before telling
// main, which takes the write lock (so after A's RUnlock) and reads x.
// Correct: no race in any schedule. go run -race prints 1 and no report.
// goanomaly run -hb at 2b5c7be reported a WRITE-READ race on x on every
// run: the long reader's snapshot went back to the lock's free list twice
// and A's log entry shared one with later releases (rt test
// TestHBWCPSnapLongReaderVerdict).
package main

import (
	"fmt"
	"sync"
	"time"
)

var (
	rw sync.RWMutex
	x  int
	y  int
)

// long holds a read section until told, and says when it has ended.
func long() chan bool {
	c := make(chan bool)
	go func() {
		rw.RLock()
		_ = y
		c <- true
		<-c
		rw.RUnlock()
		c <- true
	}()
	<-c
	return c
}

// readers makes n read sections in a goroutine and returns once it did.
func readers(n int) {
	c := make(chan bool)
	go func() {
		<-c
		for i := 0; i < n; i++ {
			rw.RLock()
			_ = y
			rw.RUnlock()
		}
		c <- true
	}()
	c <- true
	<-c
}

func main() {
	l1, l2 := long(), long()
	readers(64)
	l1 <- true
	<-l1
	ch := make(chan bool)
	go func() { // A
		rw.RLock()
		ch <- true
		x = 1
		rw.RUnlock()
	}()
	<-ch
	time.Sleep(100 * time.Millisecond) // A's RUnlock
	readers(1)
	l2 <- true
	<-l2
	rw.Lock() // after A's RUnlock: A held the read lock when it sent
	rw.Unlock()
	fmt.Println(x)
}
