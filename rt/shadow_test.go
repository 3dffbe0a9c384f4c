package rt

import (
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"
)

// TestShadowConcurrentInsert: goroutines inserting overlapping addresses
// while the shards grow all get one cell per address, before and after.
func TestShadowConcurrentInsert(t *testing.T) {
	e := newEnv(t, "")
	sh := emptyShadow(newTree(e.rep))
	const n = 20000
	cells := make([][]*cell, 4)
	var wg sync.WaitGroup
	for g := range cells {
		cells[g] = make([]*cell, n)
		wg.Go(func() {
			for i := range n {
				k := (i*7 + g*1001) % n
				cells[g][k] = sh.cell(uintptr(0x10000 + 8*k))
			}
		})
	}
	wg.Wait()
	seen := map[*cell]bool{}
	for k := range n {
		c := sh.cell(uintptr(0x10000 + 8*k))
		if c == nil || c.addr != uintptr(0x10000+8*k) {
			t.Fatalf("address %d: cell %v", k, c)
		}
		for g := range cells {
			if cells[g][k] != c {
				t.Fatalf("address %d: goroutine %d got a different cell", k, g)
			}
		}
		if seen[c] {
			t.Fatalf("cell shared by two addresses")
		}
		seen[c] = true
	}
	if got := sh.cells.Load(); got != n {
		t.Fatalf("%d cells for %d addresses", got, n)
	}
}

// TestShadowBounded: past max_shadow new addresses go unchecked and are
// counted; known ones are still checked.
func TestShadowBounded(t *testing.T) {
	e := newEnv(t, "max_shadow=100")
	sh := emptyShadow(newTree(e.rep))
	for i := range 150 {
		c := sh.cell(uintptr(8 * (i + 1)))
		if (c == nil) != (i >= 100) {
			t.Fatalf("address %d: cell %v", i, c)
		}
	}
	if sh.cell(8) == nil || e.rep.stats.untracked.Load() != 50 {
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
