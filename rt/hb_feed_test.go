package rt

import (
	"io"
	"testing"
	"time"
)

// Blocks of a construct a thread entered, against goroutines outside the
// construct (hb_feed.go). Each racy case here was missed before the
// tree's checks went to the happens-before engine: the block's access was
// in the tree's shadow only, the goroutine's in the engine's only.

// TestHBFeedBlockStartsGoroutine is GoBench's istio#8144: a block starts
// a goroutine that writes what the block reads next, with nothing
// between them the engine sees (done is not hooked).
func TestHBFeedBlockStartsGoroutine(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	x := new(int)
	c := Enter(root, 1, 0)
	if c.tree.feedOf() != nil {
		t.Fatal("a construct its thread enters alone is fed")
	}
	bt := c.Fork(0)
	done := make(chan struct{})
	go func() {
		defer close(done)
		wrote := make(chan struct{})
		hbGo(bt, func(g *Task) {
			*W(g, x, 1) = 1
			close(wrote)
		})
		<-wrote
		_ = *R(bt, x, 2)
	}()
	<-done
	if c.tree.feedOf() != root.hb {
		t.Fatal("a block started a thread and its tree is not fed")
	}
	c.Join()
	if n := races(e); n != 1 {
		t.Fatalf("%d races reported, want 1", n)
	}
}

// TestHBFeedThreadAliveAtEntry: a goroutine started before the construct
// and still running races with a block's write. Its thread is alive, so
// the construct is fed from its Enter.
func TestHBFeedThreadAliveAtEntry(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	x := new(int)
	read, stop := make(chan struct{}), make(chan struct{})
	hbGo(root, func(g *Task) {
		_ = *R(g, x, 1)
		close(read)
		<-stop
	})
	<-read
	if Quiescent(root) {
		t.Fatal("quiescent beside a thread that runs")
	}
	c := Enter(root, 2, 0)
	if c.tree.feedOf() != root.hb {
		t.Fatal("a construct entered beside a running thread is not fed")
	}
	runBlocks(c, 2, func(i int, bt *Task) {
		if i == 1 {
			*W(bt, x, 2) = 2
		}
	})
	close(stop)
	if n := races(e); n != 1 {
		t.Fatalf("%d races reported, want 1", n)
	}
}

// TestHBFeedOrdered: in a fed tree, what the engine orders stays
// ordered: a write before the goroutine started, a value received from
// it by a block, a block's write sent to it.
func TestHBFeedOrdered(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	x, y, z := new(int), new(int), new(int)
	*W(root, x, 1) = 1
	toBlock, fromBlock, stop := make(chan int), make(chan int), make(chan struct{})
	hbGo(root, func(g *Task) {
		_ = *R(g, x, 2)
		*W(g, y, 3) = 3
		g.Chan(toBlock)
		toBlock <- 1
		g.Chan(fromBlock)
		<-fromBlock
		g.After()
		_ = *R(g, z, 4)
		<-stop
	})
	c := Enter(root, 2, 0)
	if c.tree.feedOf() == nil {
		t.Fatal("not fed beside a running thread")
	}
	runBlocks(c, 2, func(i int, bt *Task) {
		if i == 0 {
			_ = *R(bt, x, 5)
			return
		}
		bt.Chan(toBlock)
		<-toBlock
		bt.After()
		_ = *R(bt, y, 6)
		*W(bt, z, 7) = 7
		bt.Chan(fromBlock)
		fromBlock <- 1
	})
	close(stop)
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported", n)
	}
}

// runBlocks forks n blocks of c, runs block i as f(i, its task) on a
// goroutine of its own, waits for them all and joins c.
func runBlocks(c *Construct, n int, f func(i int, bt *Task)) {
	done := make(chan struct{}, n)
	for i := range n {
		bt := c.Fork(i)
		go func() {
			defer func() { done <- struct{}{} }()
			f(i, bt)
		}()
	}
	for range n {
		<-done
	}
	c.Join()
}

// TestHBQuiescentAfterEnd: a thread that ended is no obstacle once the
// entering thread follows its last access (a receive here), and stays
// one while it does not.
func TestHBQuiescentAfterEnd(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	x, y := new(int), new(int)
	ch := make(chan int)
	hbGo(root, func(g *Task) {
		*W(g, x, 1) = 1
		g.Chan(ch)
		ch <- 1
	})
	root.Chan(ch)
	<-ch
	root.After()
	waitAlone(t, e, root)
	if !Quiescent(root) {
		t.Fatal("not quiescent after the only other thread ended, its access received")
	}
	hbGo(root, func(g *Task) { *W(g, y, 2) = 2 }) // nothing orders its end
	waitAlone(t, e, root)
	if Quiescent(root) {
		t.Fatal("quiescent though an ended thread's write is not ordered before the entering thread")
	}
}

// waitAlone waits until root's thread is the only live thread of e.
func waitAlone(t *testing.T, e *hbEngine, root *Task) {
	t.Helper()
	for range 2000 {
		e.all.mu.Lock()
		n := 0
		for _, th := range e.all.live {
			if th != nil && th != root.hb {
				n++
			}
		}
		e.all.mu.Unlock()
		if n == 0 {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the other threads did not end")
}

// TestHBFeedNoAllocs: a fed tree's check of a location it checked
// already allocates nothing.
func TestHBFeedNoAllocs(t *testing.T) {
	root, _ := hbTestRoot(t, "", io.Discard)
	c := EnterFed(root, 1, 0)
	bt := c.Fork(0)
	x := new(int)
	*W(bt, x, 1) = 1
	if n := testing.AllocsPerRun(100, func() {
		*W(bt, x, 1) = 2
		_ = *R(bt, x, 2)
	}); n != 0 {
		t.Fatalf("%v allocations per fed check", n)
	}
	c.Join()
}
