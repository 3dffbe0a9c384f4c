// Package main reads memory in ways the slice must see: a value method
// called through a pointer copies the struct (so p.x = 3 stays), and a
// deferred function sets a named result after an explicit return (so it
// stays); the float stores into out go.
package main

import _ga_rt "github.com/goanomaly/goanomaly/rt"

type vec struct{ x, y float64 }

func (v vec) norm2() float64 { return v.x*v.x + v.y*v.y }

func index(a []int) (n int) {
	defer func() { n = len(a) - 1 }()
	return 0
}

func main() {
	a := make([]int, 4)
	out := make([]float64, 4)
	p := &vec{}
	p.x = 3
	out[1] = p.x * 2
	if p.norm2() > 4 {
		_ga_rt.W(nil, &a[index(a)], 1)
	}
}
