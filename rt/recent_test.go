package rt

import (
	"testing"
	"unsafe"
)

// recentTask returns the first child of a construct of n children in a new
// tree whose tasks keep a recent set from their first check (recent=1), the
// construct, and the environment.
func recentTask(t *testing.T, n int) (*Task, *Construct, *testEnv) {
	e := newEnv(t, "recent=1")
	c := e.enter(n, siteLoop)
	return c.Fork(0), c, e
}

// warm makes tk check one scratch word, so that it has its recent set.
func warm(t *testing.T, tk *Task) {
	var scratch int64
	tk.Read(uintptr(unsafe.Pointer(&scratch)), siteSum)
	tk.Read(uintptr(unsafe.Pointer(&scratch)), siteSum)
	if tk.recent == nil {
		t.Fatal("no recent set after two checks with recent=1")
	}
}

// TestRecentHoldsRepeats: a block's read is held for reads, its write for
// reads and writes; a repeat is counted as a check and leaves the cell as
// it was; a write concurrent with the skipped repeat is still reported.
func TestRecentHoldsRepeats(t *testing.T) {
	b, c, e := recentTask(t, 2)
	z := c.Fork(1)
	warm(t, b)
	var x, y int64
	ax, ay := uintptr(unsafe.Pointer(&x)), uintptr(unsafe.Pointer(&y))
	b.Read(ax, siteA)
	if !b.recent.holds(ax, 0) || b.recent.holds(ax, 1) {
		t.Fatalf("after a read: holds read %v write %v, want true false", b.recent.holds(ax, 0), b.recent.holds(ax, 1))
	}
	b.Write(ay, siteA)
	if !b.recent.holds(ay, 0) || !b.recent.holds(ay, 1) {
		t.Fatal("after a write: the write is not held for reads and writes")
	}
	cell := &b.sh.cell(ax).r
	before, n := cell.Load(), b.checks
	b.Read(ax, siteX)
	if cell.Load() != before || b.checks != n+1 {
		t.Fatalf("repeated read: R %#x -> %#x, checks %d -> %d; want R unchanged, one more check", before, cell.Load(), n, b.checks)
	}
	z.Write(ax, siteSections)
	if len(e.reports()) != 1 {
		t.Fatalf("write concurrent with b's reads: %d reports, want 1", len(e.reports()))
	}
	c.Join()
}

// TestRecentDroppedAtItem: the next item of a worker is another block,
// concurrent with the first: its write of the location the first item
// wrote is checked, and the WRITE-WRITE reported.
func TestRecentDroppedAtItem(t *testing.T) {
	b, c, e := recentTask(t, 1)
	warm(t, b)
	var x int64
	ax := uintptr(unsafe.Pointer(&x))
	b.Item()
	b.Write(ax, siteA)
	b.Item()
	if b.recent.holds(ax, 1) {
		t.Fatal("the next item holds the first item's write")
	}
	b.Write(ax, siteX)
	b.EndItems()
	c.Join()
	if rs := e.reports(); len(rs) != 1 || rs[0].kind != writeWrite {
		t.Fatalf("two items writing one location: reports %+v, want one WRITE-WRITE", rs)
	}
}

// TestRecentDroppedAtLockChange: a read under a lock, then the same read
// without it: the second is checked, so a write under the lock concurrent
// with both is a DATA RACE (the unlocked read), not only NONDETERMINISM.
func TestRecentDroppedAtLockChange(t *testing.T) {
	b, c, e := recentTask(t, 2)
	z := c.Fork(1)
	warm(t, b)
	var x, mu int64
	ax, amu := uintptr(unsafe.Pointer(&x)), uintptr(unsafe.Pointer(&mu))
	b.Lock(amu)
	b.Read(ax, siteA)
	b.Unlock(amu)
	if b.recent.holds(ax, 0) {
		t.Fatal("the read under the lock is held after Unlock")
	}
	b.Read(ax, siteX)
	z.Lock(amu)
	z.Write(ax, siteSections)
	z.Unlock(amu)
	c.Join()
	races := 0
	for _, r := range e.reports() {
		if r.class == dataRace {
			races++
		}
	}
	if races == 0 {
		t.Fatalf("unlocked read vs locked write: reports %+v, want a DATA RACE", e.reports())
	}
}

// TestRecentDroppedByFresh: when a new object's history is forgotten at an
// address a block read (the old object freed, the memory reused), the
// block's next read there is checked again: it is recorded in the cleared
// cell, and a concurrent write is reported.
func TestRecentDroppedByFresh(t *testing.T) {
	b, c, e := recentTask(t, 3)
	z, w := c.Fork(1), c.Fork(2)
	warm(t, b)
	var x int64
	ax := uintptr(unsafe.Pointer(&x))
	b.Read(ax, siteA)
	w.fresh(ax, 8) // another task's New of an object at ax
	if r := b.sh.cell(ax).r.Load(); r != clearedWord {
		t.Fatalf("fresh left R %#x", r)
	}
	b.Read(ax, siteX)
	if r := b.sh.cell(ax).r.Load(); wordTag(r) != b.cur {
		t.Fatalf("read after fresh: R %#x, want b's block %d", r, b.cur)
	}
	z.Write(ax, siteSections)
	c.Join()
	if len(e.reports()) == 0 {
		t.Fatal("write concurrent with the read of the new object: not reported")
	}
}

// TestRecentOnlyWaitFree: the locked protocol, which promises every pair
// of sites, never keeps a recent set; the default keeps one from the
// recentMin-th check; recent=0 never.
func TestRecentOnlyWaitFree(t *testing.T) {
	for _, tc := range []struct {
		opts string
		want bool
	}{{"", true}, {"protocol=locked recent=1", false}, {"recent=0", false}} {
		e := newEnv(t, tc.opts)
		c := e.enter(1, siteLoop)
		tk := c.Fork(0)
		buf := make([]int64, recentMin+1)
		for i := range buf {
			tk.Read(uintptr(unsafe.Pointer(&buf[i])), siteA)
		}
		if got := tk.recent != nil; got != tc.want {
			t.Errorf("%q: recent set %v after %d checks, want %v", tc.opts, got, len(buf), tc.want)
		}
		c.Join()
	}
}

// BenchmarkReadRecent is a block's repeated read of a few locations in
// turn, as a pixel loop reads captured headers: each is held in the
// recent set (BenchmarkReadRecent/off: GOANOMALY=recent=0).
func BenchmarkReadRecent(b *testing.B) {
	for _, bc := range []struct{ name, opts string }{{"on", ""}, {"off", "recent=0"}} {
		b.Run(bc.name, func(b *testing.B) {
			tk, c := benchTask(b, bc.opts)
			defer c.Join()
			var hdr [4]int64
			buf := make([]uint8, 1<<16)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				tk.Read(uintptr(unsafe.Pointer(&hdr[i&3])), 1)
				tk.Read(uintptr(unsafe.Pointer(&buf[i&(1<<16-1)])), 2)
				i++
			}
		})
	}
}
