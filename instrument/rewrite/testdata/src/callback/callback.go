// Command callback hands its loop bodies to helpers that fork, as numeric
// Go does (fdtd-2d's rows, bild's parallel.Line): each literal is proven
// as the body of its helper's construct. The last sweep passes the same
// slice as source and destination, so its guard fails at run time and the
// checked copy reports the race between neighbouring blocks.
package main

import (
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"
)

// rows runs body over [from, to) in blocks of bs rows and waits.
func rows(from, to, bs int, body func(lo, hi int)) {
	var g errgroup.Group
	for lo := from; lo < to; lo += bs {
		g.Go(func() error {
			body(lo, min(lo+bs, to))
			return nil
		})
	}
	g.Wait()
}

// each runs body once per index, one goroutine each.
func each(n int, body func(i int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body(i)
		}()
	}
	wg.Wait()
}

// shift sets dst[i] = src[i+1] for i in [0, n).
func shift(n, bs int, dst, src []float64) {
	rows(0, n, bs, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			dst[i] = src[i+1]
		}
	})
}

func main() {
	const nx, ny, bs = 40, 30, 7
	a, b := make([]float64, nx*ny), make([]float64, nx*ny)
	for k := range b {
		b[k] = float64(k)
	}
	rows(0, nx, bs, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for j := range ny {
				a[i*ny+j] = b[i*ny+j] + b[i*ny+(j+1)%ny]
			}
		}
	})
	sq := make([]float64, nx)
	each(nx, func(i int) {
		sq[i] = a[i*ny] * a[i*ny]
	})
	c := make([]float64, nx+1)
	shift(nx-1, 5, c[:nx], c[:nx+1]) // apart by nothing: the guard fails, the checked copy runs
	s := 0.0
	for k := range a {
		s += a[k]
	}
	for _, v := range sq {
		s += v
	}
	fmt.Println(s, c[0])
}
