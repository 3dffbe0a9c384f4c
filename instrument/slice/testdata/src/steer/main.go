// Package main's kernel lets a floating-point value decide whether a
// checked access runs: the comparison loads float64, so every float64
// store stays.
package main

import (
	"fmt"

	_ga_rt "github.com/goanomaly/goanomaly/rt"
)

func steer(k *_ga_rt.Task, a, w []float64) {
	for i := range w {
		if w[i] > 0.5 {
			(*_ga_rt.RW(k, &a[0], 1)) += 1
		}
	}
}

func main() {
	w := make([]float64, 6)
	for i := range w {
		w[i] = float64(i%2) * 0.75
	}
	a := []float64{0}
	steer(nil, a, w)
	fmt.Println(a[0])
}
