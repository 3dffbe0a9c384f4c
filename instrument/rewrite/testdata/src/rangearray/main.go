package main

import (
	"fmt"
	"sync"
)

// What a range loop over an array reads (rewrite/rangelen.go). With one
// iteration variable the array is not evaluated: the goroutines of keys
// write their own elements while ranging over the array, and share
// nothing. With a value, an array value is copied (read whole) once
// before the loop, and nothing is read per iteration; a pointer to an
// array is read element by element. Elements are chosen through (i*3)%n
// so that nothing is proven.

type table struct{ arr [4]int }

// keys: each goroutine writes its element under a loop over the keys.
func keys(t *table, n int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			for k := range t.arr {
				if k == r {
					t.arr[k] = r + 1
				}
			}
		})
	}
	wg.Wait()
}

// copies: each goroutine writes its element, then sums a copy of the
// array: a race with every other goroutine's write.
func copies(t *table, out []int, n int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			t.arr[r] = 2
			s := 0
			for _, v := range t.arr {
				s += v
			}
			out[r] = s
		})
	}
	wg.Wait()
}

// elems: the same through a pointer to the array, read element by element.
func elems(p *[4]int, out []int, n int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := (i * 3) % n
			p[r] = 3
			s := 0
			for k, v := range p {
				s += v * k
			}
			out[r] = s
		})
	}
	wg.Wait()
}

func main() {
	n := 4
	t := &table{}
	keys(t, n)
	fmt.Println(t.arr)
	out := make([]int, n)
	copies(t, out, 1) // one goroutine: nothing races
	fmt.Println(out[0])
	copies(t, out, n)
	elems(&t.arr, out, n)
	fmt.Println(t.arr)
}
