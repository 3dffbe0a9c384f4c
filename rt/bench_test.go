package rt

import (
	"sync"
	"testing"
	"unsafe"
)

// benchTask returns a child task of an open construct in a tree of its own,
// and a function that joins the construct.
func benchTask(b testing.TB, opts string) (*Task, *Construct) {
	e := newEnv(b, opts)
	e.rep.raw = nil
	c := e.enter(4, siteLoop)
	return c.Fork(0), c
}

var sinkInt int64

// BenchmarkPlainAccess is the baseline: a plain load and store.
func BenchmarkPlainAccess(b *testing.B) {
	b.ReportAllocs()
	x := new(int64)
	for b.Loop() {
		*x = sinkInt + 1
		sinkInt = *x
	}
}

func benchCheck(b *testing.B, opts string, write bool) {
	t, c := benchTask(b, opts)
	defer c.Join()
	buf := make([]int64, 1024)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		a := uintptr(unsafe.Pointer(&buf[i&1023]))
		if write {
			t.Write(a, 1)
		} else {
			t.Read(a, 1)
		}
		i++
	}
}

// BenchmarkRead is an uncontended read check (one goroutine, warm shadow).
func BenchmarkRead(b *testing.B) { benchCheck(b, "", false) }

// BenchmarkWrite is an uncontended write check.
func BenchmarkWrite(b *testing.B) { benchCheck(b, "", true) }

// BenchmarkReadSame is an uncontended read check of one address, again
// and again (the task's last-cell cache hits).
func BenchmarkReadSame(b *testing.B) {
	t, c := benchTask(b, "")
	defer c.Join()
	var x int64
	b.ReportAllocs()
	for b.Loop() {
		t.Read(uintptr(unsafe.Pointer(&x)), 1)
	}
}

// BenchmarkReadLocked is BenchmarkRead under protocol=locked.
func BenchmarkReadLocked(b *testing.B) { benchCheck(b, "protocol=locked", false) }

// BenchmarkWriteLocked is BenchmarkWrite under protocol=locked.
func BenchmarkWriteLocked(b *testing.B) { benchCheck(b, "protocol=locked", true) }

// BenchmarkReadRange checks a 64-element read range.
func BenchmarkReadRange(b *testing.B) {
	t, c := benchTask(b, "")
	defer c.Join()
	buf := make([]int64, 64)
	b.ReportAllocs()
	for b.Loop() {
		t.ReadRange(uintptr(unsafe.Pointer(&buf[0])), 64, 8, 1)
	}
}

// BenchmarkReadRangeBytes checks a 256-byte read range: a cell per byte,
// the odd ones in chunks of their own alignment class.
func BenchmarkReadRangeBytes(b *testing.B) {
	t, c := benchTask(b, "")
	defer c.Join()
	buf := make([]byte, 256)
	b.ReportAllocs()
	for b.Loop() {
		t.ReadRange(uintptr(unsafe.Pointer(&buf[0])), 256, 1, 1)
	}
}

// benchShared has every RunParallel goroutine, each a child of one
// construct, check the same location.
func benchShared(b *testing.B, opts string, write bool) {
	e := newEnv(b, opts)
	e.rep.raw = nil
	c := e.enter(-1, siteLoop)
	defer c.Join()
	var mu sync.Mutex
	var x int64
	a := uintptr(unsafe.Pointer(&x))
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		mu.Lock()
		t := c.Fork(-1)
		mu.Unlock()
		for pb.Next() {
			if write {
				t.Write(a, 1)
			} else {
				t.Read(a, 1)
			}
		}
	})
}

// BenchmarkReadShared: one location read by all goroutines.
func BenchmarkReadShared(b *testing.B) { benchShared(b, "", false) }

// BenchmarkWriteShared: one location written by all goroutines, a
// WRITE-WRITE DATA RACE on every check (the report path, deduplicated).
func BenchmarkWriteShared(b *testing.B) { benchShared(b, "", true) }

// BenchmarkReadSharedLocked is BenchmarkReadShared under protocol=locked.
func BenchmarkReadSharedLocked(b *testing.B) { benchShared(b, "protocol=locked", false) }

