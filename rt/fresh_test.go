package rt

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// bigRec is a struct whose fields lie past freshBytes.
type bigRec struct {
	//lint:ignore U1000 the fields give the layout; leavesOf reads them
	head [40]int64
	//lint:ignore U1000 the fields give the layout; leavesOf reads them
	b    byte
	mid  [30]int32
	tail struct {
		x byte
		y [9]int16
	}
}

// reuseRun models memory reused by siblings, as a goroutine stack is by
// the next goroutine started: the n children of one construct each get the
// same object, run one after the other, call New on it if fresh (as the
// rewriter does at a declaration) and access random leaves of it. It
// returns the number of reports.
func reuseRun[T any](t *testing.T, seed uint64, n int, fresh bool) int {
	e := newEnv(t, "")
	obj := new(T)
	l := leavesOf[T]()
	r := rand.New(rand.NewPCG(seed, 1))
	c := e.enter(n, siteLoop)
	for i := range n {
		k := c.Fork(i)
		if fresh {
			New(k, obj)
		}
		for range 8 {
			rep, leaf := uintptr(r.IntN(int(l.reps))), l.off[r.IntN(len(l.off))]
			a := uintptr(unsafe.Pointer(obj)) + rep*l.stride + leaf
			if r.IntN(2) == 0 {
				k.Write(a, 1)
			} else {
				k.Read(a, 1)
			}
		}
	}
	c.Join()
	return len(e.reports())
}

// TestNewClearsWholeObject: a sibling's New forgets every leaf of the
// object, also past freshBytes, so accesses of the reused memory are never
// reported; without New the same runs are (the oracle: the test can fail).
func TestNewClearsWholeObject(t *testing.T) {
	for seed := range uint64(40) {
		if got := reuseRun[[64]int64](t, seed, 6, true); got != 0 {
			t.Fatalf("[64]int64, seed %d: %d report(s) after New", seed, got)
		}
		if got := reuseRun[bigRec](t, seed, 6, true); got != 0 {
			t.Fatalf("bigRec, seed %d: %d report(s) after New", seed, got)
		}
		if got := reuseRun[[3][50]byte](t, seed, 6, true); got != 0 {
			t.Fatalf("[3][50]byte, seed %d: %d report(s) after New", seed, got)
		}
	}
	control := 0
	for seed := range uint64(40) {
		control += reuseRun[[64]int64](t, seed, 6, false)
	}
	if control == 0 {
		t.Fatal("without New no run reported: the oracle sees nothing")
	}
}

// TestMakeClearsWholeSlice: as TestNewClearsWholeObject, for Make of
// elements larger than freshBytes/4.
func TestMakeClearsWholeSlice(t *testing.T) {
	e := newEnv(t, "")
	s := make([]bigRec, 3)
	c := e.enter(4, siteLoop)
	for i := range 4 {
		k := c.Fork(i)
		Make(k, s)
		for j := range s {
			k.Write(uintptr(unsafe.Pointer(&s[j].tail.y[8])), 1)
			k.Write(uintptr(unsafe.Pointer(&s[j].mid[29])), 1)
		}
	}
	c.Join()
	if r := e.reports(); len(r) != 0 {
		t.Fatalf("%d report(s) after Make", len(r))
	}
}

// TestNewMovesToHeap: New makes its argument escape, so a variable
// declared in construct code is on the heap, never on a goroutine stack
// that a sibling reuses or that moves when it grows.
func TestNewMovesToHeap(t *testing.T) {
	k, c := benchTask(t, "")
	defer c.Join()
	if n := testing.AllocsPerRun(10, func() {
		var v [4]int64
		New(k, &v)
		sinkInt = v[1]
	}); n != 1 {
		t.Fatalf("var v [4]int64; New(t, &v): %v allocation(s), want 1 (moved to heap)", n)
	}
	if n := testing.AllocsPerRun(10, func() {
		s := Make(k, make([]int64, 4))
		sinkInt = s[1]
	}); n != 1 {
		t.Fatalf("Make(t, make([]int64, 4)): %v allocation(s), want 1 (moved to heap)", n)
	}
}
