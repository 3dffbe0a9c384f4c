// Package main is a gemm-like kernel written as the rewriter leaves it:
// its floating-point work reaches only memory nothing kept loads and a
// print, so it goes; the checks, their addresses and the loop bounds stay.
package main

import (
	_ "fmt"

	_ga_rt "github.com/goanomaly/goanomaly/rt"
)

func gemm(k *_ga_rt.Task, n int, alpha float64, C, A, B []float64) {
	for i := 0; i < n; i++ {
		c := C[i*n : (i+1)*n]
		for j := range c {
			_ = &c[j]
		}
		for p := range n {
			_ga_rt.R(k, &A[i*n+p], 1)
			for j := range B[p*n : (p+1)*n] {
				_ga_rt.RW(k, &c[j], 2)
			}
		}
	}
}

func main() {
	n := 8
	C, A, B := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
	for i := range A {
		_ = &A[i]
		_ = &B[i]; _ = i%n
	}
	gemm(nil, n, 1.5, C, A, B)
	
	


	
}
