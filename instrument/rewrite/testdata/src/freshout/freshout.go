// Command freshout makes its output just before the pool and hands it to
// nothing but the callback, as imaging's filters do: the bytes the
// callback writes through it meet no read of the source image, whose
// reads in scan's clone for the call then carry no check
// (analysis/cbfresh.go). Three planted races are still reported: a
// window of the output reassigned to a row of the source, a hook called
// through a value of its type that writes the source, and an output
// handed to a function before the pool that keeps it as the source.
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

// scan copies row y into dst.
func (s *scanner) scan(y int, dst []uint8) {
	for x := 0; x < s.w; x++ {
		dst[x] = s.pix[y*s.w+x]
	}
}

func newScanner(w, h int) *scanner {
	s := &scanner{pix: make([]uint8, w*h), w: w, h: h}
	for i := range s.pix {
		s.pix[i] = uint8(i * 7)
	}
	return s
}

// smooth writes its output through windows; scan's reads need no check.
func smooth(src *scanner) []uint8 {
	dst := make([]uint8, src.w*src.h)
	parallel(0, src.h, func(ys <-chan int) {
		line := make([]uint8, src.w)
		for y := range ys {
			src.scan(y, line)
			d := dst[y*src.w : (y+1)*src.w : (y+1)*src.w]
			for x := 1; x < src.w; x++ {
				d[x] = line[x]/2 + line[x-1]/2
			}
		}
	})
	return dst
}

// reassigned points a window of the output at the next row of the
// source and writes it: the reads of that row by the next item's scan.
func reassigned(src *scanner) {
	dst := make([]uint8, src.w*src.h)
	parallel(0, src.h, func(ys <-chan int) {
		for y := range ys {
			line := make([]uint8, src.w)
			src.scan(y, line)
			d := dst[y*src.w : (y+1)*src.w]
			if y%2 == 0 {
				d = src.pix[(y+1)%src.h*src.w:]
			}
			d[0] = 1
		}
	})
}

// hook is called through its value in the items; it writes the source.
var hook func(s *scanner, y int)

// other has another type: no call of the pool's tree runs it.
var other = func(b []uint8) { b[0] = 2 }

// hooked calls hook, which writes the first byte of the next row of the
// source, which the next item's scan reads.
func hooked(src *scanner) {
	dst := make([]uint8, src.w*src.h)
	parallel(0, src.h, func(ys <-chan int) {
		for y := range ys {
			line := make([]uint8, src.w)
			src.scan(y, line)
			hook(src, y)
			dst[y*src.w] = line[0]
		}
	})
}

// keepAsSource makes the scanner's rows its output.
func keepAsSource(src *scanner, out []uint8) { src.pix = out }

// handed gives the output to keepAsSource before the pool: the callback
// writes the rows scan reads.
func handed(src *scanner) {
	dst := make([]uint8, src.w*src.h)
	keepAsSource(src, dst)
	parallel(0, src.h, func(ys <-chan int) {
		for y := range ys {
			line := make([]uint8, src.w)
			src.scan(y, line)
			dst[(y+1)%src.h*src.w] = 3
		}
	})
}

// looped runs the pool again through a goto, after the output has
// become the source: the second time, the callback writes the rows scan
// reads.
func looped(src *scanner) {
	dst := make([]uint8, src.w*src.h)
	n := 0
again:
	n++
	parallel(0, src.h, func(ys <-chan int) {
		for y := range ys {
			line := make([]uint8, src.w)
			src.scan(y, line)
			dst[(y+1)%src.h*src.w] = 5
		}
	})
	src.pix = dst
	if n < 2 {
		goto again
	}
}

// early returns its output before the pool when there are no rows: the
// call never runs after that use.
func early(src *scanner) []uint8 {
	dst := make([]uint8, src.w*src.h)
	if src.h == 0 {
		return dst
	}
	parallel(0, src.h, func(ys <-chan int) {
		line := make([]uint8, src.w)
		for y := range ys {
			src.scan(y, line)
			dst[y*src.w] = line[0]
		}
	})
	return dst
}

// captured makes, before the pool, a literal that returns a scanner of
// the output; the callback makes it the source, whose rows the next
// item's scan reads while this one writes them.
func captured(src *scanner) {
	dst := make([]uint8, src.w*src.h)
	over := func() *scanner { return &scanner{pix: dst, w: src.w, h: src.h} }
	parallel(0, src.h, func(ys <-chan int) {
		for y := range ys {
			line := make([]uint8, src.w)
			if y == 0 {
				src.pix = over().pix
			}
			src.scan(y, line)
			dst[(y+1)%src.h*src.w] = 6
		}
	})
}

func main() {
	a := newScanner(8, 6)
	fmt.Println(smooth(a))
	hook = func(s *scanner, y int) { s.pix[(y+1)%s.h*s.w] = 4 }
	other(make([]uint8, 1))
	reassigned(newScanner(8, 6))
	hooked(newScanner(8, 6))
	handed(newScanner(8, 6))
	looped(newScanner(8, 6))
	fmt.Println(early(a))
	captured(newScanner(8, 6))
}
