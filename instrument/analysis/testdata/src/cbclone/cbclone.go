// Package cbclone has the decisions about context clones (cbclone.go): a
// call in a callback's body that lends the callback's own scratch to a
// callee that keeps it runs a clone of the callee made for that call.
package cbclone

import (
	"runtime"
	"sync"
)

// parallel is imaging's helper.
func parallel(start, stop int, fn func(<-chan int)) { // want parallel:"synchronizes: communicates by channel"
	c := make(chan int, stop-start)
	for i := start; i < stop; i++ {
		c <- i
	}
	close(c)
	var wg sync.WaitGroup
	for i := 0; i < runtime.GOMAXPROCS(0); i++ { // want `goroutines attach their task: calls through values run checked` `parallel loop of 1 goroutine start\(s\), joined at line 26`
		wg.Add(1)
		go func() { // want `drains c: a callback's range over it takes each receive as a work item`
			defer wg.Done()
			fn(c) // want `c: read-only: nothing writes c while the construct runs` `fn: read-only: nothing writes fn while the construct runs`
		}()
	}
	wg.Wait()
}

type image struct {
	pix  []float64
	w, h int
	last []float64
}

// scan keeps dst: it indexes it, slices windows of it, copies into it.
// Each access is reported twice, once for each clone: kept's and written's.
func (m *image) scan(y int, dst []float64) {
	copy(dst[:1], m.pix[y*m.w:]) // want `dst: private: the callback's own scratch, which only its call reaches` `dst: private: the callback's own scratch, which only its call reaches` `dst\[:1\]: private: the callback's own scratch, which only its call reaches` `dst\[:1\]: private: the callback's own scratch, which only its call reaches` `m\.pix: read-only: nothing the helper's tree runs writes it` `m\.pix: read-only: nothing the helper's tree runs writes it` `m\.pix\[y \* m\.w:\]: read-only: nothing the helper's tree runs writes it` `m\.w: read-only: nothing the helper's tree runs writes it` `m\.w: read-only: nothing the helper's tree runs writes it`
	for x := 1; x < m.w; x++ {   // want `m\.w: read-only: nothing the helper's tree runs writes it` `m\.w: read-only: nothing the helper's tree runs writes it`
		d := dst[x : x+1 : x+1] // want `dst: private: the callback's own scratch, which only its call reaches` `dst: private: the callback's own scratch, which only its call reaches`
		d[0] = m.pix[y*m.w+x]   // want `d\[0\]: private: the callback's own scratch, which only its call reaches` `d\[0\]: private: the callback's own scratch, which only its call reaches` `m\.pix: read-only: nothing the helper's tree runs writes it` `m\.pix: read-only: nothing the helper's tree runs writes it` `m\.pix\[y \* m\.w \+ x\]: read-only: nothing the helper's tree runs writes it` `m\.w: read-only: nothing the helper's tree runs writes it` `m\.w: read-only: nothing the helper's tree runs writes it`
	}
}

// keep stores dst: the scratch escapes.
func (m *image) keep(y int, dst []float64) {
	dst[0] = m.pix[y]
	m.last = dst
}

// give returns it.
func give(dst []float64) []float64 {
	dst[0] = 1
	return dst
}

// pass hands it on to another function.
func pass(dst []float64) {
	fill(dst)
}

func fill(dst []float64) {
	for i := range dst {
		dst[i] = 2
	}
}

// later captures it in a closure.
func later(dst []float64) func() {
	return func() { dst[0] = 3 } // want `prologue: function literal runs a checked copy when called through its value with a task`
}

// kept: the scratch lent to scan is private in scan's clone for this
// call, and scan's reads of the image (fields and pixels) are of memory
// nothing the pool runs writes.
func kept(m *image, out []uint8) { // want kept:"synchronizes: communicates by channel"
	parallel(0, m.h, func(ys <-chan int) { // want `callback reads: 2 read\(s\) of memory nothing in its helper's tree writes, not checked` `prologue: function literal runs a checked copy when called through its value with a task`
		line := make([]float64, m.w) // want `m\.w: read-only: nothing the helper's tree runs writes it`
		for y := range ys {          // want `each receive from ys as a work item of its own: line, declared before the range, may reach .*`
			m.scan(y, line) // want `context clone: this call runs _ga_scan_ga_ctx1, 4 access\(es\) of the scratch it lends and 7 read\(s\) nothing in the helper's tree writes not checked`
			for x := range line {
				out[y*m.w+x] = uint8(line[x]) // want `line\[x\]: private: the callback's own scratch, which only its call reaches` `m\.w: read-only: nothing the helper's tree runs writes it`
			}
		}
	})
}

