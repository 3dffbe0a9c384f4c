// Package main raises panics in statements whose values reach nothing,
// and recovers them: each recovered panic sets a bit of the exit code, so
// the sliced program must panic in the same statements (a panic with no
// trap is a statement that stays) and exit with the same code.
package main

import (
	"fmt"
	"os"
	"strings"
)

// try runs f and reports whether it panicked.
func try(f func()) (panicked bool) {
	defer func() {
		if recover() != nil {
			panicked = true
		}
	}()
	f()
	return false
}

// named reports whether the recovered panic's message names index [2]:
// a loop of reads hoisted to its first and last iteration would name [3].
func named(f func()) (hit bool) {
	defer func() {
		if r := recover(); r != nil && strings.Contains(fmt.Sprint(r), "[2]") {
			hit = true
		}
	}()
	f()
	return false
}

func main() {
	d, s := len(os.Args)-1, -len(os.Args) // 0 and -1 when run with no arguments
	var x, y any = []int{1}, []int{2}
	var p *[4]float64
	fs, gs := make([]float64, 2), make([]float64, 5)
	code := 0
	bit := func(n int, hit bool) {
		if hit {
			code |= 1 << n
		}
	}
	bit(0, try(func() { v := 10; v /= d }))
	bit(1, try(func() { v := 10; v <<= s }))
	bit(2, try(func() { same := x == y; _ = same }))
	bit(3, try(func() { m := map[any]float64{}; v := m[x]; _ = v }))
	bit(4, try(func() { m := map[any]float64{x: 1.5}; _ = m }))
	bit(5, try(func() {
		t := 0.0
		for _, v := range p {
			t += v
		}
	}))
	bit(6, try(func() {
		t, k := 0.0, 0
		for i, v := range p {
			t += v
			k = i
		}
		code += k
	}))
	bit(7, named(func() {
		for i := 0; i < 4; i++ {
			t := gs[i]
			u := fs[i] + t
			_ = u
		}
	}))
	os.Exit(code)
}
