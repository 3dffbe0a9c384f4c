// Command initgo: a goroutine started in init writes w, main reads it
// unordered. go run -race: a DATA RACE (read in main.main, write in
// main.init.0.func1). goanomaly run -hb: no report.
package main

import (
	"fmt"
	"time"
)

var w int

func init() {
	go func() { w = 1 }()
}

func main() {
	time.Sleep(10 * time.Millisecond)
	fmt.Println(w)
}
