package rt

import (
	"io"
	"sync"
	"testing"
)

// BenchmarkHBSameEpoch is a thread's read and write of a location it
// accessed last in the same epoch: FastTrack's common case.
func BenchmarkHBSameEpoch(b *testing.B) {
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	t := &e.root().task
	x := new(int)
	a := addrOf(x)
	t.Write(a, 1)
	b.ReportAllocs()
	for b.Loop() {
		t.Write(a, 1)
		t.Read(a, 2)
	}
}

// BenchmarkHBHandOff is a check after a channel hand-off, both ways: one
// thread writes a location and sends it, another receives and reads it
// and sends an acknowledgement, which the first receives before its next
// write. Each check comes right after a receive, whose acquire is still
// pending: the check finds the access unordered, applies it and checks
// again (the slow path of every hand-off). One goroutine plays both.
func BenchmarkHBHandOff(b *testing.B) {
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	p := e.root()
	c := &p.task
	q := c.Go().hb.thread()
	ch, ack := make(chan int), make(chan int)
	x := new(int)
	a := addrOf(x)
	b.ReportAllocs()
	for b.Loop() {
		c.Chan(ack) // receive the acknowledgement
		c.Write(a, 1)
		c.Chan(ch)      // send
		q.task.Chan(ch) // receive
		q.task.Read(a, 2)
		q.task.Chan(ack) // acknowledge
	}
	if n := races(e); n != 0 {
		b.Fatalf("%d races", n)
	}
}

// BenchmarkHBLockHandOff is a counter under a mutex that two threads take
// in turn: a Lock, a read and a write of the counter, an Unlock, each
// time by the other thread (a hand-off whose sections conflict). One
// goroutine plays both.
func BenchmarkHBLockHandOff(b *testing.B) {
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	p := e.root()
	ts := [2]*Task{&p.task, &p.task.Go().hb.thread().task}
	var mu sync.Mutex
	x := new(int)
	a := addrOf(x)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		t := ts[i&1]
		t.Acquire(&mu)
		t.Read(a, 1)
		t.Write(a, 2)
		t.Release(&mu)
	}
}

// BenchmarkHBReadShared is a subscriber's read of a 32-byte message
// another thread wrote and three others read, in a new epoch each time:
// four words whose reads are concurrent (read sets, in extensions), 32
// first reads of their epoch (reported per byte).
func BenchmarkHBReadShared(b *testing.B) {
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	p := e.root()
	msg := New(nil, new([32]byte))
	var subs []*Task
	for range 4 {
		subs = append(subs, &p.task.Go().hb.thread().task)
	}
	for i := range msg {
		p.task.Write(addrOf(&msg[i]), 1)
	}
	ch := make(chan int)
	p.task.Chan(ch)
	for _, s := range subs {
		s.Chan(ch)
		for i := range msg {
			s.Read(addrOf(&msg[i]), 2)
		}
	}
	s := subs[0]
	b.ReportAllocs()
	for b.Loop() {
		s.Chan(ch) // a new epoch
		for i := range msg {
			s.Read(addrOf(&msg[i]), 2)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msg)), "ns/check")
	if n := races(e); n != 0 {
		b.Fatalf("%d races", n)
	}
}

// BenchmarkHBFanOut is a pub/sub message's life, per word of it: a
// publisher allocates a 32-byte payload at the address of the last one
// (New forgets its history), fills it and sends it; five subscribers
// receive it and read it whole (ReadSpan), concurrently with each other:
// each word's read set grows from one reader to five (an extension, made
// and grown), and is dropped when the address is reused.
func BenchmarkHBFanOut(b *testing.B) {
	f := newHBFanOut(&hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}, 5)
	msg := make([]byte, 32)
	b.ReportAllocs()
	for b.Loop() {
		f.deliver(msg)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(f.subs)*len(msg)/8), "ns/word-read")
	if n := races(f.e); n != 0 {
		b.Fatalf("%d races", n)
	}
}

// BenchmarkHBAtomicLoadUnchanged is a pool's hot flag: an atomic that one
// goroutine stored once and a worker loads before each task, its clock as
// long as the 1,000 goroutines the pool started. Each load is an acquire
// of the flag's clock; no release changed it since the worker's last one,
// so the join is skipped (hbObj.ver).
func BenchmarkHBAtomicLoadUnchanged(b *testing.B) {
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	p := e.root()
	c := &p.task
	flag, count, x := new(int32), new(int32), new(int)
	for range 1000 { // each worker counts itself in: the count's clock knows them all
		th := c.Go().hb.thread()
		th.task.AtomicWrite(addrOf(count), 1)
		th.task.Read(addrOf(x), 3)
	}
	c.AtomicRead(addrOf(count), 2)
	c.Read(addrOf(x), 3)
	c.AtomicWrite(addrOf(flag), 1) // the flag's clock: 1,000 entries
	w := &c.Go().hb.thread().task
	if o := w.hb.obj(hbKey{addrOf(flag), hbAtomic}, false); o == nil || len(o.c) < 1000 {
		b.Fatal("the flag's clock is not 1,000 entries long")
	}
	y := new(int) // the worker's own: a read of x would walk the workers' 1,000 reads
	b.ReportAllocs()
	for b.Loop() {
		w.AtomicRead(addrOf(flag), 2)
		w.Read(addrOf(y), 3) // the next event takes the load's acquire
	}
	if n := races(e); n != 0 {
		b.Fatalf("%d races", n)
	}
}
