// Package main's loop body is only traps once its float store goes: the
// loop becomes the traps of its first and last iteration, and the last
// one is out of range, so the sliced program panics as the original.
package main

import "os"

func shift(b []float64, n int) {
	for j := 1; j < n+1; j++ {
		b[j] = b[j-1] * 0.5
	}
}

func main() {
	n := len(os.Args) + 2
	shift(make([]float64, n), n)
}
