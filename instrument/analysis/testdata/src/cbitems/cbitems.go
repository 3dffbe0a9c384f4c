// Package cbitems holds callbacks whose items write an output made for
// them (cbitems.go): rows and columns proven apart across items, under a
// guard the callback tests at its start, and the shapes that are not.
package cbitems

import (
	"image"
	"sync"
)

// parallel is imaging v1.6.2's pool: each row a value of a counter, sent
// once.
func parallel(start, stop int, fn func(<-chan int)) { // want parallel:"synchronizes: communicates by channel"
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
	for i := 0; i < 2; i++ { // want `goroutines attach their task: calls through values run checked` `parallel loop of 1 goroutine start\(s\), joined at line 31`
		wg.Add(1)
		go func() { // want `drains c: a callback's range over it takes each receive as a work item`
			defer wg.Done()
			fn(c) // want `c: read-only: nothing writes c while the construct runs` `fn: read-only: nothing writes fn while the construct runs`
		}()
	}
	wg.Wait()
}

// twice sends every row twice.
func twice(start, stop int, fn func(<-chan int)) { // want twice:"synchronizes: communicates by channel"
	c := make(chan int, 2*(stop-start))
	for k := 0; k < 2; k++ {
		for i := start; i < stop; i++ {
			c <- i
		}
	}
	close(c)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ { // want `goroutines attach their task: calls through values run checked` `parallel loop of 1 goroutine start\(s\), joined at line 51`
		wg.Add(1)
		go func() { // want `drains c: a callback's range over it takes each receive as a work item`
			defer wg.Done()
			fn(c) // want `c: read-only: nothing writes c while the construct runs` `fn: read-only: nothing writes fn while the construct runs`
		}()
	}
	wg.Wait()
}

// rows writes item y's row of pixels: [y·Stride, y·Stride + 4w).
func rows(w, h int) *image.NRGBA { // want rows:"synchronizes: communicates by channel"
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	parallel(0, h, func(ys <-chan int) { // want `callback item writes: 3 access\(es\) of the output not checked: each item touches its own elements of the output made for the callback \(when .* && w <= \(dst\.Stride\) / 4\)` `callback reads: 2 read\(s\) of memory nothing in its helper's tree writes, not checked` `prologue: function literal runs a checked copy when called through its value with a task`
		for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			for x := 0; x < w; x++ {
				j := y*dst.Stride + x*4     // want `dst\.Stride: read-only: nothing the helper's tree runs writes it`
				d := dst.Pix[j : j+4 : j+4] // want `dst\.Pix: read-only: nothing the helper's tree runs writes it`
				d[0] = uint8(x)             // want `d\[0\]: independent: each item touches its own elements of the output made for the callback \(when .* && w <= \(dst\.Stride\) / 4\)`
				d[3] = d[0]                 // want `d\[0\]: independent: each item touches its own elements of the output made for the callback \(when .* && w <= \(dst\.Stride\) / 4\)` `d\[3\]: independent: each item touches its own elements of the output made for the callback \(when .* && w <= \(dst\.Stride\) / 4\)`
			}
		}
	})
	return dst
}

// cols writes item x's column: {y·Stride + 4x + k}.
func cols(w, h int) *image.NRGBA { // want cols:"synchronizes: communicates by channel"
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	parallel(0, w, func(xs <-chan int) { // want `callback item writes: 1 access\(es\) of the output not checked: each item touches its own elements of the output made for the callback \(when .* && w <= \(dst\.Stride \+ 2\) / 4\)` `callback reads: 2 read\(s\) of memory nothing in its helper's tree writes, not checked` `prologue: function literal runs a checked copy when called through its value with a task`
		for x := range xs { // want `callback items: each receive from xs is a work item when its goroutine drains that channel`
			for y := 0; y < h; y++ {
				j := y*dst.Stride + x*4     // want `dst\.Stride: read-only: nothing the helper's tree runs writes it`
				d := dst.Pix[j : j+4 : j+4] // want `dst\.Pix: read-only: nothing the helper's tree runs writes it`
				d[1] = uint8(y)             // want `d\[1\]: independent: each item touches its own elements of the output made for the callback \(when .* && w <= \(dst\.Stride \+ 2\) / 4\)`
			}
		}
	})
	return dst
}

// strided writes rows of w bytes over a stride it is given: apart when
// w <= stride.
func strided(w, h, stride int) []uint8 { // want strided:"synchronizes: communicates by channel"
	dst := make([]uint8, stride*h+w)
	parallel(0, h, func(ys <-chan int) { // want `callback item writes: 1 access\(es\) of the output not checked: each item touches its own elements of the output made for the callback \(when .* && stride - w >= 0\)` `callback reads: none proven unwritten in its helper's tree: every read may meet a write of its type` `prologue: function literal runs a checked copy when called through its value with a task`
		for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			for x := 0; x < w; x++ {
				dst[y*stride+x] = 1 // want `dst\[y \* stride \+ x\]: independent: each item touches its own elements of the output made for the callback \(when .* && stride - w >= 0\)`
			}
		}
	})
	return dst
}

