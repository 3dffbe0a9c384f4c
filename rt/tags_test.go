package rt

import (
	"slices"
	"testing"
	"unsafe"
)

func TestIntervals(t *testing.T) {
	s := mergeIntervals([]interval{{10, 12}, {1, 3}}, []interval{{4, 5}, {20, 20}, {7, 6}}, []interval{{11, 15}})
	want := []interval{{1, 5}, {10, 15}, {20, 20}}
	if !slices.Equal(s, want) {
		t.Fatalf("merge = %v, want %v", s, want)
	}
	for x, in := range map[uint64]bool{0: false, 1: true, 5: true, 6: false, 9: false, 10: true, 15: true, 16: false, 20: true, 21: false} {
		if got := inIntervals(s, x); got != in {
			t.Errorf("inIntervals(%d) = %v", x, got)
		}
	}
}

// TestOneLevelIsOneRange checks the common case the tag layout is for: in a
// construct entered by a root, every child's ancestors are one interval, so
// SP is one range compare with no search.
func TestOneLevelIsOneRange(t *testing.T) {
	e := newEnv(t, "")
	for range 3 { // repeated constructs of one root keep the property
		c := e.enter(5, siteLoop)
		for i := range 5 {
			ch := c.Fork(i)
			if ch.anc != nil {
				t.Fatalf("child %d: anc = %v, want nil (ext [%d,%d])", i, ch.anc, ch.lo, ch.hi)
			}
			if !ch.sp(c.parent.cur-1) || ch.sp(c.parent.cur) {
				t.Fatalf("child %d: parent's block before the fork must precede, after must not", i)
			}
		}
		c.Join()
	}
}

// TestNestedEnterBetweenForks: the parent runs a whole construct between
// forks. The children forked after it are preceded by all of it; the ones
// forked before are concurrent with all of it.
func TestNestedEnterBetweenForks(t *testing.T) {
	e := newEnv(t, "")
	var x [2]int64
	ax, ay := uintptr(unsafe.Pointer(&x[0])), uintptr(unsafe.Pointer(&x[1]))
	c := e.enter(2, siteLoop)
	p := c.Task()
	early := c.Fork(0)
	early.Read(ay, 1)
	d := p.enter(3, siteLoop) // nested, between forks
	runChildren(d, 3, func(i int, t *Task) {
		if i == 1 {
			t.Write(ax, 2)
			t.Write(ay, 3)
		}
	})
	d.Join()
	late := c.Fork(1)
	late.Read(ax, 4)
	c.Join()
	reps := e.reports()
	if len(reps) != 1 || wordSite(reps[0].sink) != 3 || wordSite(reps[0].source) != 1 {
		t.Fatalf("want exactly the READ-WRITE of site 1 vs 3, got %+v", reps)
	}
}

// TestItemsAreConcurrent: two items of one worker are concurrent with each
// other and with the worker's own block, whichever worker ran them.
func TestItemsAreConcurrent(t *testing.T) {
	e := newEnv(t, "")
	var x int64
	a := uintptr(unsafe.Pointer(&x))
	c := e.enter(1, sitePool)
	w := c.Fork(0)
	w.Write(a, 1) // the worker's own block
	w.Item()
	w.Read(a, 2)
	w.Item()
	w.Write(a, 3)
	w.EndItems()
	c.Join()
	got := map[[2]Site]bool{}
	for _, r := range e.reports() {
		got[[2]Site{wordSite(r.sink), wordSite(r.source)}] = true
	}
	for _, p := range [][2]Site{{2, 1}, {3, 1}} {
		if !got[p] {
			t.Errorf("missing report sink %d source %d; got %v", p[0], p[1], got)
		}
	}
	if !got[[2]Site{3, 2}] && !got[[2]Site{3, 1}] {
		t.Errorf("items 1 and 2 conflict, no report")
	}
}

// TestElementGranularity: neighbouring bytes written by different
// goroutines are different locations.
func TestElementGranularity(t *testing.T) {
	for _, locked := range []string{"protocol=waitfree", "protocol=locked"} {
		e := newEnv(t, locked)
		buf := make([]byte, 64)
		e.parallel(64, siteLoop, func(i int, t *Task) {
			t.Write(uintptr(unsafe.Pointer(&buf[i])), siteA)
			t.ReadRange(uintptr(unsafe.Pointer(&buf[i])), 1, 1, siteA)
		})
		if r := e.reports(); len(r) != 0 {
			t.Fatalf("%s: %d false reports", locked, len(r))
		}
		e.parallel(2, siteLoop, func(i int, t *Task) {
			t.WriteRange(uintptr(unsafe.Pointer(&buf[0])), 8, 1, siteA)
		})
		if r := e.reports(); len(r) == 0 {
			t.Fatalf("%s: overlapping ranges not reported", locked)
		}
	}
}

// TestNilTask: every check on a nil task does nothing.
func TestNilTask(t *testing.T) {
	var tk *Task
	tk.Read(1, 1)
	tk.Write(1, 1)
	tk.ReadRange(1, 2, 1, 1)
	tk.WriteRange(1, 2, 1, 1)
	tk.AtomicRead(1, 1)
	tk.AtomicWrite(1, 1)
	tk.Lock(1)
	tk.Unlock(1)
	tk.Item()
	tk.EndItems()
}

// TestNoCheckOutsideConstructs: the root's accesses before its first and
// after its last construct cannot conflict and are not checked.
func TestNoCheckOutsideConstructs(t *testing.T) {
	e := newEnv(t, "")
	c := e.enter(1, siteLoop)
	root := c.Task()
	c.Join()
	if root.sh != nil {
		t.Fatal("the tree's shadow survived the root's join")
	}
	root.Write(8, siteA) // unchecked: nothing to conflict with
	c = root.enter(1, siteLoop)
	if root.sh == nil {
		t.Fatal("no shadow in the second construct")
	}
	c.Fork(0).Read(8, siteA)
	c.Join()
	if r := e.reports(); len(r) != 0 {
		t.Fatalf("false reports across constructs: %v", r)
	}
}
