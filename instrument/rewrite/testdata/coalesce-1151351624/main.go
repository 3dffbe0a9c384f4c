package main

import (
	"fmt"
	"math"
	"sync"
)

type box struct {
	v   []int
	n   int
	sum int
}

// table is assigned nowhere but here, shared also by reset.
var table, shared = make([]int, 9), make([]int, 9)

func reset() { shared = nil }

func main() {
	a := [][]int{make([]int, 9), make([]int, 9)}
	b := &box{v: make([]int, 9), n: 8}
	m := map[int]int{}
	p := []*box{b}
	d := 2
	n := 8
	f := make([]int, 64)
	g := make([]float64, 64)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			r := 1 - i
			// The rows, the bound and the slice as values of the goroutine:
			// nothing proves that no other block writes a[r] or b.n.
			ar, ai, bn, bv := a[r], a[i], b.n, b.v
			for j := range 8 { // moved
				ar[j] = ai[j+1] + 1
			}
			for j := 1; j < bn; j++ { // moved
				b.sum += bv[j-1] / 3
			}
			for j, x := range bv { // moved
				ar[j] += x
			}
			for j, x := range ai[1:] { // moved: over the temporary holding ai[1:] (rangetemp.go)
				ar[j] += x
			}
			for _, x := range ai[:d] { // moved: over a temporary, no key
				b.sum += x
			}
			for j, x := range ai[1:] { // kept: return, as over a slice variable
				if x > 100 {
					return
				}
				ar[j] += x
			}
			for j := range 8 { // kept: break
				if j == 3 {
					break
				}
				ar[j]++
			}
			for j := range 8 { // kept: call
				ar[j] = len(fmt.Sprint(j))
			}
			for j := range 8 { // kept: map
				m[j] = ar[j]
			}
			for j := range 8 { // kept: subscript not j+d
				ar[2*j/3]++
			}
			e := d
			for j := range 8 { // kept: division by a variable the loop writes
				e = ar[j] / e
			}
			for j := range 8 { // moved: division by an invariant
				ar[j] /= d
			}
			for j := 1; j < b.n; j++ { // kept: a bound another block may write (b.n, read through a pointer, is checked)
				b.sum += bv[j-1]
			}
			for j := range 8 { // kept: a row another block may write (a[r] is checked)
				a[r][j] = 1
			}
			for j := range 8 { // moved: a global nothing assigns
				ar[j] += table[j]
			}
			for j := range 8 { // kept: a global a function assigns
				ar[j] += shared[j]
			}
			for j := range 8 { // kept: row variable written in the loop
				a[r][j]++
				r = 0
			}
			for j := range 8 { // kept: pointer that may be nil
				q := p[0]
				q.sum += ar[j]
			}
			for j := range 8 { // kept: j assigned
				ar[j]++
				j++
			}
			for j := range n { // moved: symbolic offset
				f[r*n+j] += f[r*n+j]
			}
			for j := 1; j < n-1; j++ { // moved: stencil of one row
				f[r*n+j] = f[r*n+j-1] + f[(r+1)*n-n+j+1]
			}
			for j := range n { // moved: two rows, symbolic offsets apart
				f[r*n+j] = f[i*n+j] - f[n*(r+2)+j-1]
			}
			for j := range n { // moved: math call
				g[r*n+j] = math.Sqrt(math.Abs(g[r*n+j]))
			}
			for j := range n { // moved: continue, the write after it checked first
				f[r*n+j] = 0
				if j == 2 {
					continue
				}
				f[r*n+j] = 1
			}
			for j := range n { // moved: a nested loop that checks nothing (coalesce_nest.go)
				f[r*n+j] = 0
				if j == 2 {
					continue
				}
				for range 1 {
				}
			}
			acc := 0
			for range 3 { // moved: a nested loop's values over an invariant slice, spanned whole
				for _, x := range bv {
					acc += x
				}
				b.sum = acc
			}
			for range 3 { // kept: a nested loop's values, conditionally
				if acc > 0 {
					for _, x := range bv {
						acc += x
					}
				}
			}
			for j := range n { // kept: a nested loop that checks its iterations (coalesced itself)
				f[r*n+j] = 0
				for k := range 2 {
					f[r*n+k] = 1
				}
			}
		next:
			for j := range n { // kept: labelled continue
				f[r*n+j] = 0
				for range 2 {
					continue next
				}
			}
			for j := range n { // kept: a nested loop that breaks
				f[r*n+j] = 0
				for range 2 {
					break
				}
			}
			for j := range n { // kept: stride 2
				f[2*j] = 1
			}
			for j := range n { // kept: j with coefficient -1
				f[n-j] = 1
			}
			for j := range n { // kept: j in a product
				f[r+j*n] = 1
			}
			k := n
			for j := range k { // kept: offset the loop writes
				f[r*k+j] = 1
				k--
			}
			for j := range 4 { // moved: negative symbolic term
				f[n*2-r+j] = 1
			}
		})
	}
	wg.Wait()
}
