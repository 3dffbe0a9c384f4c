//go:build unix && !race && (amd64 || arm64 || ppc64 || ppc64le || riscv64 || s390x || loong64 || mips64 || mips64le)

package rt

import (
	"errors"
	"io"
	"testing"
)

// TestHBMemFailedMapNotRetried: once the system refuses a mapping, the
// shadow's memory comes from the Go heap without asking again (each new
// record retried a 16 MB mmap under the memory mutex), and races are
// still found there.
func TestHBMemFailedMapNotRetried(t *testing.T) {
	calls := 0
	defer func(f func(int) ([]byte, error)) { hbMmap = f }(hbMmap)
	hbMmap = func(int) ([]byte, error) { calls++; return nil, errors.New("no memory") }
	root, e := hbTestRoot(t, "", io.Discard)
	for range 3 {
		if p := e.mem.alloc(e, 4096); p != nil {
			t.Fatalf("alloc returned %p after a failed mapping, want nil (the caller takes the Go heap)", p)
		}
	}
	xs := New(nil, new([64]int64))
	done := make(chan struct{})
	hbGo(root, func(k *Task) {
		for i := range xs {
			k.Write(addrOf(&xs[i]), 1)
		}
		close(done)
	})
	<-done // not hooked: unordered
	for i := range xs {
		root.Read(addrOf(&xs[i]), 2)
	}
	if calls != 1 {
		t.Errorf("%d mappings asked for, want 1", calls)
	}
	if n := races(e); n == 0 {
		t.Errorf("no race found in a shadow on the Go heap")
	}
}

// TestHBMemLargeRefusalKeepsMappings: a refused block larger than a
// mapping (a region table's, say) does not send the small blocks to the
// Go heap.
func TestHBMemLargeRefusalKeepsMappings(t *testing.T) {
	defer func(f func(int) ([]byte, error)) { hbMmap = f }(hbMmap)
	real := hbMmap
	hbMmap = func(n int) ([]byte, error) {
		if n > hbMapSize {
			return nil, errors.New("too large")
		}
		return real(n)
	}
	e := &hbEngine{}
	if p := e.mem.alloc(e, hbMapSize+1); p != nil {
		t.Fatalf("a refused large block returned %p", p)
	}
	if p := e.mem.alloc(e, 4096); p == nil {
		t.Fatal("a small block after a refused large one came from no mapping")
	}
}
