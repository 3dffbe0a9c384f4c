package rt

import (
	"testing"
	"unsafe"
)

type leafPoint struct {
	name string
	xy   [2]int32
	ok   bool
}

func TestLeavesOf(t *testing.T) {
	got := leavesOf[leafPoint]().off
	p := leafPoint{}
	want := []uintptr{unsafe.Offsetof(p.name), unsafe.Offsetof(p.xy), unsafe.Offsetof(p.xy) + 4, unsafe.Offsetof(p.ok)}
	if len(got) != len(want) {
		t.Fatalf("leavesOf[leafPoint] = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("leavesOf[leafPoint] = %v, want %v", got, want)
		}
	}
	if l := leavesOf[[1 << 14]byte](); len(l.off) != 1 || l.reps != 1<<14 || l.stride != 1 {
		t.Errorf("layout of a 16K array: %d leaves ×%d stride %d, want 1 ×16384 stride 1", len(l.off), l.reps, l.stride)
	}
	if l := leavesOf[[4][8][2]leafPoint](); len(l.off) != len(want) || l.reps != 64 || l.stride != unsafe.Sizeof(p) {
		t.Errorf("layout of a nested array of structs: %d leaves ×%d stride %d", len(l.off), l.reps, l.stride)
	}
}

// TestWholeValueMeetsElement: a write of a whole array (a = [5]int{…}) and
// a write of one element (a[3] = 1) in concurrent blocks conflict; a write of
// a whole struct and a read of a field too; disjoint fields do not.
func TestWholeValueMeetsElement(t *testing.T) {
	for _, proto := range []string{"protocol=waitfree", "protocol=locked"} {
		e := newEnv(t, proto)
		var a [5]int
		e.parallel(2, siteLoop, func(i int, t *Task) {
			if i == 0 {
				WA(t, &a, siteA)
			} else {
				t.Write(uintptr(unsafe.Pointer(&a[3])), siteX)
			}
		})
		if len(e.reports()) == 0 {
			t.Fatalf("%s: whole-array write vs element write not reported", proto)
		}
		e = newEnv(t, proto)
		var p leafPoint
		e.parallel(2, siteLoop, func(i int, t *Task) {
			if i == 0 {
				RA(t, &p, siteA)
			} else {
				t.Write(uintptr(unsafe.Pointer(&p.xy[1])), siteX)
			}
		})
		if len(e.reports()) == 0 {
			t.Fatalf("%s: whole-struct read vs field write not reported", proto)
		}
		e = newEnv(t, proto)
		e.parallel(2, siteLoop, func(i int, t *Task) {
			t.Write(uintptr(unsafe.Pointer(&p.xy[i])), siteX)
		})
		if r := e.reports(); len(r) != 0 {
			t.Fatalf("%s: disjoint elements reported: %d", proto, len(r))
		}
	}
}

func TestLeavesDoNotAllocate(t *testing.T) {
	e := newEnv(t, "")
	var a [8]int64
	c := e.enter(1, siteLoop)
	k := c.Fork(0)
	RA(k, &a, siteA) // warm the cells and the layout cache
	if n := testing.AllocsPerRun(100, func() { RA(k, &a, siteA); WA(k, &a, siteA) }); n != 0 {
		t.Errorf("RA/WA: %v allocs per run, want 0", n)
	}
	c.Join()
}
