// Package variables whose initializers call functions: each becomes a
// root (InitVar, InitCall and InitVars2..4), and the forms that cannot be
// wrapped (a method value's call, a generic function left to inference,
// a comma-ok form) stay as written. A function literal called in place
// gets its own HB, as a function's body does.
package main

import (
	"fmt"
	"strconv"
)

type pt struct{ x, y int }

func (p pt) both() (int, int) { return p.x, p.y }

var (
	one        = double(2)
	a, b       = pair(3)
	c, d, e    = func() (int, string, error) { return 1, "x", nil }()
	n, err     = strconv.Atoi("12")
	g, h       = gen[int](5)
	i, j       = gen(6)
	p          = pt{7, 8}
	px, py     = p.both()
	m          = map[string]int{"k": 1}
	mv, mok    = m["k"]
	q, r, s, t = four()
)

// started runs in a root too: the literal called in place finds its
// thread itself (HB), so its go statement is rewritten.
var started = func() chan int {
	ch := make(chan int, 1)
	go func() { ch <- 9 }()
	return ch
}()

func double(x int) int { return 2 * x }

func pair(x int) (int, int) { return x, x + 1 }

func gen[T any](v T) (T, T) { return v, v }

func four() (int, int, int, int) { return 1, 2, 3, 4 }

func main() {
	fmt.Println(one, a, b, c, d, e, n, err, g, h, i, j, px, py, mv, mok, q, r, s, t, <-started)
}
