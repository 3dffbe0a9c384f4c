// Callbacks the runtime runs on goroutines of its own, each ordered as the
// Go memory model (and the race detector) orders it: a timer's function
// after the AfterFunc call and the Reset, a finalizer after the last use
// of its object (by any goroutine), a cleanup likewise. An -hb build runs
// each as a thread of its own and reports nothing.
package main

import (
	"fmt"
	"runtime"
	"time"
)

type object struct {
	name string
	p    *int // a pointer: the object is not tiny-allocated
}

func main() {
	// The timer's function runs after the AfterFunc call, and main
	// receives what it sent.
	x := 1
	fired := make(chan bool)
	time.AfterFunc(time.Millisecond, func() {
		x++
		fired <- true
	})
	<-fired
	x++
	fmt.Println("x", x)

	// A stopped timer reset: its function follows the Reset.
	y := 0
	t := time.AfterFunc(time.Hour, func() {
		y++
		fired <- true
	})
	t.Stop()
	y = 10
	t.Reset(time.Millisecond)
	<-fired
	fmt.Println("y", y)

	// A finalizer and a cleanup run after their objects' last use, by a
	// goroutine that ended without telling anyone (written after the
	// registrations, with no call between that the layer sees).
	done := make(chan bool, 2)
	sent := make(chan bool)
	go func() {
		o := &object{}
		runtime.SetFinalizer(o, func(o *object) {
			o.name = "finalized"
			done <- true
		})
		tag := new(string)
		runtime.AddCleanup(&object{}, func(s *string) {
			*s = "cleaned"
			done <- true
		}, tag)
		o.name = "used"
		*tag = "tagged"
		sent <- true
	}()
	<-sent
	ran := 0
	for try := 0; ran < 2 && try < 100; try++ {
		runtime.GC()
		select {
		case <-done:
			ran++
		case <-time.After(10 * time.Millisecond):
		}
	}
	fmt.Println("callbacks run:", ran)
}
