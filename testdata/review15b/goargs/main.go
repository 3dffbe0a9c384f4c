// Command goargs: a go statement whose arguments receive from a channel
// (go use(<-ch, done)): the receive happens before the go statement, so
// use reads x after the sender wrote it. go run -race: no report, for
// every mode (recv, call, five, lit). goanomaly run -hb: a false WRITE-READ
// report of x, as GoAt(site) is evaluated before the arguments (it is
// the first argument of Spawned, or of the rewritten literal).
package main

import (
	"fmt"
	"os"
)

var x int

func use(v int, done chan bool) {
	fmt.Println(x + v)
	done <- true
}

func use5(v, a, b, c int, done chan bool) {
	fmt.Println(x + v + a + b + c)
	done <- true
}

func get(ch chan int) int { return <-ch }

func main() {
	ch := make(chan int)
	done := make(chan bool)
	go func() {
		x = 1
		ch <- 2
	}()
	switch os.Args[1] {
	case "recv":
		go use(<-ch, done)
	case "call":
		go use(get(ch), done)
	case "five":
		go use5(<-ch, 0, 0, 0, done)
	case "lit":
		go func(v int, done chan bool) {
			fmt.Println(x + v)
			done <- true
		}(<-ch, done)
	}
	<-done
}
