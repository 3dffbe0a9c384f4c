package rt

import (
	"io"
	"testing"
)

// A read after the thread's own write of the address in one epoch is a
// repeat: it records nothing (the cell keeps no read entry, so the next
// write does not drop one and the next read does not take the lock
// again), and an unordered write of another goroutine is still reported,
// against the write.
func TestHBReadAfterOwnWriteIsRepeat(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var acc int
	start, done := make(chan bool), make(chan bool) // not hooked: they order nothing the engine sees
	hbGo(root, func(t *Task) {
		<-start
		*W(t, &acc, 3) = 7
		done <- true
	})
	for range 3 {
		*W(root, &acc, 1) = *R(root, &acc, 2) + 1
	}
	_ = *R(root, &acc, 2)
	c := e.cell(root.hb, addrOf(&acc))
	if c.ext.Load() != 0 || c.r.Load() != 0 {
		t.Fatalf("a read after the thread's own write recorded a read entry: r %#x, extension %d", c.r.Load(), c.ext.Load())
	}
	start <- true
	<-done
	if n := races(e); n != 1 {
		t.Fatalf("%d races reported, want 1 (the other goroutine's write against the first's)", n)
	}
}
