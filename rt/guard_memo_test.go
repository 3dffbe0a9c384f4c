package rt

import "testing"

// TestGuardMemo: the first block of an instance to evaluate a callback's
// guard stores the verdict for its siblings; another instance starts
// unknown; a task of no construct stores nothing.
func TestGuardMemo(t *testing.T) {
	if got := GuardMemo(nil); got != -1 {
		t.Fatalf("GuardMemo(nil) = %d, want -1", got)
	}
	if !GuardStore(nil, true) {
		t.Fatal("GuardStore(nil, true) must return true")
	}
	for _, holds := range []bool{true, false} {
		c := Enter(nil, 2, 1)
		a, b := c.Fork(0), c.Fork(1)
		if got := GuardMemo(a); got != -1 {
			t.Fatalf("fresh instance: GuardMemo = %d, want -1", got)
		}
		if GuardStore(a, holds) != holds {
			t.Fatalf("GuardStore(%v) returned the other verdict", holds)
		}
		want := 0
		if holds {
			want = 1
		}
		if got := GuardMemo(b); got != want {
			t.Fatalf("sibling after GuardStore(%v): GuardMemo = %d, want %d", holds, got, want)
		}
		c.Join()
	}
	root := Enter(nil, 1, 1)
	if got := GuardMemo(root.parent); got != -1 {
		t.Fatalf("the parent's task (forked by no construct): GuardMemo = %d, want -1", got)
	}
	root.Join()
}

// BenchmarkGuardMemo is the cost a specialized callback pays per call once
// its instance's verdict is stored.
func BenchmarkGuardMemo(b *testing.B) {
	c := Enter(nil, 1, 1)
	k := c.Fork(0)
	GuardStore(k, true)
	b.ReportAllocs()
	for b.Loop() {
		if GuardMemo(k) != 1 {
			b.Fatal("verdict lost")
		}
	}
	c.Join()
}
