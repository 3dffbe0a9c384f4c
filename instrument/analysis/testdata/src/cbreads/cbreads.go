// Package cbreads has the decisions about a callback's reads that nothing
// in its helper's tree writes (cbreads.go): imaging's blur reads its
// kernel and the sizes of its scanner through captures, and nothing the
// pool runs writes them.
package cbreads

import (
	"runtime"
	"sync"
	"testing"
)

// parallel is imaging's helper.
func parallel(start, stop int, fn func(<-chan int)) { // want parallel:"synchronizes: communicates by channel"
	c := make(chan int, stop-start)
	for i := start; i < stop; i++ {
		c <- i
	}
	close(c)
	var wg sync.WaitGroup
	for i := 0; i < runtime.GOMAXPROCS(0); i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `goroutines attach their task: calls through values run checked`
		wg.Add(1)
		go func() { // want `drains c: a callback's range over it takes each receive as a work item`
			defer wg.Done()
			fn(c) // want `fn: read-only: nothing writes fn while the construct runs` `c: read-only: nothing writes c while the construct runs`
		}()
	}
	wg.Wait()
}

type scanner struct {
	pix  []uint8
	w, h int
}

type config struct{ quality int }

// setQuality is kept as a value: any call through a value may run it,
// but it writes another struct's int.
var setQuality = func(c *config) { c.quality = 90 } // want `prologue: function literal runs a checked copy when called through its value with a task`

// blur reads the kernel and the scanner's fields, which nothing in the
// tree writes: the literal writes only bytes of dst.
func blur(src *scanner, kernel []float64, dst []uint8) { // want blur:"synchronizes: communicates by channel"
	parallel(0, src.h, func(ys <-chan int) { // want `prologue: function literal runs a checked copy when called through its value with a task` `callback reads: 6 read\(s\) of memory nothing in its helper's tree writes, not checked`
		for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			for x := 0; x < src.w; x++ { // want `src.w: read-only: nothing the helper's tree runs writes it`
				t := kernel[0]*float64(src.pix[y*src.w+x]) + kernel[1] // want `kernel\[0\]: read-only: nothing the helper's tree runs writes it` `kernel\[1\]: read-only: nothing the helper's tree runs writes it` `src.w: read-only: nothing the helper's tree runs writes it` `src.pix: read-only: nothing the helper's tree runs writes it`
				dst[y*src.w+x] = uint8(t)                              // want `src.w: read-only: nothing the helper's tree runs writes it`
			}
		}
	})
}

// written: one worker writes the kernel, so every read of float64
// elements stays checked; the fields stay proven.
func written(src *scanner, kernel []float64) { // want written:"synchronizes: communicates by channel"
	parallel(0, src.h, func(ys <-chan int) { // want `prologue: function literal runs a checked copy when called through its value with a task` `callback reads: 1 read\(s\) of memory nothing in its helper's tree writes, not checked`
		for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			if y == 0 {
				kernel[1] = 2
			}
			_ = kernel[0] * float64(src.w) // want `src.w: read-only: nothing the helper's tree runs writes it`
		}
	})
}

func (s *scanner) grow() { s.w++ }

// grown: a method the callback calls writes the width.
func grown(src *scanner, kernel []float64) { // want grown:"synchronizes: communicates by channel"
	parallel(0, src.h, func(ys <-chan int) { // want `prologue: function literal runs a checked copy when called through its value with a task` `callback reads: 1 read\(s\) of memory nothing in its helper's tree writes, not checked`
		for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			if y == 0 {
				src.grow()
			}
			_ = kernel[0] * float64(src.w) // want `kernel\[0\]: read-only: nothing the helper's tree runs writes it`
		}
	})
}

type widener interface{ widen() }

type wide struct{ s *scanner }

func (v wide) widen() { v.s.w = 8 } // want `prologue: widen runs its checked clone when called through a value with a task`

var sink widener = wide{} // wide's methods may run through the interface

// viaInterface: the callback calls a method through an interface, which
// may run any function that can be called through a value: wide.widen
// writes the width, setQuality an int of another struct, bump an int
// through a pointer; the pixels' header and the kernel stay proven (the
// literal runner gives testing's Run writes floats, but only on a
// goroutine of its own).
func viaInterface(src *scanner, kernel []float64, v widener) { // want viaInterface:"synchronizes: communicates by channel"
	parallel(0, src.h, func(ys <-chan int) { // want `prologue: function literal runs a checked copy when called through its value with a task` `callback reads: 2 read\(s\) of memory nothing in its helper's tree writes, not checked`
		for range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			v.widen()
			_ = kernel[0] * float64(src.w) // want `kernel\[0\]: read-only: nothing the helper's tree runs writes it`
			_ = src.pix                    // want `src.pix: read-only: nothing the helper's tree runs writes it`
		}
	})
}

