package rt

import (
	"runtime"
	"sync"
	"testing"
	"unsafe"
)

// TestStress100kGoroutines: one construct forks 100,000 goroutines (at most
// 4,096 alive at once, which -race needs). Each writes its own element and
// reads a shared one: no report. Two of them also write one shared
// element: reported.
func TestStress100kGoroutines(t *testing.T) {
	for _, opts := range []string{"", "protocol=locked"} {
		e := newEnv(t, opts)
		const n = 100000
		own := make([]int32, n)
		var shared, racy int64
		c := e.enter(n, siteLoop)
		sem := make(chan struct{}, 4096)
		var wg sync.WaitGroup
		for i := range n {
			tk := c.Fork(i)
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				tk.Write(uintptr(unsafe.Pointer(&own[i])), 1)
				tk.Read(uintptr(unsafe.Pointer(&shared)), 2)
				if i == 17 || i == n-1 {
					tk.Write(uintptr(unsafe.Pointer(&racy)), 3)
				}
			})
		}
		wg.Wait()
		c.Join()
		reps := e.reports()
		if len(reps) != 1 || wordSite(reps[0].sink) != 3 {
			t.Fatalf("%q: want one report on the racy element, got %d: %+v", opts, len(reps), reps)
		}
		if got := e.rep.stats.checks.Load(); got != 2*n+2 {
			t.Fatalf("%q: %d checks counted, want %d", opts, got, 2*n+2)
		}
	}
}

// TestStressNestingDepth8: a binary tree of constructs 8 deep (256
// leaves). Every leaf writes its own element; the parent of each construct
// reads its children's elements after the join; the first and the last leaf
// also write one shared element, the only conflict.
func TestStressNestingDepth8(t *testing.T) {
	for _, opts := range []string{"", "protocol=locked"} {
		e := newEnv(t, opts)
		leaves := make([]int64, 256)
		var shared int64
		var rec func(tk *Task, depth, lo int)
		rec = func(tk *Task, depth, lo int) {
			if depth == 8 {
				tk.Write(uintptr(unsafe.Pointer(&leaves[lo])), 1)
				if lo == 0 || lo == 255 {
					tk.Write(uintptr(unsafe.Pointer(&shared)), 2)
				}
				return
			}
			half := 1 << (7 - depth)
			c := tk.enter(2, siteLoop)
			runChildren(c, 2, func(i int, ct *Task) { rec(ct, depth+1, lo+i*half) })
			c.Join()
			tk.ReadRange(uintptr(unsafe.Pointer(&leaves[lo])), uintptr(2*half), 8, 3)
		}
		root := newRootTask(newTree(e.rep))
		c := root.enter(1, siteLoop)
		runChildren(c, 1, func(_ int, ct *Task) { rec(ct, 0, 0) })
		c.Join()
		reps := e.reports()
		if len(reps) != 1 || wordSite(reps[0].sink) != 2 || wordSite(reps[0].source) != 2 {
			t.Fatalf("%q: want one WRITE-WRITE on the shared element, got %+v", opts, reps)
		}
	}
}

// TestStressMillionChecks: each of 4 goroutines makes a million checks
// (100,000 with -short) on its own elements and a read-only shared table.
func TestStressMillionChecks(t *testing.T) {
	n := 1000000
	if testing.Short() {
		n = 100000
	}
	e := newEnv(t, "")
	own := make([]int64, 4*1024)
	table := make([]int64, 256)
	e.parallel(4, siteLoop, func(g int, tk *Task) {
		for i := range n / 2 {
			tk.Write(uintptr(unsafe.Pointer(&own[g*1024+i%1024])), 1)
			tk.Read(uintptr(unsafe.Pointer(&table[i%256])), 2)
		}
	})
	if r := e.reports(); len(r) != 0 {
		t.Fatalf("%d false reports", len(r))
	}
	if got := e.rep.stats.checks.Load(); got != uint64(4*(n/2)*2) {
		t.Fatalf("%d checks counted", got)
	}
}

// TestStressMemoryBounded: the same construct run 10,000 times (2,000 with
// -short) over freshly allocated slices. Each root join drops the tree's
// shadow, so the live heap stays flat.
func TestStressMemoryBounded(t *testing.T) {
	rounds := 10000
	if testing.Short() {
		rounds = 2000
	}
	e := newEnv(t, "")
	e.rep.raw = nil
	run := func() {
		a := make([]int64, 1000)
		e.parallel(4, siteLoop, func(g int, tk *Task) {
			tk.WriteRange(uintptr(unsafe.Pointer(&a[g*250])), 250, 8, 1)
			tk.ReadRange(uintptr(unsafe.Pointer(&a[g*250])), 1, 8, 2)
		})
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	for range 100 {
		run()
	}
	before := heap()
	for range rounds {
		run()
	}
	after := heap()
	t.Logf("%d constructs of 1,000 shadowed elements each: live heap %d KB before, %d KB after", rounds, before>>10, after>>10)
	// Without dropping the shadow, 10,000 rounds keep 10M cells (>500 MB).
	if after > before+8<<20 {
		t.Fatalf("live heap grew from %d to %d bytes", before, after)
	}
	if r := e.out.Len(); r != 0 {
		t.Fatalf("false reports (%d bytes):\n%q", r, e.out.String())
	}
}
