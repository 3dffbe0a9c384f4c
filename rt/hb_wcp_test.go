package rt

import (
	"io"
	"sync"
	"testing"
)

// The weak-causally-precedes rule for lock hand-offs (hb_wcp.go) with real
// goroutines. A channel that no hook sees (after) only makes the schedule:
// the child's part runs first, then the root's, and nothing but the
// hooked synchronization orders them.

// hbThen runs first on a child thread of root, and returns once it did.
func hbThen(root *Task, first func(t *Task)) {
	after := make(chan struct{})
	hbGo(root, func(t *Task) {
		defer close(after)
		first(t)
	})
	<-after
}

// wantRaces fails t unless e reported n races.
func wantRaces(t *testing.T, e *hbEngine, n int) {
	t.Helper()
	if got := races(e); got != n {
		t.Fatalf("%d races reported, want %d", got, n)
	}
}

// TestHBWCPHiddenMutex is the race an unrelated mutex hides: the child
// writes x, then holds mu touching y; the root holds mu touching z, then
// reads x. -race (and -hb before the rule) orders the write before the
// read through the hand-off; the sections do not conflict, so the read
// could have come first.
func TestHBWCPHiddenMutex(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var mu sync.Mutex
	var x, y, z int
	hbThen(root, func(t *Task) {
		*W(t, &x, 1) = 1
		t.Acquire(&mu)
		*W(t, &y, 2) = 1
		t.Release(&mu)
	})
	root.Acquire(&mu)
	*W(root, &z, 3) = 1
	root.Release(&mu)
	_ = *R(root, &x, 4)
	wantRaces(t, e, 1)
}

// TestHBWCPEscapedCloseKeepsHandOffWeak is TestHBWCPHiddenMutex with a
// close of an escaped channel (a release to G that no acquire follows)
// between the root's section and its read: the close does not order the
// root after what its H holds through the hand-off, so the read still
// races with the write. The release to G joined H into the root's check
// clock at once, as only a Foreign, whose acquire of G follows, may
// (seed 25367 of TestHBAgainstOracle).
func TestHBWCPEscapedCloseKeepsHandOffWeak(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var mu sync.Mutex
	var x, y, z int
	ch := make(chan int)
	root.Escape(ch)
	hbThen(root, func(t *Task) {
		*W(t, &x, 1) = 1
		t.Acquire(&mu)
		*W(t, &y, 2) = 1
		t.Release(&mu)
	})
	root.Acquire(&mu)
	*W(root, &z, 3) = 1
	root.Release(&mu)
	root.ChanClose(ch)
	_ = *R(root, &x, 4)
	wantRaces(t, e, 1)
}

// TestHBWCPConflictOrders is the same schedule with sections that
// conflict (the child writes y, the root reads it): the root's section
// could not have come first, and the read of x follows the write.
func TestHBWCPConflictOrders(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var mu sync.Mutex
	var x, y int
	hbThen(root, func(t *Task) {
		*W(t, &x, 1) = 1
		t.Acquire(&mu)
		*W(t, &y, 2) = 1
		t.Release(&mu)
	})
	root.Acquire(&mu)
	_ = *R(root, &y, 3)
	root.Release(&mu)
	_ = *R(root, &x, 4)
	wantRaces(t, e, 0)
}

// TestHBWCPRepeatInSection: the child writes x before its section and
// again in it, in what would be one epoch but for the acquire's tick. The
// write in the section must reach the lock's table, or the root's read
// under the lock would look unordered.
func TestHBWCPRepeatInSection(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var mu sync.Mutex
	var x int
	hbThen(root, func(t *Task) {
		*W(t, &x, 1) = 1
		t.Acquire(&mu)
		*W(t, &x, 2) = 2
		t.Release(&mu)
	})
	root.Acquire(&mu)
	_ = *R(root, &x, 3)
	root.Release(&mu)
	wantRaces(t, e, 0)
}

