// Package callitems has the decisions about work items received inside a
// callback (callitems.go): imaging's pool hands its channel to a function
// value, and the callback's range over it is the item loop.
package callitems

import (
	"runtime"
	"sync"
)

// parallel is imaging's helper: every worker runs fn on the channel of
// rows, filled and closed before the workers start.
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
			fn(c)
		}()
	}
	wg.Wait()
}

// open hands its workers a channel it closes only later: no items.
func open(n int, fn func(<-chan int)) { // want open:"synchronizes: communicates by channel"
	c := make(chan int, n)
	for i := 0; i < n; i++ {
		c <- i
	}
	var wg sync.WaitGroup
	for i := 0; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `goroutines attach their task: calls through values run checked`
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(c)
		}()
	}
	wg.Wait()
	close(c)
}

// swapped changes the function while the workers run: two workers may run
// different callbacks, so an item's verdict would depend on its worker.
func swapped(n int, fn, gn func(<-chan int)) { // want swapped:"synchronizes: closes a channel while the goroutines run"
	c := make(chan int, n)
	close(c)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `goroutines attach their task: calls through values run checked`
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(c)
		}()
		fn = gn
	}
	wg.Wait()
}

// first lets only worker 0 call fn: its items would be one goroutine's,
// sequential in every schedule.
func first(n int, fn func(<-chan int)) { // want first:"synchronizes: closes a channel while the goroutines run"
	c := make(chan int, n)
	close(c)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ { // want `parallel loop of 1 goroutine start\(s\), joined at line \d+` `goroutines attach their task: calls through values run checked`
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i > 0 {
				return
			}
			fn(c)
		}()
	}
	wg.Wait()
}

// rows: the callback's range is the item loop; its own scratch, made
// before the range and only indexed, is the worker's.
func rows(pix []uint8, w, h int) { // want rows:"synchronizes: communicates by channel"
	parallel(0, h, func(ys <-chan int) { // want `prologue: function literal runs a checked copy when called through its value with a task` `callback reads: none proven unwritten in its helper's tree: every read may meet a write of its type`
		line := make([]uint8, w) // want `callback's own: line holds only memory its call allocates and never lets go: private`
		n := 0
		for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			for x := 0; x < w; x++ {
				line[x] = uint8(x + y)
				pix[y*w+x] = line[x]
			}
			n++
		}
		_ = n
	})
}

// lent gives its scratch to a method: not proven the worker's, so its range
// stays one block per worker; the call runs a clone of its own, in which
// the scratch is private (cbclone.go).
func lent(s *scanner, pix []uint8, w, h int) { // want lent:"synchronizes: communicates by channel"
	parallel(0, h, func(ys <-chan int) { // want `prologue: function literal runs a checked copy when called through its value with a task` `callback reads: none proven unwritten in its helper's tree: every read may meet a write of its type`
		line := make([]uint8, w)
		for y := range ys { // want `each receive from ys as a work item of its own: line, declared before the range, may reach memory kept across items that is not proven the worker's .*; the range runs as one block per worker$`
			s.scan(y, line) // want `context clone: this call runs _ga_scan_ga_ctx1, 1 access\(es\) of the scratch it lends and 1 read\(s\) nothing in the helper's tree writes not checked`
			copy(pix[y*w:], line)
		}
	})
}

// captured keeps a counter that a closure of the items writes: the
// counter is the worker's, but checked, so its range stays one block.
func captured(h int) { // want captured:"synchronizes: communicates by channel"
	parallel(0, h, func(ys <-chan int) { // want `prologue: function literal runs a checked copy when called through its value with a task` `callback reads: none proven unwritten in its helper's tree: every read may meet a write of its type`
		n := 0
		inc := func() { n++ } // want `prologue: function literal runs a checked copy when called through its value with a task`
		for range ys {        // want `each receive from ys as a work item of its own: inc, declared before the range, may reach .*`
			inc()
		}
	})
}

// twoParams is not a callback of a channel alone: no items.
func twoParams(h int) { // want twoParams:"synchronizes: communicates by channel"
	g := func(ys <-chan int, k int) { // want `prologue: function literal runs a checked copy when called through its value with a task`
		for range ys {
		}
	}
	sink = g
	sink2 = func(ys <-chan int) { // want `prologue: function literal runs a checked copy when called through its value with a task`
		for ys := range ys { // the loop's ys would hide the channel from ItemOf
			_ = ys
		}
	}
}

var sink2 func(<-chan int)

var sink func(<-chan int, int)

type scanner struct{ img []uint8 }

