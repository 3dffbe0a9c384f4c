// A goroutine started by a function that a package variable's
// initializer calls writes w, unordered with main's read. go run -race
// prints 1 and reports the race (Write at main.go:22 by goroutine 6,
// Previous read at main.go:27 by main goroutine). goanomaly run -hb at
// 394348d printed the value it read and no report, after noting the go statement "checked
// by happens-before (-hb)": variable initializers run before any init
// function, outside every root, so HB() was nil in start and its
// goroutine was no thread.
package main

import "fmt"

var (
	w    int
	done = make(chan bool)
)

var _ = start()

// start runs while package variables are initialized.
func start() int {
	go func() { w = 1; done <- true }()
	return 0
}

func main() {
	v := w
	<-done
	fmt.Println(v)
}