// TestHBWCPNestedRelease is rule (b): the root's section of m reads what
// the child's section of m wrote inside its section of l, so the root's
// later section of l cannot come before the child's, and y, written in the
// child's section of l after m, is read after the root's. Without rule (b)
// nothing orders y.
func TestHBWCPNestedRelease(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var l, m sync.Mutex
	var x, y int
	hbThen(root, func(t *Task) {
		t.Acquire(&l)
		t.Acquire(&m)
		*W(t, &x, 1) = 1
		t.Release(&m)
		*W(t, &y, 2) = 1
		t.Release(&l)
	})
	root.Acquire(&m)
	_ = *R(root, &x, 3)
	root.Release(&m)
	root.Acquire(&l)
	root.Release(&l)
	_ = *R(root, &y, 4)
	wantRaces(t, e, 0)
}

// TestHBWCPRWMutex: a read section and a write section conflict through
// the lock only when what they access does.
func TestHBWCPRWMutex(t *testing.T) {
	for _, conflict := range []bool{false, true} {
		root, e := hbTestRoot(t, "", io.Discard)
		var rw sync.RWMutex
		var x, y, z int
		hbThen(root, func(t *Task) {
			*W(t, &x, 1) = 1
			t.RAcquire(&rw)
			_ = *R(t, &y, 2)
			t.RRelease(&rw)
		})
		root.Acquire(&rw)
		if conflict {
			*W(root, &y, 3) = 1
		} else {
			*W(root, &z, 3) = 1
		}
		root.Release(&rw)
		_ = *R(root, &x, 4)
		want := 1
		if conflict {
			want = 0
		}
		wantRaces(t, e, want)
	}
}

// TestHBWCPTryLock: a section TryLock began is one as Lock's are.
func TestHBWCPTryLock(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var mu sync.Mutex
	var x, y, z int
	hbThen(root, func(t *Task) {
		*W(t, &x, 1) = 1
		if !t.TryAcquire(&mu) {
			panic("TryLock of a free mutex failed")
		}
		*W(t, &y, 2) = 1
		t.Release(&mu)
	})
	if !root.TryAcquire(&mu) {
		t.Fatal("TryLock of a free mutex failed")
	}
	*W(root, &z, 3) = 1
	root.Release(&mu)
	_ = *R(root, &x, 4)
	wantRaces(t, e, 1)
}

// TestHBWCPOpaque: a section that calls code whose accesses are not seen
// (Foreign, Unseen) may conflict with any other: its hand-offs order
// fully, whichever side makes the call.
func TestHBWCPOpaque(t *testing.T) {
	for _, tc := range []struct {
		name        string
		child, root func(t *Task)
	}{
		{"child Foreign", (*Task).Foreign, func(*Task) {}},
		{"child Unseen", (*Task).Unseen, func(*Task) {}},
		{"root Foreign", func(*Task) {}, (*Task).Foreign},
		{"root Unseen", func(*Task) {}, (*Task).Unseen},
	} {
		root, e := hbTestRoot(t, "", io.Discard)
		var mu sync.Mutex
		var x int
		hbThen(root, func(t *Task) {
			*W(t, &x, 1) = 1
			t.Acquire(&mu)
			tc.child(t)
			t.Release(&mu)
		})
		root.Acquire(&mu)
		tc.root(root)
		root.Release(&mu)
		_ = *R(root, &x, 2)
		if n := races(e); n != 0 {
			t.Errorf("%s: %d races reported", tc.name, n)
		}
	}
}

// TestHBWCPOpaqueAfterCall: what a section writes after a call into code
// that is not rewritten is ordered before the next section too (G holds
// only what came before the call).
func TestHBWCPOpaqueAfterCall(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var mu sync.Mutex
	var x int
	hbThen(root, func(t *Task) {
		t.Acquire(&mu)
		t.Foreign()
		*W(t, &x, 1) = 1
		t.Release(&mu)
	})
	root.Acquire(&mu)
	root.Release(&mu)
	_ = *R(root, &x, 2)
	wantRaces(t, e, 0)
}