// written: the callback writes float64 elements of the image, so scan's
// pixel reads stay checked; the lent scratch is still private.
func written(m *image) { // want written:"synchronizes: communicates by channel"
	parallel(0, m.h, func(ys <-chan int) { // want `callback reads: 3 read\(s\) of memory nothing in its helper's tree writes, not checked` `prologue: function literal runs a checked copy when called through its value with a task`
		line := make([]float64, m.w) // want `m\.w: read-only: nothing the helper's tree runs writes it`
		for y := range ys {          // want `each receive from ys as a work item of its own: line, declared before the range, may reach .*`
			m.scan(y, line)        // want `context clone: this call runs _ga_scan_ga_ctx2, 4 access\(es\) of the scratch it lends and 5 read\(s\) nothing in the helper's tree writes not checked`
			m.pix[y*m.w] = line[0] // want `line\[0\]: private: the callback's own scratch, which only its call reaches` `m\.pix: read-only: nothing the helper's tree runs writes it` `m\.w: read-only: nothing the helper's tree runs writes it`
		}
	})
}

// escapes: no call keeps the scratch, so none runs a clone of its own.
func escapes(m *image, out []float64) { // want escapes:"synchronizes: communicates by channel"
	parallel(0, m.h, func(ys <-chan int) { // want `callback reads: 4 read\(s\) of memory nothing in its helper's tree writes, not checked` `prologue: function literal runs a checked copy when called through its value with a task`
		a := make([]float64, m.w) // want `m\.w: read-only: nothing the helper's tree runs writes it`
		b := make([]float64, m.w) // want `m\.w: read-only: nothing the helper's tree runs writes it`
		c := make([]float64, m.w) // want `m\.w: read-only: nothing the helper's tree runs writes it`
		d := make([]float64, m.w) // want `m\.w: read-only: nothing the helper's tree runs writes it`
		for y := range ys {       // want `each receive from ys as a work item of its own: a, declared before the range, may reach .*`
			m.keep(y, a)
			out[y] = give(b)[0]
			pass(c)
			later(d)()
		}
	})
}

// notOwn: the callback lends what it does not own (a capture, a row of
// the output): scan's shared clone runs.
func notOwn(m *image, out []float64) { // want notOwn:"synchronizes: communicates by channel"
	line := make([]float64, m.w)
	parallel(0, m.h, func(ys <-chan int) { // want `callback reads: 2 read\(s\) of memory nothing in its helper's tree writes, not checked` `prologue: function literal runs a checked copy when called through its value with a task`
		for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			m.scan(y, line)
			m.scan(y, out[y*m.w:(y+1)*m.w]) // want `m\.w: read-only: nothing the helper's tree runs writes it` `m\.w: read-only: nothing the helper's tree runs writes it`
		}
	})
}

// gray is an image of bytes, as imaging's. Its scan's accesses are
// reported once for each of the four clones below.
type gray struct {
	pix  []uint8
	w, h int
}

func (g *gray) scan(y int, dst []uint8) {
	for x := 0; x < g.w; x++ { // want `g\.w: read-only: nothing the helper's tree runs writes it` `g\.w: read-only: nothing the helper's tree runs writes it` `g\.w: read-only: nothing the helper's tree runs writes it` `g\.w: read-only: nothing the helper's tree runs writes it`
		dst[x] = g.pix[y*g.w+x] // want `dst\[x\]: private: the callback's own scratch, which only its call reaches` `dst\[x\]: private: the callback's own scratch, which only its call reaches` `dst\[x\]: private: the callback's own scratch, which only its call reaches` `dst\[x\]: private: the callback's own scratch, which only its call reaches` `g\.pix: read-only: nothing the helper's tree runs writes it` `g\.pix: read-only: nothing the helper's tree runs writes it` `g\.pix: read-only: nothing the helper's tree runs writes it` `g\.pix: read-only: nothing the helper's tree runs writes it` `g\.pix\[y \* g\.w \+ x\]: read-only: nothing the helper's tree runs writes it` `g\.pix\[y \* g\.w \+ x\]: read-only: nothing the helper's tree runs writes it` `g\.w: read-only: nothing the helper's tree runs writes it` `g\.w: read-only: nothing the helper's tree runs writes it` `g\.w: read-only: nothing the helper's tree runs writes it` `g\.w: read-only: nothing the helper's tree runs writes it`
	}
}

// fresh makes its output just before the pool and writes it only through
// windows: those writes meet no read of the source's bytes (cbfresh.go).
func fresh(g *gray) []uint8 { // want fresh:"synchronizes: communicates by channel"
	dst := make([]uint8, g.w*g.h)
	parallel(0, g.h, func(ys <-chan int) { // want `callback reads: 4 read\(s\) of memory nothing in its helper's tree writes, not checked` `callback item writes: 1 access\(es\) of the output not checked: each item touches its own elements of the output made for the callback \(when .*\)` `prologue: function literal runs a checked copy when called through its value with a task`
		line := make([]uint8, g.w) // want `g\.w: read-only: nothing the helper's tree runs writes it`
		for y := range ys {        // want `each receive from ys as a work item of its own: line, declared before the range, may reach .*`
			g.scan(y, line)                         // want `context clone: this call runs _ga_scan_ga_ctx3, 1 access\(es\) of the scratch it lends and 4 read\(s\) nothing in the helper's tree writes not checked`
			d := dst[y*g.w : (y+1)*g.w : (y+1)*g.w] // want `g\.w: read-only: nothing the helper's tree runs writes it` `g\.w: read-only: nothing the helper's tree runs writes it` `g\.w: read-only: nothing the helper's tree runs writes it`
			for x := range d {
				d[x] = line[x] / 2 // want `line\[x\]: private: the callback's own scratch, which only its call reaches` `d\[x\]: independent: each item touches its own elements of the output made for the callback .*`
			}
		}
	})
	return dst
}

