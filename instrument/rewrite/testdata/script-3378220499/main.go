package main

import (
	"fmt"
	"sync"
)

func fill(b []int, v int) {
	for i := range len(b) {
		b[i] = v + i
	}
}

func total(b []int) (s int) {
	for i := range len(b) {
		s += b[i]
	}
	return s
}

func jobs() chan int {
	ch := make(chan int, 10)
	for i := range 10 {
		ch <- i
	}
	return ch
}

func withGo() int {
	ch := jobs()
	close(ch)
	res := make([]int, 10)
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]int, 8)
			for it := range ch {
				fill(buf, it)
				res[it] = total(buf) + buf[0]
			}
		}()
	}
	wg.Wait()
	t := 0
	for _, r := range res {
		t += r
	}
	return t
}

func withWgGo() int {
	ch := jobs()
	close(ch)
	res := make([]int, 10)
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			var buf []int
			for it := range ch {
				buf = buf[:0]
				for i := range 8 {
					buf = append(buf, 0*i)
				}
				fill(buf, it)
				res[it] = total(buf) + buf[0]
			}
		})
	}
	wg.Wait()
	t := 0
	for _, r := range res {
		t += r
	}
	return t
}

func main() {
	fmt.Println(withGo(), withWgGo())
}
