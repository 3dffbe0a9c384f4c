// Package main stores through append and copy into memory a kept index
// reads, in statements whose results nothing reads: append(xs[:1], 1)
// writes xs[1] (the array is shared), copy(dst, src) fills dst. Both stay;
// the sliced program exits with the same code (1 + 2).
package main

import "os"

func main() {
	xs := []int{0, 0, 0}
	ys := append(xs[:1], 1)
	_ = ys
	src := []int{2, 2}
	dst := make([]int, 2)
	n := copy(dst, src)
	_ = n
	f := 2.5 * float64(len(os.Args))
	_ = f
	os.Exit(xs[1] + dst[0])
}
