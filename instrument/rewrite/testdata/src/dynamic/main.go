package main

import (
	"fmt"
	"sync"
)

// each runs f on every index in goroutines: the work is a function value.
func each(n int, f func(int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(i)
		}()
	}
	wg.Wait()
}

type rows struct{ r [][]int }

// fill is used as a method value: its prologue calls its clone.
func (rs *rows) fill(i int) { rs.r[i][0] = i }

type summer interface{ sum(int) int }

type add struct{ k int }

// unit and tens are globals the functions below read, so their checked
// clones check something and they keep their prologues (a function whose
// clone checks nothing gets none).
var unit, tens = 1, 10

// sum is a method of a type converted to summer.
func (a add) sum(x int) int { return x + a.k*unit }

// sumAll is variadic and used as a value.
func sumAll(base int, xs ...int) int {
	for _, x := range xs {
		base += x
	}
	return base
}

// split has named results and is used as a value.
func split(x int) (hi, lo int) {
	hi, lo = x/tens, x%tens
	return
}

// double is used as a value but reads nothing shared: its checked clone
// would be its body again, so it gets no prologue (and keeps no frame).
func double(x int) int { return 2 * x }

// first is generic and used as a value.
func first[T any](xs []T, _ int) T { return xs[0] }

func main() {
	out := make([]int, 8)
	each(len(out), func(i int) { out[i] = i * i })
	rs := &rows{r: make([][]int, 4)}
	for i := range rs.r {
		rs.r[i] = make([]int, 1)
	}
	each(len(rs.r), rs.fill)
	var s summer = add{k: 1}
	got := make([]int, 4)
	each(len(got), func(i int) {
		got[i] = s.sum(i)
	})
	total := sumAll
	f := first[int]
	sp := split
	h, l := sp(42)
	dbl := double
	twice := make([]int, 4)
	each(len(twice), func(i int) { twice[i] = dbl(i) })
	fmt.Println(out, rs.r, got, total(1, 2, 3), f(out, 0), h, l, twice)
}
