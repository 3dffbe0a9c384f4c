package rt

import (
	"io"
	"testing"
)

// Each typed Spawned starts its function on a thread of its own, with the
// go statement's arguments and the spawn last, and gives a nil function
// for a nil one (the go statement, which has arguments, then panics in
// the new goroutine, as the original).
func TestSpawnedTyped(t *testing.T) {
	root, _ := hbTestRoot(t, "", io.Discard)
	type got struct {
		sum    int
		thread bool
	}
	res := make(chan got)
	report := func(sum int) { res <- got{sum, HB() != nil && HB() != root} }
	starts := []func(){
		func() { go Spawned1(func(a int) { report(a) })(1, root.Go()) },
		func() { go Spawned2(func(a, b int) { report(a + b) })(1, 2, root.Go()) },
		func() { go Spawned3(func(a, b, c int) { report(a + b + c) })(1, 2, 3, root.Go()) },
		func() { go Spawned4(func(a, b, c, d int) { report(a + b + c + d) })(1, 2, 3, 4, root.Go()) },
		func() { go Spawned0R(func() error { report(0); return nil })(root.Go()) },
		func() { go Spawned1R(func(a int) int { report(a); return a })(1, root.Go()) },
		func() { go Spawned2R(func(a, b int) int { report(a + b); return 0 })(1, 2, root.Go()) },
		func() { go Spawned3R(func(a, b, c int) int { report(a + b + c); return 0 })(1, 2, 3, root.Go()) },
		func() {
			go Spawned4R(func(a, b, c, d int) int { report(a + b + c + d); return 0 })(1, 2, 3, 4, root.Go())
		},
	}
	want := []int{1, 3, 6, 10, 0, 1, 3, 6, 10}
	for i, start := range starts {
		start()
		if g := <-res; g.sum != want[i] || !g.thread {
			t.Errorf("start %d: sum %d on a thread %v, want %d on a thread", i, g.sum, g.thread, want[i])
		}
	}
	if Spawned2[int, int](nil) != nil || Spawned2R[int, int, int](nil) != nil {
		t.Error("a nil function did not stay nil")
	}
}
