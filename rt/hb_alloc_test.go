package rt

import (
	"io"
	"slices"
	"sync"

	"testing"
)

// The happens-before check path allocates nothing once a thread's
// scratch buffers and the shadow's records have grown: a message read by
// more subscribers than its record holds moves to a larger record, and
// the read list that no longer fits is built in the scratch buffers, not
// appended past the record's end (which made a new Go slice each time).
func TestHBFanOutAllocatesNothing(t *testing.T) {
	f := newHBFanOut(&hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}, 7)
	msg := make([]byte, 32)
	round := func() {
		f.deliver(msg)
		for _, s := range f.subs {
			s.Read(addrOf(&msg[3]), 3) // a read of one byte, at another site
		}
	}
	for range 10 {
		round()
	}
	if n := testing.AllocsPerRun(100, round); n != 0 {
		t.Errorf("%v allocations per message", n)
	}
	if n := races(f.e); n != 0 {
		t.Fatalf("%d races", n)
	}
}

// A thread's cache of object clocks holds both clocks of a channel (the
// senders' and the receivers'): hashed with the address, the two keys
// fell in one slot and each operation looked the other up in the map.
func TestHBObjCacheHoldsBothChannelClocks(t *testing.T) {
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	p := e.root()
	for range 200 {
		ch := make(chan int)
		p.task.Chan(ch)
		p.task.Chan(ch)
		addr := uintptr(chanID(ch))
		for _, kind := range []uint8{hbObject, hbChanRecv} {
			if !slices.ContainsFunc(p.objs[:], func(c hbObjCached) bool { return c.k == hbKey{addr, kind} }) {
				t.Fatalf("channel %#x: clock of kind %d not cached: %v", addr, kind, p.objs)
			}
		}
	}
}

// hbFanOut is a pub/sub of a test engine: a publisher thread, subscriber
// threads, and the channel the publisher hands each message over on.
type hbFanOut struct {
	e    *hbEngine
	pub  *Task
	subs []*Task
	ch   chan int
}

// newHBFanOut returns a pub/sub of engine e with n subscribers.
func newHBFanOut(e *hbEngine, n int) *hbFanOut {
	f := &hbFanOut{e: e, pub: &e.root().task, ch: make(chan int)}
	for range n {
		f.subs = append(f.subs, &f.pub.Go().hb.thread().task)
	}
	return f
}

// deliver is one message's life: the publisher allocates msg (Make forgets
// what the shadow holds at its address), fills it and sends it; each
// subscriber receives it and reads it whole, concurrently with the others.
func (f *hbFanOut) deliver(msg []byte) {
	Make(f.pub, msg)
	WriteSpan(f.pub, msg, 0, len(msg), 1)
	f.pub.Chan(f.ch)
	for _, s := range f.subs {
		s.Chan(f.ch)
		ReadSpan(s, msg, 0, len(msg), 2)
	}
}

// Lock hand-offs allocate nothing once a lock's log and tables have
// filled: H at each release was a new clock that the lock's table of
// writes and its log shared (bench/unstructured/cache made a 48-byte
// clock per Unlock and RUnlock, and ran 78 collections where plain Go
// ran 2). The threads here hand a mutex and an RWMutex around, writing a
// counter under the one and reading a map's value under the other.
func TestHBLockHandOffAllocatesNothing(t *testing.T) {
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	root := &e.root().task
	ths := []*Task{&root.Go().hb.thread().task, &root.Go().hb.thread().task, &root.Go().hb.thread().task}
	var mu sync.Mutex
	var rw sync.RWMutex
	stats := New(nil, new([3]int)) // two counters, and a value only read
	round := func() {
		for i, th := range ths {
			th.RAcquire(&rw)
			th.Read(addrOf(&stats[2]), 1)
			th.RRelease(&rw)
			th.Acquire(&mu)
			th.Write(addrOf(&stats[i%2]), 2)
			th.Release(&mu)
		}
	}
	for range 200 { // past the log's 64 kept sections
		round()
	}
	if n := testing.AllocsPerRun(100, round); n != 0 {
		t.Errorf("%v allocations per round of %d hand-offs", n, 2*len(ths))
	}
	if n := races(e); n != 0 {
		t.Fatalf("%d races", n)
	}
}