// TestHBWCPReleaseToG: a release to the global clock G (here the close of
// an escaped channel, which acquires nothing) orders the thread's own
// earlier events, the lock hand-offs they follow included, before its
// later ones only from its next acquire of G on. The root's section of mu
// follows the child's, which wrote x before it and accessed nothing in it,
// so the hand-off orders nothing (TestHBWCPHiddenMutex); the close then
// releases to G, and the read of x, which no acquire of G precedes, still
// races. The close used to join the root's whole happens-before clock
// into its check clock at once, as if it had taken G back already, and the
// race was missed (TestHBAgainstOracle, seed 25367, minimized). A Lock of
// another mutex after the close takes G, and with it the hand-off: no
// race.
func TestHBWCPReleaseToG(t *testing.T) {
	for _, tc := range []struct {
		name  string
		then  func(t *Task, other *sync.Mutex)
		races int
	}{
		{"close", func(*Task, *sync.Mutex) {}, 1},
		{"close, Lock", func(t *Task, other *sync.Mutex) { t.Acquire(other); t.Release(other) }, 0},
	} {
		root, e := hbTestRoot(t, "", io.Discard)
		var mu, other sync.Mutex
		var x int
		ch := make(chan int)
		hbThen(root, func(t *Task) {
			*W(t, &x, 1) = 1
			t.Acquire(&mu)
			t.Release(&mu)
		})
		root.Escape(ch)
		root.Acquire(&mu)
		root.Release(&mu)
		root.ChanClose(ch)
		close(ch)
		tc.then(root, &other)
		_ = *R(root, &x, 2)
		if n := races(e); n != tc.races {
			t.Errorf("%s: %d races reported, want %d", tc.name, n, tc.races)
		}
	}
}

// TestHBWCPHardLock: a lock that a goroutine which is no thread takes
// (its section is unseen), or that is unlocked by a thread that did not
// lock it, orders fully from then on.
func TestHBWCPHardLock(t *testing.T) {
	for _, how := range []string{"unseen", "cross-unlock"} {
		root, e := hbTestRoot(t, "", io.Discard)
		var mu sync.Mutex
		var x int
		switch how {
		case "unseen":
			e.lockUnseen(addrOf(&mu))
		case "cross-unlock":
			root.Acquire(&mu)
			hbThen(root, func(t *Task) { t.Release(&mu) })
		}
		if !e.lockOf(addrOf(&mu)).hard {
			t.Fatalf("%s: the lock is not hard", how)
		}
		hbThen(root, func(t *Task) {
			*W(t, &x, 1) = 1
			t.Acquire(&mu)
			t.Release(&mu)
		})
		root.Acquire(&mu)
		root.Release(&mu)
		_ = *R(root, &x, 2)
		if n := races(e); n != 0 {
			t.Errorf("%s: %d races reported", how, n)
		}
	}
}

// TestHBWCPBlockLock: a lock a construct's block takes orders fully: the
// block's accesses are checked structurally, not seen by the rule.
func TestHBWCPBlockLock(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var mu sync.Mutex
	var x int
	c := Enter(root, 1, 0)
	bt := c.Fork(0)
	bt.Acquire(&mu)
	bt.Release(&mu)
	c.Join()
	if !e.lockOf(addrOf(&mu)).hard {
		t.Fatal("a block's lock is not hard")
	}
	hbThen(root, func(t *Task) {
		*W(t, &x, 1) = 1
		t.Acquire(&mu)
		t.Release(&mu)
	})
	root.Acquire(&mu)
	root.Release(&mu)
	_ = *R(root, &x, 2)
	wantRaces(t, e, 0)
}

// TestHBWCPCondWait: a value written before a Broadcast made under the
// lock is read after Wait returns; Wait's relock follows fully.
func TestHBWCPCondWait(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	var msg, done int
	hbGo(root, func(t *Task) {
		*W(t, &msg, 1) = 1
		t.Acquire(&mu)
		*W(t, &done, 2) = 1
		t.SyncRelease(c)
		c.Broadcast()
		t.Release(&mu)
	})
	root.Acquire(&mu)
	for *R(root, &done, 3) == 0 {
		CondOp(root, c).Wait()
		root.After()
	}
	root.Release(&mu)
	_ = *R(root, &msg, 4)
	wantRaces(t, e, 0)
}

