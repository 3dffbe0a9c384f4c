// Command ctxclone lends a callback's scratch to a method, as imaging's
// blur lends scanLine to src.scan: the call in blur's callback runs a
// clone of scan made for it (analysis/cbclone.go), whose writes of the
// lent row and reads of what the pool never writes carry no check. The
// other callers keep scan's shared clone: copyRows gives it rows of the
// output, and two planted races are still reported: planted's items
// write the first byte of the next row of the image the clone reads, and
// shared gives every item the same output row.
package main

import (
	"fmt"
	"sync"
)

// parallel is imaging's helper: a channel of rows drained by two workers.
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

// scan copies row y into dst, a byte at a time through a window.
func (s *scanner) scan(y int, dst []uint8) {
	for x := 0; x < s.w; x++ {
		d := dst[x : x+1 : x+1]
		d[0] = s.pix[y*s.w+x]
	}
}

func newScanner(w, h int) *scanner {
	s := &scanner{pix: make([]uint8, w*h), w: w, h: h}
	for i := range s.pix {
		s.pix[i] = uint8(i * 7)
	}
	return s
}

// blur lends each row its own scratch: the call runs the context clone.
func blur(src *scanner) []uint8 {
	dst := make([]uint8, src.w*src.h)
	parallel(0, src.h, func(ys <-chan int) {
		line := make([]uint8, src.w)
		for y := range ys {
			src.scan(y, line)
			for x := 1; x < src.w; x++ {
				dst[y*src.w+x] = line[x]/2 + line[x-1]/2
			}
		}
	})
	return dst
}

// copyRows gives scan rows of its output: the shared clone, checked.
func copyRows(src *scanner) []uint8 {
	dst := make([]uint8, src.w*src.h)
	parallel(0, src.h, func(ys <-chan int) {
		for y := range ys {
			src.scan(y, dst[y*src.w:(y+1)*src.w])
		}
	})
	return dst
}

// planted writes the first byte of the next row, which the next item's
// call of scan reads in its context clone: the read stays checked.
func planted(src *scanner) {
	parallel(0, src.h, func(ys <-chan int) {
		for y := range ys {
			line := make([]uint8, src.w)
			src.scan(y, line)
			src.pix[(y+1)%src.h*src.w] = 9
		}
	})
}

// shared gives every item the same row of its output.
func shared(src *scanner) {
	dst := make([]uint8, src.w)
	parallel(0, src.h, func(ys <-chan int) {
		for y := range ys {
			src.scan(y, dst)
		}
	})
}

func main() {
	a := newScanner(8, 6)
	fmt.Println(blur(a))
	fmt.Println(copyRows(a))
	b := newScanner(8, 6)
	planted(b)
	shared(b)
}
