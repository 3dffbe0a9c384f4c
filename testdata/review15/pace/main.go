// Reproducer of the review of 8f96725 (pacing shortens a history's life):
//
//	go build -race -o pace_race . && goanomaly build -hb -o pace_hb .
//	W=512 S=2 HOLD=1 N=1000 ./pace_hb   # 8f96725: no report (7 collections); c68179f and -race: the race
//
// sweep.sh runs a binary at several N and counts reports and collections.

// A goroutine writes x once; then a publisher sends N messages through a
// reused buffer to S subscribers (each reads every payload: read sets in
// extensions, little heap allocation); then another goroutine, ordered
// after the publisher but not after the writer, reads x. The write and
// the read race.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
)

var x int

var S = 8

var buf [8][]uint64 // payloads, reused round robin

func main() {
	n, _ := strconv.Atoi(os.Getenv("N"))
	w, _ := strconv.Atoi(os.Getenv("W"))
	if s, _ := strconv.Atoi(os.Getenv("S")); s > 0 {
		S = s
	}
	if w == 0 {
		w = 8
	}
	for i := range buf {
		buf[i] = make([]uint64, w)
	}
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(3)
	hold := make(chan struct{})
	// Read here: a call into unchecked code after the write would order
	// it (Foreign).
	holding := os.Getenv("HOLD") != ""
	go func() { // the writer: stays alive, unordered with the reader
		defer wg.Done()
		x = 1
		if holding {
			<-hold
		}
	}()
	go func() { // the publisher
		defer wg.Done()
		time.Sleep(100 * time.Millisecond) // after the write, by the clock only
		subs := make([]chan int, S)
		acks := make(chan int, S)
		var swg sync.WaitGroup
		for i := range subs {
			subs[i] = make(chan int, 1)
			swg.Add(1)
			go func(c chan int) {
				defer swg.Done()
				var sum uint64
				for m := range c {
					for _, v := range buf[m] {
						sum += v
					}
					acks <- 1
				}
				_ = sum
			}(subs[i])
		}
		for i := 0; i < n; i++ {
			m := i % len(buf)
			for k := range buf[m] {
				buf[m][k] = uint64(i + k)
			}
			for _, c := range subs {
				c <- m
			}
			for range subs {
				<-acks
			}
		}
		for _, c := range subs {
			close(c)
		}
		swg.Wait()
		close(done)
	}()
	go func() { // the reader
		defer wg.Done()
		<-done
		fmt.Println("x =", x)
		close(hold)
	}()
	wg.Wait()
}
