// Package main's counted loop resets its counter when a float says so:
// it never ends. Its body's stores go (nothing reads i), but the loop is
// no counted loop that surely ends: it stays, with the reset, and the
// sliced program never ends either.
package main

import (
	"fmt"
	"os"
)

func main() {
	x := float64(len(os.Args)) + 0.5
	fmt.Println(x)
	for i := 0; i < 3; i++ {
		if x > 1 {
			i = 0
		}
	}
	os.Exit(0)
}
