// Package main hands &c to code outside through the runtime: a deferred
// call into plain code, rt.PlainArgs1(f)(&c), runs f with the pointer, and
// f may load what it reaches. So the store of c's field through p stays;
// the float store into out goes.
package main

import (
	"runtime"

	_ga_rt "github.com/goanomaly/goanomaly/rt"
)

type conf struct{ n int }

func main() {
	var c conf
	p := &c
	p.n = 3
	out := make([]float64, 2)
	out[0] = 1.5
	func() {
		defer _ga_rt.PlainArgs1[any](runtime.KeepAlive)(&c)
	}()
}
