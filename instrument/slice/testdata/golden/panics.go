// Package main's store goes (nothing reads b), but its index is out of
// range on the last iteration: the sliced program must panic there too.
package main

import "os"

func fill(b []float64, n int) {
	for i := 0; i <= n; i++ {
		_ = &b[i]
	}
}

func main() {
	n := len(os.Args) + 2
	b := make([]float64, n)
	fill(b, n)
}