var hold *int

// throughPointer: a function that can run through a value writes an int
// through a pointer, which may be &src.w: the width stays checked.
var bump = func() { *hold = 3 } // want `prologue: function literal runs a checked copy when called through its value with a task`

func throughPointer(src *scanner, f func()) { // want throughPointer:"synchronizes: communicates by channel"
	parallel(0, src.h, func(ys <-chan int) { // want `prologue: function literal runs a checked copy when called through its value with a task` `callback reads: 1 read\(s\) of memory nothing in its helper's tree writes, not checked`
		for range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			f()
			_ = src.w
			_ = src.pix // want `src.pix: read-only: nothing the helper's tree runs writes it`
		}
	})
}

// each is a helper with no channel, also used as a value: its clone,
// called through the value, would run the literal in its caller's tree,
// so the literal is no callback of its construct (specialize.go's
// helperSite refuses it) and nothing is proven.
func each(n int, fn func(i int)) { // want `prologue: each runs its checked clone when called through a value with a task`
	var wg sync.WaitGroup
	for i := 0; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `goroutines attach their task: calls through values run checked`
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(i) // want `fn: read-only: nothing writes fn while the construct runs` `i: private: no other goroutine writes i`
		}()
	}
	wg.Wait()
}

var eachV = each

func inValued(src *scanner, kernel []float64) {
	each(src.h, func(i int) { // want `prologue: function literal runs a checked copy when called through its value with a task`
		_ = kernel[0] * float64(i)
	})
}

// runner's literal writes floats, on the goroutine testing starts for it.
func runner(t *testing.T, k []float64) {
	t.Run("x", func(t *testing.T) { // want `prologue: function literal runs a checked copy when called through its value with a task`
		k[0] = 1
	})
}

// otherField: the callback writes an int field of another struct: the
// scanner's int fields are other locations, so they stay proven.
func otherField(src *scanner, cfg *config) { // want otherField:"synchronizes: communicates by channel"
	parallel(0, src.h, func(ys <-chan int) { // want `prologue: function literal runs a checked copy when called through its value with a task` `callback reads: 1 read\(s\) of memory nothing in its helper's tree writes, not checked`
		for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			cfg.quality = y + src.w // want `src.w: read-only: nothing the helper's tree runs writes it`
		}
	})
}

// scanView has scanner's underlying type: (*scanView)(src) is src
// itself, with no unsafe, so its w is src.w and its h src.h.
type scanView struct {
	pix  []uint8
	w, h int
}

// converted: the callback writes the width through a converted pointer
// and the height through one of an unnamed struct type: both stay
// checked, only the pixels' header is proven.
func converted(src *scanner, cfg *config) { // want converted:"synchronizes: communicates by channel"
	parallel(0, src.h, func(ys <-chan int) { // want `prologue: function literal runs a checked copy when called through its value with a task` `callback reads: 1 read\(s\) of memory nothing in its helper's tree writes, not checked`
		for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			(*scanView)(src).w = y
			(*struct {
				pix  []uint8
				w, h int
			})(src).h = y
			cfg.quality = src.w + src.h
			_ = src.pix // want `src.pix: read-only: nothing the helper's tree runs writes it`
		}
	})
}

// forEach is a helper with no channel, never a value.
func forEach(n int, fn func(i int)) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `goroutines attach their task: calls through values run checked`
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(i) // want `fn: read-only: nothing writes fn while the construct runs` `i: private: no other goroutine writes i`
		}()
	}
	wg.Wait()
}

// nested: the callback runs its helper again with a function value that
// writes the width: the helper's call of its parameter there runs that
// value, not the literal, so the width stays checked; the kernel stays
// proven.
func nested(src *scanner, kernel []float64) {
	setW := func(int) { src.w = 1 } // want `prologue: function literal runs a checked copy when called through its value with a task`
	forEach(src.h, func(i int) {    // want `prologue: function literal runs a checked copy when called through its value with a task` `callback reads: 1 read\(s\) of memory nothing in its helper's tree writes, not checked`
		if i == 0 {
			forEach(1, setW)
		}
		_ = kernel[0] * float64(src.w) // want `kernel\[0\]: read-only: nothing the helper's tree runs writes it`
	})
}
