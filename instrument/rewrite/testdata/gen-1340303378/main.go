package main

import (
	"math"
	"runtime"
	"sync"
)

var sink int

type f0acc struct {
	tot float64
}

func f0() {
	const h, w = 5, 10
	f := make([]float64, h*w)
	gm := make([]float64, h*w)
	for k := range gm {
		gm[k] = float64(k % 5)
	}
	x := &f0acc{}
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := (i*3 + 0) % h
			r0 := (r + 1 + 1) % h
			sum := 0.0
			_ = r0
			for j := range w {
				x.tot += math.Sqrt(f[r0*w+j])
			}
			_ = sum
		}()
	}
	wg.Wait()
	sink += int(f[0] + x.tot)
}

type f1acc struct {
	tot float64
}

func f1() {
	const h, w = 2, 3
	f := make([]float64, h*w)
	gm := make([]float64, h*w)
	for k := range gm {
		gm[k] = float64(k % 5)
	}
	x := &f1acc{}
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			r := (i*2 + 1) % h
			r0 := (r + 1 + 0) % h
			sum := 0.0
			_ = r0
			for j := range w {
				f[r*w+j] = float64(j)
				if j%3 == 0 {
					continue
				}
				sum += min(1, f[r0*w+j])
			}
			_ = sum
		})
	}
	wg.Wait()
	sink += int(f[0] + x.tot)
}

type f2acc struct {
	tot float64
}

func f2() {
	h, w := 4, 3
	f := make([]float64, h*w)
	gm := make([]float64, h*w)
	for k := range gm {
		gm[k] = float64(k % 5)
	}
	x := &f2acc{}
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			r := (i*1 + 2) % h
			r0 := (r + 1 + 0) % h
			sum := 0.0
			_ = r0
			for k := range h {
				for j := 1; j < w-1; j++ {
					f[r*w+j] += min(1, gm[k%w+r*w]) * gm[k*w+j-1]
				}
			}
			_ = sum
		})
	}
	wg.Wait()
	sink += int(f[0] + x.tot)
}

type f3acc struct {
	tot float64
}

func f3() {
	h, w := 2, 8
	f := make([]float64, h*w)
	gm := make([]float64, h*w)
	for k := range gm {
		gm[k] = float64(k % 5)
	}
	x := &f3acc{}
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			r := (i*2 + 1) % h
			r0 := (r + 1 + 0) % h
			sum := 0.0
			_ = r0
			for j := range w {
				f[r*w+j] = float64(j)
				if j%3 == 0 {
					continue
				}
				sum += math.Sqrt(f[r0*w+j])
			}
			_ = sum
		})
	}
	wg.Wait()
	sink += int(f[0] + x.tot)
}

type f4acc struct {
	tot float64
}

func f4() {
	const h, w = 3, 5
	f := make([]float64, h*w)
	gm := make([]float64, h*w)
	for k := range gm {
		gm[k] = float64(k % 5)
	}
	x := &f4acc{}
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			r := (i*3 + 1) % h
			r0 := (r + 1 + 0) % h
			sum := 0.0
			_ = r0
			for j := range w - 1 {
				v := math.Abs(f[r0*w+j])
				if v > 2 {
					v = 2
				}
				f[r*w+j] = v + 1
			}
			_ = sum
		})
	}
	wg.Wait()
	sink += int(f[0] + x.tot)
}

func f5() {
	a := make([]int, 34)
	n := len(a) - 3
	var wg sync.WaitGroup
	const block = 6
	for lo := 0; lo < n; lo += block {
		wg.Go(func() {
			sum := 0
			for i := lo; i < lo+block && i < n; i++ {
				a[i] = i
				a[i+1] = i
				a[i+1] = i
				a[i+1] = i
			}
			_ = sum
		})
	}
	wg.Wait()
	sink += a[0] + a[n]
}

func main() {
	runtime.GOMAXPROCS(1)
	f0()
	f1()
	f2()
	f3()
	f4()
	f5()
}
