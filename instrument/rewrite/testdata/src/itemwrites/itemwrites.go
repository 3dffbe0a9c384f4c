// Command itemwrites: a callback's item writes of an output made for it
// (analysis/cbitems.go). rows and cols are proven apart across items and
// run unchecked under the guard the callback tests at its start; narrow
// (a stride one byte short of the row: the guard fails and the checked
// copy runs), half (rows y/2) and doubled (a helper sending every row
// twice) race, and keep every check.
package main

import (
	"fmt"
	"image"
	"sync"
)

func parallel(start, stop int, fn func(<-chan int)) {
	count := stop - start
	if count < 1 {
		return
	}
	c := make(chan int, count)
	for i := start; i < stop; i++ {
		c <- i
	}
	close(c)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(c)
		}()
	}
	wg.Wait()
}

func twice(start, stop int, fn func(<-chan int)) {
	c := make(chan int, 2*(stop-start))
	for k := 0; k < 2; k++ {
		for i := start; i < stop; i++ {
			c <- i
		}
	}
	close(c)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(c)
		}()
	}
	wg.Wait()
}

func rows(w, h int) *image.NRGBA {
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	parallel(0, h, func(ys <-chan int) {
		for y := range ys {
			for x := 0; x < w; x++ {
				j := y*dst.Stride + x*4
				d := dst.Pix[j : j+4 : j+4]
				d[0] = uint8(x + y)
				d[3] = 255
			}
		}
	})
	return dst
}

func cols(w, h int) *image.NRGBA {
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	parallel(0, w, func(xs <-chan int) {
		for x := range xs {
			for y := 0; y < h; y++ {
				j := y*dst.Stride + x*4
				d := dst.Pix[j : j+4 : j+4]
				d[1] = uint8(x * y)
			}
		}
	})
	return dst
}

func strided(w, h, stride int) []uint8 {
	dst := make([]uint8, stride*h+w)
	parallel(0, h, func(ys <-chan int) {
		for y := range ys {
			for x := 0; x < w; x++ {
				dst[y*stride+x] = uint8(y)
			}
		}
	})
	return dst
}

func half(w, h int) *image.NRGBA {
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	parallel(0, h, func(ys <-chan int) {
		for y := range ys {
			for x := 0; x < w; x++ {
				j := (y/2)*dst.Stride + x*4
				d := dst.Pix[j : j+4 : j+4]
				d[2] = 1
			}
		}
	})
	return dst
}

func doubled(w, h int) []uint8 {
	dst := make([]uint8, w*h)
	twice(0, h, func(ys <-chan int) {
		for y := range ys {
			for x := 0; x < w; x++ {
				dst[y*w+x] = 2
			}
		}
	})
	return dst
}

func main() {
	a, b := rows(5, 4), cols(5, 4)
	wide, narrow := strided(4, 3, 4), strided(4, 3, 3)
	fmt.Println(len(a.Pix), len(b.Pix), len(wide), len(narrow), len(half(3, 4).Pix), len(doubled(3, 2)))
}