// BenchmarkBlockLookup: how a check finds its block. The hidden task
// parameter costs one load; Current (the goroutine's g, then the table;
// what code reached through a function value pays) a few more; finding it
// by goroutine id (parsing runtime.Stack, then a map lookup) is what both
// avoid.
func BenchmarkBlockLookup(b *testing.B) {
	t, c := benchTask(b, "")
	defer c.Join()
	b.Run("param", func(b *testing.B) {
		b.ReportAllocs()
		var s uint64
		for b.Loop() {
			s += blockOf(t)
		}
		sinkInt = int64(s)
	})
	b.Run("current", func(b *testing.B) {
		Attach(t)
		defer Detach()
		b.ReportAllocs()
		var s uint64
		for b.Loop() {
			s += Current().cur
		}
		sinkInt = int64(s)
	})
	b.Run("goid", func(b *testing.B) {
		var m sync.Map
		m.Store(goid(), t)
		b.ReportAllocs()
		var s uint64
		for b.Loop() {
			v, _ := m.Load(goid())
			s += v.(*Task).cur
		}
		sinkInt = int64(s)
	})
}

//go:noinline
func blockOf(t *Task) uint64 { return t.cur }

// BenchmarkEnterForkJoin: a construct of 8 forks in a new tree (Enter,
// 8 Fork, Join; no goroutines), counted, uncounted, and nested in a child.
func BenchmarkEnterForkJoin(b *testing.B) {
	e := newEnv(b, "")
	for _, bc := range []struct {
		name string
		n    int
	}{{"counted", 8}, {"uncounted", -1}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c := e.enter(bc.n, siteLoop)
				for i := range 8 {
					c.Fork(i)
				}
				c.Join()
			}
		})
	}
	b.Run("nested", func(b *testing.B) {
		outer := e.enter(1, siteLoop)
		t := outer.Fork(0)
		b.ReportAllocs()
		for b.Loop() {
			c := t.enter(8, siteLoop)
			for i := range 8 {
				c.Fork(i)
			}
			c.Join()
		}
		outer.Join()
	})
}

// meshWalk returns the element indexes a finite-element sweep touches on an
// n×n grid of (n+1)² nodes: the three nodes of each of a cell's two
// triangles, cell by cell, so neighbouring indexes and indexes a row (n+1)
// apart alternate, as in bench/fem.
func meshWalk(n int) []int {
	node := func(i, j int) int { return j*(n+1) + i }
	var walk []int
	for j := range n {
		for i := range n {
			a, b, c, d := node(i, j), node(i+1, j), node(i+1, j+1), node(i, j+1)
			walk = append(walk, a, b, c, c, d, a)
		}
	}
	return walk
}

// BenchmarkMesh: one check per op over a []float64 of 66K elements (larger
// than the caches once shadowed), in the order of a mesh sweep, so the cost
// of finding an element's cell dominates and shows the table's locality.
// write is a plain write check; rw is RW, an x += y.
func BenchmarkMesh(b *testing.B) {
	const n = 256
	walk := meshWalk(n)
	y := make([]float64, (n+1)*(n+1))
	for _, bc := range []struct {
		name  string
		check func(t *Task, k int)
	}{
		{"write", func(t *Task, k int) { t.Write(uintptr(unsafe.Pointer(&y[k])), 1) }},
		{"rw", func(t *Task, k int) { *RW(t, &y[k], 1) += 1 }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			t, c := benchTask(b, "")
			defer c.Join()
			for _, k := range walk {
				bc.check(t, k)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				bc.check(t, walk[i])
				if i++; i == len(walk) {
					i = 0
				}
			}
		})
	}
}

// benchVec is a dense-word struct, as bench/nbody's vec.
type benchVec struct{ x, y, z float64 }

// BenchmarkWholeValue: a whole-value read of a 3-word struct (RA), against
// its three field reads (R), and the layout lookup alone (leavesOf): the
// numbers of docs/runtime.md, "whole-value accesses".
func BenchmarkWholeValue(b *testing.B) {
	e := newEnv(b, "")
	c := e.enter(1, siteLoop)
	t := c.Fork(0)
	xs := make([]benchVec, 1024)
	b.Run("RA", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			RA(t, &xs[i&1023], siteA)
		}
	})
	b.Run("R3", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			p := &xs[i&1023]
			R(t, &p.x, siteA)
			R(t, &p.y, siteA)
			R(t, &p.z, siteA)
		}
	})
	b.Run("leavesOf", func(b *testing.B) {
		for b.Loop() {
			_ = leavesOf[benchVec]()
		}
	})
	c.Join()
}
