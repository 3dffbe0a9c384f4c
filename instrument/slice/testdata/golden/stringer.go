// Package main prints a value whose String method holds a check: fmt
// would call it, so the print stays.
package main

import (
	"fmt"

	_ga_rt "github.com/goanomaly/goanomaly/rt"
)

type cell struct {
	k *_ga_rt.Task
	v []float64
}

func (c cell) String() string {
	return fmt.Sprint(*_ga_rt.R(c.k, &c.v[0], 1))
}

func main() {
	c := cell{v: []float64{1.5}}
	_ = &c.v[0]
	fmt.Println(c)
	
}
