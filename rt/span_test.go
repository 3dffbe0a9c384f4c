package rt

import (
	"slices"
	"testing"
	"unsafe"
)

// TestSpanClamped: a span checks exactly the elements of s[lo:hi] that lie
// in [0, len(s)): a concurrent write of every element of s is reported at
// those addresses and no other, for reads and writes, in both protocols.
func TestSpanClamped(t *testing.T) {
	cases := [][2]int{{0, 8}, {2, 5}, {-3, 2}, {6, 20}, {-1, 9}, {4, 4}, {5, 2}, {-5, -1}, {8, 12}}
	for _, proto := range []string{"protocol=waitfree", "protocol=locked"} {
		for _, write := range []bool{false, true} {
			for _, c := range cases {
				e := newEnv(t, proto)
				s := make([]int64, 8)
				e.parallel(2, siteLoop, func(i int, t *Task) {
					if i == 1 {
						for k := range s {
							W(t, &s[k], siteX)
						}
						return
					}
					if write {
						WriteSpan(t, s, c[0], c[1], siteA)
					} else {
						ReadSpan(t, s, c[0], c[1], siteA)
					}
				})
				var got, want []uintptr
				for _, r := range e.reports() {
					if !slices.Contains(got, r.addr) {
						got = append(got, r.addr)
					}
				}
				for k := max(c[0], 0); k < min(c[1], len(s)); k++ {
					want = append(want, uintptr(unsafe.Pointer(&s[k])))
				}
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("%s write=%v s[%d:%d] of 8: reported %d addresses, want %d", proto, write, c[0], c[1], len(got), len(want))
				}
			}
		}
	}
}

// TestSpanNilTask: outside any construct a span checks nothing and does
// not touch s.
func TestSpanNilTask(t *testing.T) {
	var s []float64
	ReadSpan(nil, s, 0, 10, siteA)
	WriteSpan(nil, []int{1, 2}, -1, 5, siteA)
}

func TestSpanDoesNotAllocate(t *testing.T) {
	e := newEnv(t, "")
	s := make([]float64, 64)
	c := e.enter(1, siteLoop)
	k := c.Fork(0)
	WriteSpan(k, s, 0, len(s), siteA) // warm the cells
	if n := testing.AllocsPerRun(100, func() {
		ReadSpan(k, s, 0, len(s), siteA)
		WriteSpan(k, s, 3, 70, siteA)
		_ = SameOrApart(s[:10], s[10:])
	}); n != 0 {
		t.Errorf("ReadSpan/WriteSpan/SameOrApart: %v allocs per run, want 0", n)
	}
	c.Join()
}

func TestSameOrApart(t *testing.T) {
	a := make([]int, 10)
	b := make([]int, 10)
	type F int
	cases := []struct {
		x, y []int
		want bool
	}{
		{a, a, true},
		{a, a[:3], true},
		{a, b, true},
		{a[:5], a[5:], true},
		{a[:5], a[4:], false},
		{a[1:], a, false},
		{a, a[9:], false},
		{a[:0], a[:4], true},
		{nil, a, true},
	}
	for k, c := range cases {
		if got := SameOrApart(c.x, c.y); got != c.want {
			t.Errorf("case %d: SameOrApart = %v, want %v", k, got, c.want)
		}
		if got := SameOrApart(c.y, c.x); got != c.want {
			t.Errorf("case %d swapped: SameOrApart = %v, want %v", k, got, c.want)
		}
	}
	if !SameOrApart(a, []F{1}) || SameOrApart(a[2:], unsafe.Slice((*F)(unsafe.Pointer(&a[0])), 5)) {
		t.Error("SameOrApart of two element types")
	}
}
