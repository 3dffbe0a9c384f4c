// Package main gathers through an index array: the indices decide the
// checked addresses, so the int stores that fill idx stay, while the
// float64 values gathered go.
package main

import _ga_rt "github.com/goanomaly/goanomaly/rt"

func gather(k *_ga_rt.Task, out, in []float64, idx []int) {
	for i := range idx {
		_ = &out[i]; _ga_rt.R(k, &in[idx[i]], 1)
	}
}

func main() {
	n := 5
	idx := make([]int, n)
	in, out := make([]float64, n), make([]float64, n)
	for i := range idx {
		idx[i] = (i * 3) % n
		_ = &in[i]
	}
	gather(nil, out, in, idx)
}