// half writes row y/2 from items y and y+1.
func half(w, h int) *image.NRGBA { // want half:"synchronizes: communicates by channel"
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	parallel(0, h, func(ys <-chan int) { // want `callback item writes: none proven: a window's bound is no polynomial: j` `callback reads: 2 read\(s\) of memory nothing in its helper's tree writes, not checked` `prologue: function literal runs a checked copy when called through its value with a task`
		for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			for x := 0; x < w; x++ {
				j := (y/2)*dst.Stride + x*4 // want `dst\.Stride: read-only: nothing the helper's tree runs writes it`
				d := dst.Pix[j : j+4 : j+4] // want `dst\.Pix: read-only: nothing the helper's tree runs writes it`
				d[0] = 1
			}
		}
	})
	return dst
}

// before writes the output outside its items: once per worker.
func before(w, h int) []uint8 { // want before:"synchronizes: communicates by channel"
	dst := make([]uint8, w*h)
	parallel(0, h, func(ys <-chan int) { // want `callback item writes: none proven: an output is used outside the callback's item range` `callback reads: none proven unwritten in its helper's tree: every read may meet a write of its type` `prologue: function literal runs a checked copy when called through its value with a task`
		dst[0] = 1
		for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			for x := 0; x < w; x++ {
				dst[y*w+x] = 2
			}
		}
	})
	return dst
}

// doubled's helper sends every row twice: two items write each row.
func doubled(w, h int) []uint8 { // want doubled:"synchronizes: communicates by channel"
	dst := make([]uint8, w*h)
	twice(0, h, func(ys <-chan int) { // want `callback item writes: none proven: the helper's items are not the values of a counter, each sent once` `callback reads: none proven unwritten in its helper's tree: every read may meet a write of its type` `prologue: function literal runs a checked copy when called through its value with a task`
		for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			for x := 0; x < w; x++ {
				dst[y*w+x] = 2
			}
		}
	})
	return dst
}

// weighted ranges over a slice of weights per row, as imaging's
// resizeHorizontal does: x below len(weights).
func weighted(h int, weights []float64) *image.NRGBA { // want weighted:"synchronizes: communicates by channel"
	dst := image.NewNRGBA(image.Rect(0, 0, len(weights), h))
	parallel(0, h, func(ys <-chan int) { // want `callback item writes: 1 access\(es\) of the output not checked: each item touches its own elements of the output made for the callback \(when .* && len\(weights\) <= \(dst\.Stride \+ 3\) / 4\)` `callback reads: 2 read\(s\) of memory nothing in its helper's tree writes, not checked` `prologue: function literal runs a checked copy when called through its value with a task`
		for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			for x := range weights {
				j := y*dst.Stride + x*4     // want `dst\.Stride: read-only: nothing the helper's tree runs writes it`
				d := dst.Pix[j : j+4 : j+4] // want `dst\.Pix: read-only: nothing the helper's tree runs writes it`
				d[2] = 3                    // want `d\[2\]: independent: each item touches its own elements of the output made for the callback \(when .* && len\(weights\) <= \(dst\.Stride \+ 3\) / 4\)`
			}
		}
	})
	return dst
}

// stepped steps a counter through its row, as imaging's Sharpen does.
func stepped(w, h int) []uint8 { // want stepped:"synchronizes: communicates by channel"
	dst := make([]uint8, w*h)
	parallel(0, h, func(ys <-chan int) { // want `callback item writes: 1 access\(es\) of the output not checked: each item touches its own elements of the output made for the callback \(when .* && \(\(h\) \* \(w\)\) \+ \(\(0\) \+ \(w\)\) <= int\(\^uint\(0\) >> 1\) - 0\)` `callback reads: none proven unwritten in its helper's tree: every read may meet a write of its type` `prologue: function literal runs a checked copy when called through its value with a task`
		for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			j := y * w
			for i := 0; i < w; i++ {
				dst[j] = 1 // want `dst\[j\]: independent: each item touches its own elements of the output made for the callback \(when .* && \(\(h\) \* \(w\)\) \+ \(\(0\) \+ \(w\)\) <= int\(\^uint\(0\) >> 1\) - 0\)`
				j++
			}
		}
	})
	return dst
}

// skipped may skip its counter's step: not read as one.
func skipped(w, h int) []uint8 { // want skipped:"synchronizes: communicates by channel"
	dst := make([]uint8, w*h)
	parallel(0, h, func(ys <-chan int) { // want `callback item writes: none proven: a subscript is no polynomial: j` `callback reads: none proven unwritten in its helper's tree: every read may meet a write of its type` `prologue: function literal runs a checked copy when called through its value with a task`
		for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			j := y * w
			for i := 0; i < w; i++ {
				if i == 2 {
					continue
				}
				dst[j] = 1
				j++
			}
		}
	})
	return dst
}

// copied copies into a slice of the output besides its rows: that slice
// has no footprint, so no access of the output is proven.
func copied(w, h int, head []uint8) []uint8 { // want copied:"synchronizes: communicates by channel"
	dst := make([]uint8, w*h)
	parallel(0, h, func(ys <-chan int) { // want `callback item writes: none proven: a slice of an output is used whole \(copied or ranged over\)` `callback reads: 1 read\(s\) of memory nothing in its helper's tree writes, not checked` `prologue: function literal runs a checked copy when called through its value with a task`
		for y := range ys { // want `callback items: each receive from ys is a work item when its goroutine drains that channel`
			for x := 0; x < w; x++ {
				dst[y*w+x] = 1
			}
			copy(dst[0:2], head) // want `head: read-only: nothing the helper's tree runs writes it`
		}
	})
	return dst
}
