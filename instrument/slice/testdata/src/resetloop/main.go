// Package main's counted loops never end when a float says so: the first
// resets its counter, the second grows its bound (a field of a struct
// variable). Their bodies' stores go (nothing reads i or b), but neither
// is a counted loop that surely ends: both stay, with what they assign,
// and the sliced program never ends either.
package main

import (
	"fmt"
	"os"
)

type bound struct{ n int }

func main() {
	x := float64(len(os.Args)) + 0.5
	fmt.Println(x)
	var b bound
	b.n = 3
	for i := 0; i < b.n; i++ {
		if x > 1 {
			b.n++
		}
	}
	for i := 0; i < 3; i++ {
		if x > 1 {
			i = 0
		}
	}
	os.Exit(0)
}
