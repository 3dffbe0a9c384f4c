package rows2d

import "sync"

// Blocks of planes of a [][][]float64 (heat-3d): out := dst[i][j] is a row
// of plane i, written by the block that owns the plane.
func planes(dst, src [][][]float64, bs int) {
	n := len(src)
	var wg sync.WaitGroup
	for b := 0; b*bs < n-2; b++ { // want `parallel loop of 1 goroutine start\(s\), joined at line 24`
		wg.Go(func() {
			lo, hi := 1+b*bs, min(1+(b+1)*bs, n-1) // want `b: private: no other goroutine writes b` `bs: read-only: nothing writes bs while the construct runs` `b: private: no other goroutine writes b` `bs: read-only: nothing writes bs while the construct runs` `n: read-only: nothing writes n while the construct runs`
			for i := lo; i < hi; i++ {
				for j := 1; j < n-1; j++ { // want `n: read-only: nothing writes n while the construct runs`
					c, out := src[i][j], dst[i][j] // want `src: read-only: nothing writes src while the construct runs` `src\[i\]: read-only: nothing in the construct writes src` `src\[i\]\[j\]: read-only: nothing in the construct writes the rows of src` `dst: read-only: nothing writes dst while the construct runs` `dst\[i\]: read-only: nothing in the construct writes dst` `dst\[i\]\[j\]: read-only: nothing in the construct writes the rows of dst`
					above := src[i+1][j]           // want `src: read-only: nothing writes src while the construct runs` `src\[i \+ 1\]: read-only: nothing in the construct writes src` `src\[i \+ 1\]\[j\]: read-only: nothing in the construct writes the rows of src`
					for k := range out {
						out[k] = c[k] + above[k] // want `out\[k\]: independent: each iteration touches its own elements of the rows of the rows of dst \(when it is apart from src and the chunk bounds from lo do not overflow\)` `c\[k\]: read-only: nothing in the construct writes the rows of the rows of src \(when it is apart from dst\)` `above\[k\]: read-only: nothing in the construct writes the rows of the rows of src \(when it is apart from dst\)`
					}
				}
			}
		})
	}
	wg.Wait()
}

// One plane too far: the last plane of a block is the next block's first.
func planesOver(dst, src [][][]float64, bs int) {
	n := len(src)
	var wg sync.WaitGroup
	for b := 0; b*bs < n-2; b++ { // want `parallel loop of 1 goroutine start\(s\), joined at line 44`
		wg.Go(func() {
			lo, hi := 1+b*bs, min(2+(b+1)*bs, n-1) // want `b: private: no other goroutine writes b` `bs: read-only: nothing writes bs while the construct runs` `b: private: no other goroutine writes b` `bs: read-only: nothing writes bs while the construct runs` `n: read-only: nothing writes n while the construct runs`
			for i := lo; i < hi; i++ {
				for j := 1; j < n-1; j++ { // want `n: read-only: nothing writes n while the construct runs`
					c, out := src[i][j], dst[i][j] // want `src: read-only: nothing writes src while the construct runs` `src\[i\]: read-only: nothing in the construct writes src` `src\[i\]\[j\]: read-only: nothing in the construct writes the rows of src` `dst: read-only: nothing writes dst while the construct runs` `dst\[i\]: read-only: nothing in the construct writes dst` `dst\[i\]\[j\]: read-only: nothing in the construct writes the rows of dst`
					for k := range out {
						out[k] = c[k] // want `out\[k\]: checked: not proven` `c\[k\]: read-only: nothing in the construct writes the rows of the rows of src \(when it is apart from dst\)`
					}
				}
			}
		})
	}
	wg.Wait()
}

// One goroutine per plane, its rows ranged over as values and written
// whole (doitgen), from a buffer of its own.
func perPlane(A [][][]float64, np int) {
	var wg sync.WaitGroup
	for r := range A { // want `parallel loop of 1 goroutine start\(s\), joined at line 62`
		wg.Go(func() {
			sum := make([]float64, np) // want `np: read-only: nothing writes np while the construct runs`
			for _, row := range A[r] { // want `row: read-only: nothing in the construct writes the rows of A` `A: read-only: nothing writes A while the construct runs` `A\[r\]: read-only: nothing in the construct writes A` `r: private: no other goroutine writes r`
				for p := range sum {
					sum[p] = row[p] * 2 // want `sum\[p\]: independent: an element of a buffer the iteration allocated, which no other reaches` `row\[p\]: independent: each iteration touches its own elements of the rows of the rows of A`
				}
				copy(row, sum)
			}
		})
	}
	wg.Wait()
}