// TestHBWCPPolledFlag is lock-based message passing with real scheduling:
// data written before a flag set under the lock, the flag polled under it.
func TestHBWCPPolledFlag(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var mu sync.Mutex
	var data, ready int
	hbGo(root, func(t *Task) {
		*W(t, &data, 1) = 7
		t.Acquire(&mu)
		*W(t, &ready, 2) = 1
		t.Release(&mu)
	})
	for {
		root.Acquire(&mu)
		r := *R(root, &ready, 3)
		root.Release(&mu)
		if r != 0 {
			break
		}
	}
	_ = *R(root, &data, 4)
	wantRaces(t, e, 0)
}

// TestHBWCPMethodValue: Lock and Unlock called through method values are
// the same sections as direct calls.
func TestHBWCPMethodValue(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var mu sync.Mutex
	var x, y int
	lock, unlock := SyncValue(&mu, mu.Lock, true), SyncValue(&mu, mu.Unlock, false)
	hbThen(root, func(t *Task) {
		*W(t, &x, 1) = 1
		lock()
		*W(t, &y, 2) = 1
		unlock()
	})
	root.Acquire(&mu)
	_ = *R(root, &y, 3)
	root.Release(&mu)
	_ = *R(root, &x, 4)
	wantRaces(t, e, 0)
}

// TestHBWCPSectionNoAllocs: the checks of an access in a section allocate
// nothing once the section's buffer has grown.
func TestHBWCPSectionNoAllocs(t *testing.T) {
	root, _ := hbTestRoot(t, "", io.Discard)
	var mu sync.Mutex
	x := New(nil, new([2]int))
	root.Acquire(&mu)
	defer root.Release(&mu)
	ch := make(chan int)
	check := func() {
		root.Chan(ch) // a new epoch each time: the accesses are no repeats
		root.Write(addrOf(&x[0]), 1)
		root.Read(addrOf(&x[1]), 2)
	}
	for range 150 {
		check() // the section's list of accesses grows to 512
	}
	if n := testing.AllocsPerRun(100, check); n != 0 {
		t.Fatalf("%v allocations per check in a section", n)
	}
}

// TestHBWCPRLocker: an RWMutex's RLocker takes read sections. Two that
// overlap both read y and a later write section writes it: each read's
// release orders the write (neither may be lost to the other's).
func TestHBWCPRLocker(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var rw sync.RWMutex
	rl := rw.RLocker()
	var x1, x2, y int
	aIn, bDone, aGo := make(chan struct{}), make(chan struct{}), make(chan struct{})
	aDone := make(chan struct{})
	hbGo(root, func(t *Task) {
		defer close(aDone)
		*W(t, &x1, 1) = 1
		t.Acquire(rl)
		_ = *R(t, &y, 2)
		close(aIn)
		<-aGo
		t.Release(rl)
	})
	<-aIn
	hbGo(root, func(t *Task) {
		defer close(bDone)
		*W(t, &x2, 3) = 1
		t.Acquire(rl)
		_ = *R(t, &y, 4)
		t.Release(rl)
	})
	<-bDone
	close(aGo)
	<-aDone
	root.Acquire(&rw)
	*W(root, &y, 5) = 1
	root.Release(&rw)
	_ = *R(root, &x1, 6)
	_ = *R(root, &x2, 7)
	wantRaces(t, e, 0)
	if e.lockOf(addrOf(&rw)).hard {
		t.Fatal("RLocker made the lock hard")
	}
}

// spinLock is a Locker that is no mutex of package sync.
type spinLock struct{ held chan struct{} }

func (s spinLock) Lock()   { s.held <- struct{}{} }
func (s spinLock) Unlock() { <-s.held }

