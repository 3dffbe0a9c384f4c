package rt

import (
	"testing"
	"unsafe"
)

// TestItemOfOnlyTheDrainedChannel: a worker marked as draining ch starts an
// item at each ItemOf(ch), so two receives of one worker are concurrent; a
// receive from another channel, or by a task never marked, stays in its
// block and reports nothing.
func TestItemOfOnlyTheDrainedChannel(t *testing.T) {
	ch, other := make(chan int), make(chan int)
	var ro <-chan int = ch // another direction, the same channel
	for _, tc := range []struct {
		name   string
		mark   any
		ranged any
		want   bool
	}{
		{"drained", ch, ro, true},
		{"other channel", ch, other, false},
		{"not marked", nil, ch, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, "")
			var x int64
			a := uintptr(unsafe.Pointer(&x))
			c := e.enter(1, sitePool)
			w := c.Fork(0)
			if tc.mark != nil {
				w.Drains(tc.mark)
			}
			w.ItemOf(tc.ranged)
			w.Write(a, 1)
			w.ItemOf(tc.ranged)
			w.Write(a, 2)
			w.EndItemsOf(tc.ranged)
			w.Write(a, 3)
			if w.inItems {
				t.Fatalf("still in items after EndItemsOf")
			}
			c.Join()
			if got := len(e.reports()) > 0; got != tc.want {
				t.Fatalf("reported %v, want %v: %+v", got, tc.want, e.reports())
			}
		})
	}
}

// TestItemOfDoesNotAllocate: the calls a callback's range makes per item.
func TestItemOfDoesNotAllocate(t *testing.T) {
	e := newEnv(t, "")
	ch := make(chan int)
	c := e.enter(1, sitePool)
	w := c.Fork(0)
	w.Drains(ch)
	if n := testing.AllocsPerRun(100, func() { w.ItemOf(ch); w.EndItemsOf(ch) }); n != 0 {
		t.Fatalf("ItemOf allocates %v per run", n)
	}
	c.Join()
}
