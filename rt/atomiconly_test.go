package rt

import (
	"sync"
	"testing"
)

// TestAtomicOnly: AWOnly and AROnly (memory only atomic operations touch)
// check nothing by default, and check as AW and AR do with atomics=1 or
// while the task holds a lock: the two cases where two atomic accesses are
// reported.
func TestAtomicOnly(t *testing.T) {
	for _, tc := range []struct {
		name, opts string
		locked     bool
		want       int // reports
	}{
		{"default", "", false, 0},
		{"atomics=1", "atomics=1", false, 1},
		{"locked", "", true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.opts)
			c := e.enter(2, siteLoop)
			a, b := c.Fork(0), c.Fork(1)
			var n int64
			var mu sync.Mutex
			for _, tk := range []*Task{a, b} {
				if tc.locked {
					tk.Acquire(&mu)
				}
				AWOnly(tk, &n, siteA)
				AROnly(tk, &n, siteX)
				if tc.locked {
					tk.Release(&mu)
				}
			}
			if cells := a.sh.cells.Load(); (cells == 0) != (tc.want == 0) {
				t.Fatalf("the shadow holds %d cells: want none exactly when nothing is checked", cells)
			}
			c.Join()
			if got := len(e.reports()); (got > 0) != (tc.want > 0) {
				t.Fatalf("%d reports, want %d", got, tc.want)
			}
			if tc.want > 0 && e.reports()[0].class != nondet {
				t.Fatalf("class %v, want NONDETERMINISM", e.reports()[0].class)
			}
		})
	}
}
