package rt

import (
	"io"
	"testing"
)

// Tests of the callbacks' threads (hb_callbacks.go) and of AcquireAll
// (hb_all.go). A callback runs on a goroutine of the test's own making,
// as the runtime runs it on one of its own: not a thread until the
// wrapper makes it one, and ordered with the test by nothing the engine
// sees (a plain channel).

// hbRegisteredRoot is hbTestRoot with the root registered, as HBRoot
// registers the program's roots.
func hbRegisteredRoot(t *testing.T) (*Task, *hbEngine) {
	root, e := hbTestRoot(t, "", io.Discard)
	e.register(root.hb, false)
	return root, e
}

// onRuntimeGoroutine calls f on a new goroutine and waits for it, the way
// no hook sees.
func onRuntimeGoroutine(f func()) {
	done := make(chan bool)
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

func TestHBFinalizerFollowsEveryThread(t *testing.T) {
	root, e := hbRegisteredRoot(t)
	var x, y int
	*W(root, &x, 1) = 1 // the root's own write, before the finalizer
	exited := make(chan bool)
	hbGo(root, func(g *Task) {
		*W(g, &y, 2) = 2 // a goroutine's write, then its end, which releases nothing
		exited <- true
	})
	<-exited // not hooked: the root does not follow the goroutine
	fin := hbAsyncFunc(e, func(p *int) {
		th := HB()
		if th == nil {
			t.Error("the finalizer runs on no thread")
			return
		}
		*W(th, &x, 3) = 3
		*W(th, p, 4) = 4
	}, false, 0)
	onRuntimeGoroutine(func() { fin(&y) })
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported between a finalizer and what ran before it", n)
	}
	*W(root, &x, 5) = 5 // the finalizer's write is not ordered before this one
	if n := races(e); n != 1 {
		t.Fatalf("%d races reported between a finalizer and the root after it, want 1", n)
	}
}

func TestHBFinalizersFollowEachOther(t *testing.T) {
	_, e := hbRegisteredRoot(t)
	var x int
	fin := hbAsyncFunc(e, func(p *int) { *W(HB(), p, 1)++ }, false, 0)
	onRuntimeGoroutine(func() { fin(&x) })
	onRuntimeGoroutine(func() { fin(&x) })
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported between two finalizers, which run one after another", n)
	}
}

func TestHBCleanupsRace(t *testing.T) {
	root, e := hbRegisteredRoot(t)
	var x int
	*W(root, &x, 1) = 1
	cleanup := hbCleanupFunc(e, func(v int) { *W(HB(), &x, 2) = v }, 0)
	onRuntimeGoroutine(func() { cleanup(1) })
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported between a cleanup and the root before it", n)
	}
	onRuntimeGoroutine(func() { cleanup(2) })
	if n := races(e); n != 1 {
		t.Fatalf("%d races reported between two cleanups, which may run concurrently, want 1", n)
	}
}

func TestHBLaterBeginsAtTheCall(t *testing.T) {
	root, e := hbRegisteredRoot(t)
	var x, y int
	*W(root, &x, 1) = 1 // before the registration: ordered
	f := hbLaterFunc(root, func() {
		th := HB()
		*W(th, &x, 2) = 2
		*W(th, &y, 3) = 3
	}, 0)
	*W(root, &y, 4) = 4 // after it: unordered with the callback
	onRuntimeGoroutine(f)
	if n := races(e); n != 1 {
		t.Fatalf("%d races reported, want 1 (y, written after the registration)", n)
	}
	if HB() != root {
		t.Fatal("the root lost its thread to the callback")
	}
}

func TestHBLaterFollowsGlobalRelease(t *testing.T) {
	root, e := hbRegisteredRoot(t)
	var x int
	f := hbLaterFunc(root, func() { *W(HB(), &x, 1) = 1 }, 0)
	*W(root, &x, 2) = 2
	root.Foreign() // a Timer's Reset: released to G, which the run acquires
	onRuntimeGoroutine(f)
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported after a release to G before the run", n)
	}
}

func TestHBLaterNoThread(t *testing.T) {
	f := func() {}
	if g := hbLaterFunc[func()](nil, f, 0); g == nil || HB() != nil {
		t.Fatal("Later with no thread")
	}
}

func TestHBAcquireAllFollowsEndedAndLive(t *testing.T) {
	root, e := hbRegisteredRoot(t)
	var x, y int
	exited := make(chan bool)
	hbGo(root, func(g *Task) {
		*W(g, &x, 1) = 1
		exited <- true // unhooked; the goroutine then ends
	})
	<-exited
	parked := make(chan bool)
	release := make(chan bool)
	hbGo(root, func(g *Task) {
		*W(g, &y, 2) = 2
		parked <- true
		<-release // blocked, as synctest.Wait finds it
	})
	<-parked
	root.AcquireAll()
	*W(root, &x, 3) = 3
	*W(root, &y, 4) = 4
	close(release)
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported after AcquireAll", n)
	}
	var z int
	hbGo(root, func(g *Task) { *W(g, &z, 5) = 5; exited <- true })
	<-exited
	*W(root, &z, 6) = 6 // no AcquireAll: the control
	if n := races(e); n != 1 {
		t.Fatalf("%d races reported without AcquireAll, want 1", n)
	}
}

// TestHBAllConcurrent registers, ends and reads threads from several
// goroutines at once (go test -race checks the registry's own locking).
func TestHBAllConcurrent(t *testing.T) {
	root, e := hbRegisteredRoot(t)
	done := make(chan bool)
	for range 8 {
		hbGo(root, func(g *Task) {
			for range 20 {
				g.AcquireAll()
				g.Foreign()
			}
			done <- true
		})
	}
	for range 8 {
		<-done
	}
	vc := e.allClock(0, false)
	for u := uint32(1); u < uint32(len(vc)); u++ {
		if vc[u] == 0 {
			t.Errorf("thread %d missing from the join of all clocks", u)
		}
	}
}
