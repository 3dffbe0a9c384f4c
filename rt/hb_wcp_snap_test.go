package rt

import (
	"io"
	"sync"
	"testing"
)

// TestHBWCPSnapLongReader: a read section held while more than hbLogKeep
// other read sections come and go is the log's front when it ends, so
// its release leaves the log at once. Its snapshot is held by nothing
// then (a read section's accesses go to rtab, joined), and must go back
// to the free list once: twice made the list a cycle, and two later
// releases shared one snapshot, the second overwriting the first's H
// while the log still held it.
func TestHBWCPSnapLongReader(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var rw sync.RWMutex
	var y int
	held, done := make(chan struct{}), make(chan struct{})
	hbGo(root, func(t *Task) {
		defer close(done)
		t.RAcquire(&rw)
		_ = *R(t, &y, 1)
		held <- struct{}{}
		<-held
		t.RRelease(&rw)
	})
	<-held
	for range hbLogKeep + 2 {
		root.RAcquire(&rw)
		_ = *R(root, &y, 2)
		root.RRelease(&rw)
	}
	held <- struct{}{}
	<-done
	l := e.lockOf(addrOf(&rw))
	seen := map[*hbSnap]bool{}
	for s := l.snaps.free; s != nil; s = s.next {
		if seen[s] {
			t.Fatalf("a snapshot is on the free list twice (after %d)", len(seen))
		}
		seen[s] = true
	}
	for s := l.log.base; s < l.log.end(); s++ {
		if r := l.log.at(s).rel; r != nil && seen[r] {
			t.Fatalf("section %d's snapshot is held by the log and free", s)
		}
	}
}

// TestHBWCPSnapLongReaderVerdict is what the doubly freed snapshot did.
// L and L2 hold read sections while D makes more than hbLogKeep; L's
// release then freed its snapshot twice, and L2, still open at the log's
// front, keeps later releases from giving any back. A writes x in a read
// section it began before telling the root, which takes the write lock
// (so after A's and L2's RUnlock) and reads x: no race in any schedule
// (go run -race agrees). Rule (b) orders A's release before the root's
// through A's log entry, whose snapshot D's next read section and L2's
// release took again and overwrote with their H, which does not hold
// A's write: a false report.
func TestHBWCPSnapLongReaderVerdict(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var rw sync.RWMutex
	var x, y int
	long := func(step chan struct{}) {
		hbGo(root, func(t *Task) {
			t.RAcquire(&rw)
			_ = *R(t, &y, 1)
			step <- struct{}{}
			<-step
			t.RRelease(&rw)
			step <- struct{}{}
		})
		<-step
	}
	l1, l2 := make(chan struct{}), make(chan struct{})
	long(l1)
	long(l2)
	hbThen(root, func(t *Task) { // D
		for range hbLogKeep {
			t.RAcquire(&rw)
			_ = *R(t, &y, 2)
			t.RRelease(&rw)
		}
	})
	l1 <- struct{}{}
	<-l1
	ch := make(chan int, 1)
	hbThen(root, func(t *Task) { // A
		t.RAcquire(&rw)
		t.Chan(ch)
		ch <- 1
		*W(t, &x, 3) = 1
		t.RRelease(&rw)
	})
	hbThen(root, func(t *Task) { // D'
		t.RAcquire(&rw)
		_ = *R(t, &y, 4)
		t.RRelease(&rw)
	})
	l2 <- struct{}{}
	<-l2
	root.Chan(ch)
	<-ch
	root.Acquire(&rw)
	root.Release(&rw)
	_ = *R(root, &x, 5)
	wantRaces(t, e, 0)
}
