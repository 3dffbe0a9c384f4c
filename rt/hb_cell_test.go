package rt

import (
	"io"
	"testing"
	"unsafe"
)

// TestHBCellSize: a cell is 32 bytes, four per word of the memory it
// shadows, and a region's cells are a whole number of pages.
func TestHBCellSize(t *testing.T) {
	if hbCellSize != 32 {
		t.Fatalf("a cell is %d bytes, want 32", hbCellSize)
	}
	if s := unsafe.Sizeof(hbCells{}); s%4096 != 0 {
		t.Fatalf("a region's cells are %d bytes, not whole pages", s)
	}
}

// TestHBBytesOfOneWord: goroutines writing different bytes of one word
// do not race; the same byte does. A []byte filled by one goroutine in
// one epoch at one site is one entry per word, inline, and so is its
// read by one other goroutine.
func TestHBBytesOfOneWord(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	b := New(nil, new([16]byte))
	done := make(chan struct{})
	hbGo(root, func(k *Task) {
		k.Write(addrOf(&b[1]), 1)
		close(done)
	})
	<-done // not hooked: the goroutine's write is unordered with the root's below
	root.Write(addrOf(&b[0]), 2)
	root.Write(addrOf(&b[2]), 2)
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported between writes of different bytes of one word", n)
	}
	root.Write(addrOf(&b[1]), 3)
	if n := races(e); n != 1 {
		t.Fatalf("%d races reported between writes of the same byte, want 1", n)
	}

	p := New(nil, new([2 * hbGrain]byte))
	for i := range p {
		root.Write(addrOf(&p[i]), 4)
	}
	root.Chan(done) // a release: the reads below are in another epoch
	for i := range p {
		root.Read(addrOf(&p[i]), 5)
	}
	for w := range 2 {
		c := e.regions.find(addrOf(&p[hbGrain*w]) >> hbRegionShift).cellOf(addrOf(&p[hbGrain*w]))
		if c.ext.Load() != 0 || markMask(c.w.Load()) != hbAllMask || markMask(c.r.Load()) != hbAllMask {
			t.Fatalf("granule %d of a []byte written and read in sweeps: ext %d, write mask %#x, read mask %#x; want one inline entry each over all 16 bytes",
				w, c.ext.Load(), markMask(c.w.Load()), markMask(c.r.Load()))
		}
	}
}

// TestHBForgetPartOfWord: New of an object that begins inside a word
// forgets the histories of its bytes only.
func TestHBForgetPartOfWord(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	b := New(nil, new([8]byte))
	done := make(chan struct{})
	hbGo(root, func(k *Task) {
		k.Write(addrOf(&b[2]), 1)
		k.Write(addrOf(&b[5]), 1)
		close(done)
	})
	<-done // not hooked
	e.forget(addrOf(&b[4]), 4)
	root.Write(addrOf(&b[5]), 2) // forgotten: the goroutine's write was a freed object's
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported on a forgotten byte", n)
	}
	root.Write(addrOf(&b[2]), 3) // before the forgotten range: kept
	if n := races(e); n != 1 {
		t.Fatalf("%d races reported on a byte outside the forgotten range, want 1", n)
	}
}