func keepGray(g *gray, out []uint8) { g.pix = out }

// handedOut gives its output away before the pool: the source's bytes
// may be the output's, so their reads stay checked.
func handedOut(g *gray) { // want handedOut:"synchronizes: communicates by channel"
	dst := make([]uint8, g.w*g.h)
	keepGray(g, dst)
	parallel(0, g.h, func(ys <-chan int) { // want `callback reads: 2 read\(s\) of memory nothing in its helper's tree writes, not checked` `prologue: function literal runs a checked copy when called through its value with a task`
		line := make([]uint8, g.w) // want `g\.w: read-only: nothing the helper's tree runs writes it`
		for y := range ys {        // want `each receive from ys as a work item of its own: line, declared before the range, may reach .*`
			g.scan(y, line)      // want `context clone: this call runs _ga_scan_ga_ctx4, 1 access\(es\) of the scratch it lends and 3 read\(s\) nothing in the helper's tree writes not checked`
			dst[y*g.w] = line[0] // want `g\.w: read-only: nothing the helper's tree runs writes it` `line\[0\]: private: the callback's own scratch, which only its call reaches`
		}
	})
}

// poke and other write bytes of a gray image; step runs a func(int).
var (
	pokeGray *gray
	poke     = func(y int) { pokeGray.pix[y] = 1 }  // want `prologue: function literal runs a checked copy when called through its value with a task`
	other    = func(y int8) { pokeGray.pix[y] = 2 } // want `prologue: function literal runs a checked copy when called through its value with a task`
	step     func(int)
)

// stepped calls a func(int) through a value: it may run poke, which
// writes bytes, so the source's bytes stay checked.
func stepped(g *gray) []uint8 { // want stepped:"synchronizes: communicates by channel"
	dst := make([]uint8, g.w*g.h)
	parallel(0, g.h, func(ys <-chan int) { // want `callback reads: 2 read\(s\) of memory nothing in its helper's tree writes, not checked` `callback item writes: 1 access\(es\) of the output not checked: each item touches its own elements of the output made for the callback \(when g\.h >= 0 && g\.w >= 0 && .* && g\.w >= 1\)` `prologue: function literal runs a checked copy when called through its value with a task`
		line := make([]uint8, g.w) // want `g\.w: read-only: nothing the helper's tree runs writes it`
		for y := range ys {        // want `each receive from ys as a work item of its own: line, declared before the range, may reach .*`
			g.scan(y, line) // want `context clone: this call runs _ga_scan_ga_ctx5, 1 access\(es\) of the scratch it lends and 3 read\(s\) nothing in the helper's tree writes not checked`
			step(y)
			dst[y*g.w] = line[0] // want `g\.w: read-only: nothing the helper's tree runs writes it` `line\[0\]: private: the callback's own scratch, which only its call reaches` `dst\[y \* g\.w\]: independent: each item touches its own elements .*`
		}
	})
	return dst
}

// steppedNone calls a func(int16), which no function of the package is:
// neither poke nor other can run there, and the source's bytes are
// proven again (cbreads_value.go).
func steppedNone(g *gray, f func(int16)) []uint8 { // want steppedNone:"synchronizes: communicates by channel"
	dst := make([]uint8, g.w*g.h)
	parallel(0, g.h, func(ys <-chan int) { // want `callback reads: 2 read\(s\) of memory nothing in its helper's tree writes, not checked` `callback item writes: 1 access\(es\) of the output not checked: each item touches its own elements of the output made for the callback \(when g\.h >= 0 && g\.w >= 0 && .* && g\.w >= 1\)` `prologue: function literal runs a checked copy when called through its value with a task`
		line := make([]uint8, g.w) // want `g\.w: read-only: nothing the helper's tree runs writes it`
		for y := range ys {        // want `each receive from ys as a work item of its own: line, declared before the range, may reach .*`
			g.scan(y, line) // want `context clone: this call runs _ga_scan_ga_ctx6, 1 access\(es\) of the scratch it lends and 4 read\(s\) nothing in the helper's tree writes not checked`
			f(int16(y))
			dst[y*g.w] = line[0] // want `g\.w: read-only: nothing the helper's tree runs writes it` `line\[0\]: private: the callback's own scratch, which only its call reaches` `dst\[y \* g\.w\]: independent: each item touches its own elements .*`
		}
	})
	return dst
}