// TestHBWCPOtherLocker: a Locker the rule does not know orders fully.
func TestHBWCPOtherLocker(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	l := spinLock{make(chan struct{}, 1)}
	var x int
	hbThen(root, func(t *Task) {
		*W(t, &x, 1) = 1
		t.Acquire(l)
		t.Release(l)
	})
	root.Acquire(l)
	root.Release(l)
	_ = *R(root, &x, 2)
	wantRaces(t, e, 0)
}

// TestHBWCPLongLog runs a lock past its log's length: two threads take it
// in turn 200 times (a counter, so every hand-off conflicts); the hidden
// race after it is still found, by the root and by a third thread that
// takes the lock for the first time, behind the log's front (it takes
// every section that left the log as ordered, the ones after as the rule
// says: the counter orders all but the last, which wrote y).
func TestHBWCPLongLog(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var mu sync.Mutex
	var n, x, y, z int
	turn := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	done, cGo, cDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	hbGo(root, func(t *Task) { // the third thread, started before it all
		defer close(cDone)
		<-cGo
		t.Acquire(&mu)
		_ = *R(t, &n, 7)
		t.Release(&mu)
		_ = *R(t, &x, 8)
	})
	hbGo(root, func(t *Task) {
		defer close(done)
		for range 100 {
			<-turn[0]
			t.Acquire(&mu)
			*RW(t, &n, 1)++
			t.Release(&mu)
			turn[1] <- struct{}{}
		}
		<-turn[0]
		*W(t, &x, 2) = 1
		t.Acquire(&mu)
		*W(t, &y, 3) = 1
		t.Release(&mu)
	})
	for range 100 {
		turn[0] <- struct{}{}
		<-turn[1]
		root.Acquire(&mu)
		*RW(root, &n, 4)++
		root.Release(&mu)
	}
	turn[0] <- struct{}{}
	<-done
	if l := e.lockOf(addrOf(&mu)); l.log.base == 0 || l.hard {
		t.Fatalf("the log kept every section (front %d) or the lock is hard", l.log.base)
	}
	root.Acquire(&mu)
	*W(root, &z, 5) = 1
	root.Release(&mu)
	_ = *R(root, &x, 6)
	wantRaces(t, e, 1)
	close(cGo)
	<-cDone
	wantRaces(t, e, 2)
}

// TestHBEscapePublishesEarlierSends: the child writes x and sends on ch
// before the root hands ch to code that is not rewritten (Escape), which
// receives it and returns (Foreign, After): the receive there follows
// the send through G only, so Escape must publish to G what was released
// to ch before it, not only its later releases (testdata/review19/fanin:
// a producer started before reflect.ValueOf(ch) reached reflect.Select).
func TestHBEscapePublishesEarlierSends(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var x int
	ch := make(chan int, 1)
	hbThen(root, func(t *Task) {
		*W(t, &x, 1) = 1
		t.ChanSend(ch)
		t.After()
	})
	root.Escape(ch)
	root.Foreign()
	root.After()
	_ = *R(root, &x, 2)
	wantRaces(t, e, 0)
}

// TestHBEscapedInFindsFieldChannels: EscapedIn escapes the channels a
// value holds in fields, an unexported one behind a pointer too, so what a
// thread sent on them before reaches G (escapeObj), and an array's.
func TestHBEscapedInFindsFieldChannels(t *testing.T) {
	type inner struct{ c chan int }
	type cfg struct {
		in  *inner
		arr [2]chan int
		n   int
	}
	root, e := hbTestRoot(t, "", io.Discard)
	var x, y int
	c := cfg{in: &inner{c: make(chan int, 1)}, arr: [2]chan int{nil, make(chan int, 1)}}
	hbThen(root, func(t *Task) {
		*W(t, &x, 1) = 1
		t.ChanSend(c.in.c)
		t.After()
		*W(t, &y, 2) = 1
		t.ChanSend(c.arr[1])
		t.After()
	})
	if got := EscapedIn(root, c); got.in != c.in {
		t.Fatal("EscapedIn did not return its argument")
	}
	root.Foreign()
	root.After()
	_ = *R(root, &x, 3)
	_ = *R(root, &y, 4)
	wantRaces(t, e, 0)
}
