package rt

import (
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"
)

// TestShadowConcurrentInsert: goroutines inserting overlapping addresses
// while the shards grow all get one cell per address, before and after.
// Words fill their chunks; addresses 3 bytes apart (every alignment class,
// many to a chunk) fill a third of each class's chunks.
func TestShadowConcurrentInsert(t *testing.T) {
	for stride, perAddr := range map[int]int64{8: 1, 3: 3} {
		e := newEnv(t, "")
		sh := emptyShadow(newTree(e.rep))
		const n = 20000
		addr := func(k int) uintptr { return uintptr(0x10000 + stride*k) }
		cells := make([][]*cell, 4)
		var wg sync.WaitGroup
		for g := range cells {
			cells[g] = make([]*cell, n)
			wg.Go(func() {
				for i := range n {
					k := (i*7 + g*1001) % n
					cells[g][k] = sh.cell(addr(k))
				}
			})
		}
		wg.Wait()
		seen := map[*cell]bool{}
		for k := range n {
			c := sh.cell(addr(k))
			if key, i := chunkOf(addr(k)); c == nil || c != &sh.chunk(key).cellsOf()[i] || chunkAddr(key, i) != addr(k) {
				t.Fatalf("stride %d, address %d: cell %v", stride, k, c)
			}
			for g := range cells {
				if cells[g][k] != c {
					t.Fatalf("stride %d, address %d: goroutine %d got a different cell", stride, k, g)
				}
			}
			if seen[c] {
				t.Fatalf("stride %d: cell shared by two addresses", stride)
			}
			seen[c] = true
		}
		if got, max := sh.cells.Load(), perAddr*n+4*chunkCells; got < n || got > max {
			t.Fatalf("stride %d: %d cells for %d addresses, want %d to %d", stride, got, n, n, max)
		}
	}
}

// TestShadowBounded: past max_shadow new addresses go unchecked and are
// counted; known ones are still checked. Cells are allocated, and counted,
// a chunk at a time: max_shadow=100 holds twelve chunks of eight words.
func TestShadowBounded(t *testing.T) {
	e := newEnv(t, "max_shadow=100")
	sh := emptyShadow(newTree(e.rep))
	const base = 0x1000
	for i := range 150 {
		c := sh.cell(uintptr(base + 8*i))
		if (c == nil) != (i >= 96) {
			t.Fatalf("address %d: cell %v", i, c)
		}
	}
	if got := sh.cells.Load(); got != 96 {
		t.Fatalf("%d cells held, want 96", got)
	}
	if sh.cell(base) == nil || e.rep.stats.untracked.Load() != 54 {
		t.Fatalf("untracked = %d", e.rep.stats.untracked.Load())
	}
}

// TestChecksDoNotAllocate: Read, Write, ReadRange and the atomics allocate
// nothing once the shadow knows the addresses, under both protocols.
func TestChecksDoNotAllocate(t *testing.T) {
	for _, opts := range []string{"", "protocol=locked"} {
		e := newEnv(t, opts)
		c := e.enter(2, siteLoop)
		tk := c.Fork(0)
		buf := make([]int64, 64)
		a := uintptr(unsafe.Pointer(&buf[0]))
		run := func() {
			tk.Read(a, 1)
			tk.Write(a, 2)
			tk.ReadRange(a, 64, 8, 3)
			tk.WriteRange(a, 64, 8, 4)
			tk.AtomicRead(a+8, 5)
			tk.AtomicWrite(a+8, 6)
		}
		run()
		if n := testing.AllocsPerRun(1000, run); n != 0 {
			t.Errorf("%q: %v allocs per run", opts, n)
		}
		c.Join()
	}
}

// TestShadowRecycled: a finished tree's table is reused with its cells in
// place and every history forgotten.
func TestShadowRecycled(t *testing.T) {
	e := newEnv(t, "")
	var x [4]int64
	for run := range 3 {
		e.parallel(4, siteLoop, func(i int, t *Task) {
			t.Write(uintptr(unsafe.Pointer(&x[i])), siteA)
			t.Read(uintptr(unsafe.Pointer(&x[(i+1)%4])), siteA)
		})
		if got := len(e.reports()); got == 0 {
			t.Fatalf("run %d: the neighbour reads were not reported", run)
		}
		e.raws = nil
		// A run with no conflict after a racy one: nothing stale may show.
		e.parallel(4, siteLoop, func(i int, t *Task) {
			t.Write(uintptr(unsafe.Pointer(&x[i])), siteA)
		})
		if got := e.reports(); len(got) != 0 {
			t.Fatalf("run %d: %d reports from a recycled table", run, len(got))
		}
	}
}

// TestRecycledWordsPrecede runs many trees over the same addresses, so a
// recycled table hands each tree cells still holding the words of earlier
// trees' blocks (tags below its floor). Those must count as preceding every
// block: a clean tree reports nothing, and a racy one is reported though
// its first access meets an old word.
func TestRecycledWordsPrecede(t *testing.T) {
	e := newEnv(t, "")
	var x [8]int64
	var floors atomic.Int64
	for run := range 50 {
		e.parallel(8, siteLoop, func(i int, t *Task) {
			if t.sh.floor > 1 {
				floors.Add(1)
			}
			t.Write(uintptr(unsafe.Pointer(&x[(i+run)%8])), siteA)
			t.Read(uintptr(unsafe.Pointer(&x[(i+run)%8])), siteA)
		})
		if got := e.reports(); len(got) != 0 {
			t.Fatalf("run %d: %d reports from old words", run, len(got))
		}
		e.parallel(2, siteLoop, func(i int, t *Task) {
			t.Write(uintptr(unsafe.Pointer(&x[run%8])), siteA)
		})
		if len(e.reports()) == 0 {
			t.Fatalf("run %d: the write-write race after old words was not reported", run)
		}
		e.raws = nil
	}
	if floors.Load() == 0 {
		t.Error("no tree ran on a recycled table with old words: the test exercised nothing")
	}
}
