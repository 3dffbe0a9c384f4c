package main

import (
	"fmt"
	"os"
)

type Point struct{ x, y int }

type (
	Point32   [2][2][2][2][2]Point
	Point1024 [2][2][2][2][2]Point32
	Point32k  [2][2][2][2][2]Point1024
	Point1M   [2][2][2][2][2]Point32k
)

var a, b, c, d Point1M

// load copies a whole array through a pointer, in a function the parent calls.
func load(p *Point1M) int {
	v := *p
	return v[1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1].x
}

func main() {
	racy := os.Args[1] == "racy"
	ch := make(chan bool, 1)
	go func() {
		if racy {
			a[0][1][0][1][0][1][0][1][0][1][0][1][0][1][0][1][0][1][0][1].y = 1
			c[1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1][1].x = 1
		}
		ch <- true
	}()
	if racy {
		a = b
	} else {
		d = b
	}
	pc := &c
	n := load(pc)
	<-ch
	fmt.Println(n*0, d[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0].x)
}
