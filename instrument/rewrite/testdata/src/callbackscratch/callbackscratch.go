// Command callbackscratch is imaging's blur: a pool hands its channel of
// rows to a callback, which makes a byte row it lends to a method (so its
// range stays one block per worker) and a float row it only indexes and
// slices into windows. The float row and its windows are the call's own:
// their accesses carry no check; nothing the pool runs writes the kernel
// or the scanner's width, so their reads carry none either. The byte row,
// lent to scan, is private in the clone of scan made for that call, which
// reads the source through memory nothing the pool writes (the output,
// made for the callback, meets no read but its own); only the output's
// writes stay checked.
package main

import (
	"fmt"
	"sync"
)

func parallel(start, stop int, fn func(<-chan int)) {
	c := make(chan int, stop-start)
	for i := start; i < stop; i++ {
		c <- i
	}
	close(c)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(c)
		}()
	}
	wg.Wait()
}

type scanner struct {
	pix  []uint8
	w, h int
}

func (s *scanner) scan(y int, dst []uint8) {
	copy(dst, s.pix[y*s.w:(y+1)*s.w])
}

func blur(src *scanner, kernel []float64) []uint8 {
	dst := make([]uint8, src.w*src.h)
	r := len(kernel) - 1
	parallel(0, src.h, func(ys <-chan int) {
		line := make([]uint8, src.w)
		lineF := make([]float64, src.w)
		for y := range ys {
			src.scan(y, line)
			for i, v := range line {
				lineF[i] = float64(v)
			}
			for x := r; x+r < src.w; x++ {
				win := lineF[x-r : x+r+1 : x+r+1]
				var t float64
				for k := range win {
					t += win[k] * kernel[max(k-r, r-k)]
				}
				dst[y*src.w+x] = uint8(t)
			}
		}
	})
	return dst
}

func main() {
	src := &scanner{pix: make([]uint8, 8*6), w: 8, h: 6}
	for i := range src.pix {
		src.pix[i] = uint8(i * 7)
	}
	fmt.Println(blur(src, []float64{0.5, 0.25}))
}
