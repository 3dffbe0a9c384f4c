package rt

import (
	"runtime"
	"testing"
	"unsafe"
)

// TestChunkExact: every address of a region, whatever its alignment, has a
// cell of its own, the one chunkAddr names, and a task finds each address's
// cell, after any other, as the table does (through its last chunk or its
// chunk cache).
func TestChunkExact(t *testing.T) {
	e := newEnv(t, "")
	sh := emptyShadow(newTree(e.rep))
	const base, n = 0x7f0000, 512
	keys := map[[2]uintptr]uintptr{}
	for a := uintptr(base); a < base+n; a++ {
		key, i := chunkOf(a)
		if got := chunkAddr(key, i); got != a {
			t.Fatalf("%#x: chunk %#x index %d names %#x", a, key, i, got)
		}
		if b, dup := keys[[2]uintptr{key, uintptr(i)}]; dup {
			t.Fatalf("%#x and %#x share chunk %#x index %d", a, b, key, i)
		}
		keys[[2]uintptr{key, uintptr(i)}] = a
	}
	cells := map[*cell]uintptr{}
	for a := uintptr(base); a < base+n; a++ {
		c := sh.cell(a)
		if key, i := chunkOf(a); c == nil || c != &sh.chunk(key).cellsOf()[i] || chunkAddr(sh.chunk(key).key, i) != a {
			t.Fatalf("%#x: cell %v", a, c)
		}
		if b, dup := cells[c]; dup {
			t.Fatalf("%#x and %#x share a cell", a, b)
		}
		cells[c] = a
	}
	if got := sh.cells.Load(); got != n {
		t.Fatalf("%d cells for %d addresses: a dense byte range fills its chunks", got, n)
	}
	tk := &Task{sh: sh}
	for a := uintptr(base); a < base+n; a++ {
		for b := uintptr(base); b < base+n; b += 7 {
			tk.at(a)
			if ch, i := tk.at(b); &ch.cellsOf()[i] != sh.cell(b) {
				t.Fatalf("after %#x, %#x finds %#x's cell", a, b, chunkAddr(ch.key, i))
			}
		}
	}
}

// TestChunkMixedSizes: a struct of fields of every size, in a slice, checked
// by goroutines of one construct: each field is its own location, so
// writing different fields never conflicts and writing the same one does.
func TestChunkMixedSizes(t *testing.T) {
	type mixed struct {
		a    int64
		b, c byte
		d    int16
		e    int32
		f    [3]byte
		g    uint32
	}
	e := newEnv(t, "")
	xs := make([]mixed, 16)
	fields := func(i int) []uintptr {
		x := &xs[i]
		return []uintptr{uintptr(unsafe.Pointer(&x.a)), uintptr(unsafe.Pointer(&x.b)), uintptr(unsafe.Pointer(&x.c)),
			uintptr(unsafe.Pointer(&x.d)), uintptr(unsafe.Pointer(&x.e)), uintptr(unsafe.Pointer(&x.f[0])),
			uintptr(unsafe.Pointer(&x.f[1])), uintptr(unsafe.Pointer(&x.f[2])), uintptr(unsafe.Pointer(&x.g))}
	}
	nf := len(fields(0))
	// Goroutine g writes field g of every element: no conflict.
	e.parallel(nf, siteLoop, func(g int, tk *Task) {
		for i := range xs {
			tk.Write(fields(i)[g], siteA)
		}
	})
	if got := e.reports(); len(got) != 0 {
		t.Fatalf("distinct fields reported: %v", got)
	}
	// Goroutines 0 and 1 both write field f[1] of element 5: a conflict.
	e.parallel(2, siteLoop, func(g int, tk *Task) {
		for k, a := range fields(5) {
			if k == 6 || k != 6 && k%2 == g {
				tk.Write(a, siteA)
			}
		}
	})
	got := e.reports()
	if len(got) == 0 {
		t.Fatal("the shared field was not reported")
	}
	for _, r := range got {
		if r.addr != fields(5)[6] {
			t.Fatalf("report on %#x, only f[1] of xs[5] (%#x) is shared", r.addr, fields(5)[6])
		}
	}
}

// TestChunkSparseMemory: a program touching one word per page pays for one
// chunk per word and no more: under a kilobyte each, table included.
func TestChunkSparseMemory(t *testing.T) {
	e := newEnv(t, "")
	sh := emptyShadow(newTree(e.rep))
	const n = 20000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range n {
		if sh.cell(uintptr(0x100000+4096*i)) == nil {
			t.Fatal("table full")
		}
	}
	runtime.ReadMemStats(&after)
	per := float64(after.TotalAlloc-before.TotalAlloc) / n
	t.Logf("%.0f bytes per sparse address", per)
	if per > 1024 {
		t.Fatalf("%.0f bytes per sparse address", per)
	}
}

// TestChunkSlabFits: a slab of chunks wastes under 2% of its size class,
// so the chunk's size and slabChunks go together (sixteen chunks of 440
// bytes took the 8,192-byte class: 16% lost).
func TestChunkSlabFits(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const n = 100
	slabs := make([][]chunk, n)
	for i := range slabs {
		slabs[i] = make([]chunk, slabChunks)
	}
	runtime.ReadMemStats(&after)
	size := float64(slabChunks * unsafe.Sizeof(chunk{}))
	per := float64(after.TotalAlloc-before.TotalAlloc-uint64(unsafe.Sizeof(slabs[0]))*n) / n
	t.Logf("a slab of %d chunks of %d bytes: %.0f bytes allocated", slabChunks, unsafe.Sizeof(chunk{}), per)
	if per > 1.02*size {
		t.Errorf("a slab of %d chunks (%.0f bytes) takes %.0f: pick slabChunks to fit a size class", slabChunks, size, per)
	}
	runtime.KeepAlive(slabs)
}

// TestCellsSlabFits: the same for the slabs split chunks take their cells
// from (cellsFor).
func TestCellsSlabFits(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const n = 100
	slabs := make([][]cells, n)
	for i := range slabs {
		slabs[i] = make([]cells, cellsSlab)
	}
	runtime.ReadMemStats(&after)
	size := float64(cellsSlab * unsafe.Sizeof(cells{}))
	per := float64(after.TotalAlloc-before.TotalAlloc-uint64(unsafe.Sizeof(slabs[0]))*n) / n
	if per > 1.02*size {
		t.Errorf("a slab of %d cells (%.0f bytes) takes %.0f: pick cellsSlab to fit a size class", cellsSlab, size, per)
	}
	runtime.KeepAlive(slabs)
}