func (s *scanner) scan(y int, dst []uint8) {
	copy(dst, s.img[y:])
}

// rowsOf is a named callback: its clone takes the items.
func rowsOf(ys <-chan int) { // want rowsOf:"synchronizes: communicates by channel" `prologue: rowsOf runs its checked clone when called through a value with a task`
	for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
		out[y] = y
	}
}

var out = make([]int, 8)

// img's method value is a callback too; its pointer receiver is bound by
// whoever makes the method value, as a capture is.
type img struct{ pix []int }

func (m *img) fill(ys <-chan int) { // want fill:"synchronizes: communicates by channel" `prologue: fill runs its checked clone when called through a value with a task`
	for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
		m.pix[y] = y
	}
}

// A value receiver is the call's own copy: memory it reaches may be the
// worker's, so its range stays one block per worker.
type buf struct{ b []int }

func (b buf) fill(ys <-chan int) { // want fill:"synchronizes: communicates by channel" `prologue: fill runs its checked clone when called through a value with a task`
	b.b = make([]int, 8)
	for y := range ys { // want `each receive from ys as a work item of its own: b, declared before the range, may reach .*`
		b.b[y] = y
	}
}

func named(m *img) { // want named:"synchronizes: calls parallel, which communicates by channel"
	parallel(0, 8, rowsOf)
	parallel(0, 8, m.fill)
	parallel(0, 8, buf{}.fill)
}

// blur is imaging's blurHorizontal: the scratch lent to a method keeps the
// range one block per worker, but the float row it makes, and the windows
// it slices from it to index, are its own in every block.
func blur(s *scanner, pix []uint8, kernel []float64, w, h int) { // want blur:"synchronizes: communicates by channel"
	parallel(0, h, func(ys <-chan int) { // want `prologue: function literal runs a checked copy when called through its value with a task` `callback reads: 4 read\(s\) of memory nothing in its helper's tree writes, not checked`
		line := make([]uint8, w)
		lineF := make([]float64, w) // want `callback's own: lineF holds only memory its call allocates and never lets go: private`
		for y := range ys {         // want `each receive from ys as a work item of its own: line, declared before the range, may reach .*`
			s.scan(y, line) // want `context clone: this call runs _ga_scan_ga_ctx2, 1 access\(es\) of the scratch it lends and 1 read\(s\) nothing in the helper's tree writes not checked`
			for i, v := range line {
				lineF[i] = float64(v)
			}
			for x := 0; x+2 <= w; x += 2 {
				win := lineF[x : x+2 : x+2] // want `callback's own: win holds only memory its call allocates and never lets go: private`
				var t []float64             // want `callback's own: t holds only memory its call allocates and never lets go: private`
				t = win[1:]
				pix[y*w+x] = uint8(win[0]*kernel[0] + t[0]*kernel[1])
			}
		}
	})
}

// window lets a slice of its row go: the row and every slice of it are
// no longer its own.
func window(h int) { // want window:"synchronizes: communicates by channel"
	parallel(0, h, func(ys <-chan int) { // want `prologue: function literal runs a checked copy when called through its value with a task` `callback reads: none proven unwritten in its helper's tree: every read may meet a write of its type`
		row := make([]float64, 8)
		for y := range ys { // want `each receive from ys as a work item of its own: row, declared before the range, may reach .*`
			win := row[y%4 : y%4+2]
			keep = win[1:]
			win[0] = float64(y)
		}
	})
}

var keep []float64

// handed gives its row away after the range: the row is the worker's
// during the items only, and so is every slice of it, so neither is
// private for the whole call.
func handed(h int) { // want handed:"synchronizes: communicates by channel"
	parallel(0, h, func(ys <-chan int) { // want `prologue: function literal runs a checked copy when called through its value with a task` `callback reads: none proven unwritten in its helper's tree: every read may meet a write of its type`
		row := make([]float64, 8)
		head := row[:2]
		for y := range ys { // want `each receive from ys as a work item of its own: (row|head), made before the range, is handed over after it; the range runs as one block per worker`
			head[0] += float64(y)
		}
		keep = row
		head[1] = 1
	})
}

// noItems is a callback with no channel, kept for later: what it makes
// and slices is its own too.
func noItems() {
	later = func(i int) { // want `prologue: function literal runs a checked copy when called through its value with a task`
		acc := make([]int, 4) // want `callback's own: acc holds only memory its call allocates and never lets go: private`
		part := acc[1:3]      // want `callback's own: part holds only memory its call allocates and never lets go: private`
		part[0] = i
		out[i] = acc[1]
	}
}

var later func(int)
