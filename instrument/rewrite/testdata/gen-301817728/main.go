package main

import (
	"golang.org/x/sync/errgroup"
	"math"
	"runtime"
	"sync"
)

var sink int

type f0acc struct {
	tot int
}

func f0() {
	h, m := 3, 10
	a := make([][]int, h)
	for k := range a {
		a[k] = make([]int, m+1)
	}
	x := &f0acc{}
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			r := (i*3 + 2) % h
			r0 := (r + 1 + 0) % h
			sum := 0
			for j := range a[r0] {
				a[r][j] += a[r0][j]
			}
			_ = sum
		})
	}
	wg.Wait()
	sink += a[0][0] + x.tot
}

type f1acc struct {
	tot float64
}

func f1() {
	const h, w = 5, 7
	f := make([]float64, h*w)
	gm := make([]float64, h*w)
	for k := range gm {
		gm[k] = float64(k % 5)
	}
	x := &f1acc{}
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			r := (i*2 + 1) % h
			r0 := (r + 1 + 2) % h
			sum := 0.0
			_ = r0
			for j := range w {
				x.tot += math.Abs(f[r0*w+j])
			}
			_ = sum
		})
	}
	wg.Wait()
	sink += int(f[0] + x.tot)
}

type f2acc struct {
	tot int
}

func f2() {
	const h, m = 6, 5
	a := make([][]int, h)
	for k := range a {
		a[k] = make([]int, m+1)
	}
	x := &f2acc{}
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			r := (i*2 + 0) % h
			r0 := (r + 1 + 1) % h
			sum := 0
			{
				src := a[r0][1:]
				for j := range m {
					if j == 2 {
						break
					}
					a[r][j] = src[j] + j
				}
			}
			_ = sum
		})
	}
	wg.Wait()
	sink += a[0][0] + x.tot
}

type f3acc struct {
	tot float64
}

func f3() {
	const h, w = 6, 7
	f := make([]float64, h*w)
	gm := make([]float64, h*w)
	for k := range gm {
		gm[k] = float64(k % 5)
	}
	x := &f3acc{}
	var g errgroup.Group
	for i := range 3 {
		g.Go(func() error {
			r := (i*3 + 2) % h
			r0 := (r + 1 + 1) % h
			sum := 0.0
			_ = r0
			for j := range w - 1 {
				v := math.Sqrt(f[r0*w+j])
				if v > 2 {
					v = 2
				}
				f[r*w+j] = v + 1
			}
			_ = sum
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		panic(err)
	}
	sink += int(f[0] + x.tot)
}

func f4() {
	n := 28
	a := make([]int, n+3)
	var g errgroup.Group
	const chunks = 6
	for c := range chunks {
		g.Go(func() error {
			lo, hi := c*n/chunks, (c+1)*n/chunks
			sum := 0
			for j := lo; j < hi; j++ {
				a[j] = j
				sum += a[j+1]
				a[j+1]++
				sum += a[j]
				a[j]++
			}
			_ = sum
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		panic(err)
	}
	sink += a[0] + a[n]
}

func main() {
	runtime.GOMAXPROCS(1)
	f0()
	f1()
	f2()
	f3()
	f4()
}
