package parallel

// Planted by goanomaly's realmods harness (realmods/testdata/bild): races in
// the callbacks of bild's parallel.Line, one per test, and a clean variant.
// Line splits [0, length) into GOMAXPROCS chunks, and runs fn serially when
// the chunks would be shorter than GOMAXPROCS, so the image is tall enough
// for every machine with up to 16 CPUs.

import (
	"sync/atomic"
	"testing"
)

const realmodsH, realmodsW = 512, 4

func TestRealmodsCounter(t *testing.T) {
	pix := make([]uint8, realmodsH*realmodsW)
	n := 0
	Line(realmodsH, func(start, end int) {
		for y := start; y < end; y++ {
			pix[y*realmodsW] = uint8(y)
		}
		n++ // RACE: one counter for every chunk
	})
	_ = n
}

func TestRealmodsRow(t *testing.T) {
	pix := make([]uint8, realmodsH*realmodsW)
	Line(realmodsH, func(start, end int) {
		for y := start; y < end; y++ {
			for x := 0; x < realmodsW; x++ {
				pix[y*realmodsW+x] = uint8(y)
			}
		}
		if end < realmodsH {
			pix[end*realmodsW] = 0 // RACE: the next chunk's first row
		}
	})
}

func TestRealmodsAppend(t *testing.T) {
	var chunks []int
	Line(realmodsH, func(start, end int) {
		chunks = append(chunks, start) // RACE: one slice for every chunk
	})
	_ = chunks
}

func TestRealmodsMap(t *testing.T) {
	seen := map[int]int{}
	Line(realmodsH, func(start, end int) {
		seen[start] = end // RACE: one map for every chunk
	})
	_ = seen
}

func TestRealmodsClean(t *testing.T) {
	pix := make([]uint8, realmodsH*realmodsW)
	var rows int64
	Line(realmodsH, func(start, end int) {
		for y := start; y < end; y++ {
			for x := 0; x < realmodsW; x++ {
				pix[y*realmodsW+x] = uint8(y)
			}
		}
		atomic.AddInt64(&rows, int64(end-start))
	})
	last := realmodsH - 1
	if rows != realmodsH || pix[last*realmodsW] != uint8(last) {
		t.Fatalf("rows %d, last row %d", rows, pix[last*realmodsW])
	}
}
