package main

import (
	"golang.org/x/sync/errgroup"
	"runtime"
	"sync"
)

var sink int

type f0acc struct {
	tot  int
	rows [2][3]int
}

func f0() {
	const h, m = 2, 2
	x := &f0acc{}
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := (i*1 + 0) % h
			r0 := (r + 1 + 0) % h
			_ = r0
			sum := 0
			{
				q, q0 := &x.rows[r], &x.rows[r0]
				_, _ = q, q0
				for j, v := range &x.rows[r0] {
					_ = j
					x.tot += v
				}
			}
			_ = sum
		}()
	}
	wg.Wait()
	sink += x.rows[0][0] + x.tot
}

type f1acc struct {
	tot  int
	rows [4][4]int
}

func f1() {
	const h, m = 4, 3
	x := &f1acc{}
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := (i*3 + 2) % h
			r0 := (r + 1 + 1) % h
			_ = r0
			sum := 0
			for j, v := range x.rows[r0] {
				_ = j
				if j == 1 {
					break
				}
				x.rows[r][j] += v
			}
			_ = sum
		}()
	}
	wg.Wait()
	sink += x.rows[0][0] + x.tot
}

type f2acc struct {
	tot  int
	rows [4][3]int
}

func f2() {
	const h, m = 4, 2
	x := &f2acc{}
	var g errgroup.Group
	for i := range 3 {
		g.Go(func() error {
			r := (i*2 + 1) % h
			r0 := (r + 1 + 2) % h
			_ = r0
			sum := 0
			{
				q, q0 := &x.rows[r], &x.rows[r0]
				_, _ = q, q0
				for j, v := range &x.rows[r0] {
					_ = j
					x.tot += v
				}
			}
			_ = sum
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		panic(err)
	}
	sink += x.rows[0][0] + x.tot
}

type f3acc struct {
	tot  int
	rows [4][9]int
}

func f3() {
	const h, m = 4, 8
	x := &f3acc{}
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := (i*2 + 0) % h
			r0 := (r + 1 + 2) % h
			_ = r0
			sum := 0
			for j := range m {
				_ = j
				x.rows[r][j+1]++
				sum += x.rows[r0][j+1]
			}
			_ = sum
		}()
	}
	wg.Wait()
	sink += x.rows[0][0] + x.tot
}

type f4acc struct {
	tot  int
	rows [4][4]int
}

func f4() {
	const h, m = 4, 3
	x := &f4acc{}
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			r := (i*1 + 0) % h
			r0 := (r + 1 + 0) % h
			_ = r0
			sum := 0
			row0 := x.rows[r0][:]
			_ = row0
			for range 1 {
				for range m {
					sum++
				}
				x.tot += sum
			}
			_ = sum
		})
	}
	wg.Wait()
	sink += x.rows[0][0] + x.tot
}

func f5() {
	const n = 43
	a := make([]int, n+3)
	for i := range a {
		a[i] = i
	}
	var wg sync.WaitGroup
	const chunks = 3
	for c := range chunks {
		wg.Go(func() {
			sum := 0
			for j := c * n / chunks; j < (c+1)*n/chunks; j++ {
				a[j] = j
				sum += a[j+1]
				a[j]++
				a[j] += j
				a[j] += j
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
