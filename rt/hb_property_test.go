package rt

import (
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
)

// The happens-before engine against a slow oracle. A random trace over a
// few logical threads (forked with Go, or new roots), driven by a seeded
// interleaving, is played by this one goroutine through the threads'
// tasks: plain and atomic accesses of a few addresses, lock and unlock
// (write and read, of three mutexes, nested in any order), channel and
// Sync hooks, Foreign, Unseen, Exit, EndRoot and New (of one location, or
// of a large object over all of them). Every other seed is lock-heavy:
// more sections, whose accesses do or do not conflict. The oracle
// (hb_oracle_test.go) builds the happens-before graph of the same trace
// and the weak-causally-precedes relation over it from the definitions,
// node by node; reachability is computed by brute force (bitsets of
// predecessors).
//
// Asserted for every trace:
//
//	(a) every reported pair is two accesses of the same location (and the
//	    same allocation: New between them makes them different ones), in
//	    trace order source then sink, that conflict (one a write, not both
//	    atomic), of the kind the report says, and that the oracle does not
//	    order: no false race, ever;
//	(b) every location (address and allocation) on which the oracle finds
//	    a conflicting unordered pair gets at least one report: FastTrack's
//	    guarantee (it reports the first race on each location; not every
//	    pair).

type hbOpKind uint8

const (
	hbOpRead hbOpKind = iota
	hbOpWrite
	hbOpARead
	hbOpAWrite
	hbOpChan
	hbOpSync
	hbOpForeign
	hbOpLock
	hbOpUnlock
	hbOpRLock
	hbOpRUnlock
	hbOpGo
	hbOpExit
	hbOpRoot // the first event of a new root thread
	hbOpEndRoot
	hbOpNew
	hbOpExitJoined
	hbOpSyncRelease
	hbOpSyncAcquire
	hbOpAfter
	hbOpEscape
	hbOpChanSend
	hbOpChanRecv
	hbOpChanClose
	hbOpUnseen
)

// hbEv is one event of a trace.
type hbEv struct {
	th  int // logical thread
	op  hbOpKind
	obj int // address, channel, object or mutex index
	gen int // accesses: the allocation of the address
}

func (ev hbEv) isAccess() bool { return ev.op <= hbOpAWrite }
func (ev hbEv) isWrite() bool  { return ev.op == hbOpWrite || ev.op == hbOpAWrite }
func (ev hbEv) isAtomic() bool { return ev.op == hbOpARead || ev.op == hbOpAWrite }

// hbAddrs are the locations a trace accesses: five words and a byte, and
// six words the lock-heavy traces access mostly in sections, two for each
// thread (modulo three): sections that do not conflict.
var hbAddrs = [...]uintptr{0x10000, 0x10008, 0x10040, 0x10013, 0x10080, 0x10088,
	0x30000, 0x30008, 0x30040, 0x30048, 0x30080, 0x30088}

// hbShared is the number of hbAddrs every thread accesses alike.
const hbShared = 6

const hbMaxThreads = 6

// hbPlay runs a random trace of n steps from seed on a fresh engine and
// returns it with the engine's raw reports.
func hbPlay(seed uint64, n int) ([]hbEv, []rawReport) {
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	var reps []rawReport
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	e.rep.raw = func(r rawReport) { reps = append(reps, r) }
	chans := [2]chan int{make(chan int), make(chan int, 1)}
	objs := [2]*int{new(int), new(int)}
	mus := [3]uintptr{0x20000, 0x20040, 0x20080}
	locky := seed%2 == 1 // more sections, fewer threads and hard edges
	maxThreads := hbMaxThreads
	if locky {
		maxThreads = 3
	}
	// per mille: accesses, channels, Sync and the like, Foreign, Unseen,
	// locks, Go, new roots, ends, New (the rest: nothing)
	weights := [...]int{450, 550, 600, 630, 630, 750, 820, 840, 880, 900}
	if locky {
		weights = [...]int{400, 410, 420, 430, 450, 850, 920, 930, 935, 945}
	}

	type lthread struct {
		th      *hbThread
		root    bool
		holdW   [len(mus)]bool
		holdR   [len(mus)]bool
		started bool
	}
	var threads []*lthread
	var live []int
	var trace []hbEv
	writer := [len(mus)]int{-1, -1, -1}
	readers := [len(mus)]int{}
	gen := [len(hbAddrs)]int{}

	newRoot := func() {
		threads = append(threads, &lthread{th: e.root(), root: true})
		threads[len(threads)-1].th.roots = 1
		live = append(live, len(threads)-1)
		trace = append(trace, hbEv{th: len(threads) - 1, op: hbOpRoot})
	}
	newRoot()
	remove := func(i int) {
		for k, x := range live {
			if x == i {
				live = append(live[:k], live[k+1:]...)
				return
			}
		}
	}
	for len(trace) < n && len(live) > 0 {
		i := live[rng.IntN(len(live))]
		lt := threads[i]
		t := &lt.th.task
		site := Site(len(trace) + 1) // an event's site is its index + 1
		ev := hbEv{th: i}
		switch r := rng.IntN(1000); {
		case r < weights[0]:
			ev.obj = rng.IntN(hbShared)
			if locky && (lt.holdW != [len(mus)]bool{} || lt.holdR != [len(mus)]bool{}) && rng.IntN(3) != 0 {
				ev.obj = hbShared + i%3*2 + rng.IntN(2) // the thread's own, in a section
			}
			ev.gen = gen[ev.obj]
			a := hbAddrs[ev.obj]
			switch k := rng.IntN(100); {
			case k < 40:
				ev.op = hbOpRead
				t.Read(a, site)
			case k < 70 || locky && k < 95:
				ev.op = hbOpWrite
				t.Write(a, site)
			case k < 85 || locky && k < 97:
				ev.op = hbOpARead
				t.AtomicRead(a, site)
			default:
				ev.op = hbOpAWrite
				t.AtomicWrite(a, site)
			}
		case r < weights[1]:
			ev.obj = rng.IntN(2) // chans[0] is unbuffered (always full), chans[1] an empty buffer
			switch rng.IntN(4) {
			case 0:
				ev.op = hbOpChanSend
				t.ChanSend(chans[ev.obj])
			case 1:
				ev.op = hbOpChanRecv
				t.ChanRecv(chans[ev.obj])
			case 2:
				ev.op = hbOpChanClose
				t.ChanClose(chans[ev.obj])
			default:
				ev.op = hbOpChan
				t.Chan(chans[ev.obj])
			}
		case r < weights[2]:
			ev.obj = rng.IntN(2)
			switch rng.IntN(5) {
			case 0:
				ev.op = hbOpSyncRelease
				t.SyncRelease(objs[ev.obj])
			case 1:
				ev.op = hbOpSyncAcquire
				t.SyncAcquire(objs[ev.obj])
			case 2:
				ev.op = hbOpAfter
				t.After()
			case 3:
				ev.op = hbOpEscape // channel ev.obj: its later releases also go to G
				t.Escape(chans[ev.obj])
			default:
				ev.op = hbOpSync
				t.Sync(objs[ev.obj])
			}
		case r < weights[3]:
			ev.op = hbOpForeign
			t.Foreign()
		case r < weights[4]:
			ev.op = hbOpUnseen
			t.Unseen()
		case r < weights[5]:
			m := rng.IntN(len(mus))
			if locky && rng.IntN(4) != 0 { // short sections: release one held, if any
				for k := range mus {
					if lt.holdW[k] || lt.holdR[k] {
						m = k
					}
				}
			}
			ev.obj = m
			switch {
			case lt.holdW[m]:
				ev.op = hbOpUnlock
				t.Unlock(mus[m])
				lt.holdW[m], writer[m] = false, -1
			case lt.holdR[m]:
				ev.op = hbOpRUnlock
				th := t.hbOf()
				th.runlocking(mus[m])
				th.mu.Unlock()
				lt.holdR[m] = false
				readers[m]--
			case writer[m] >= 0:
				continue // would block
			case rng.IntN(2) == 0:
				ev.op = hbOpRLock
				th := t.hbOf()
				th.rlockAcquired(mus[m])
				th.mu.Unlock()
				lt.holdR[m] = true
				readers[m]++
			case readers[m] > 0:
				continue
			default:
				ev.op = hbOpLock
				t.Lock(mus[m])
				lt.holdW[m], writer[m] = true, i
			}
		case r < weights[6]:
			if len(threads) >= maxThreads {
				continue
			}
			ev.op = hbOpGo
			sp := t.Go()
			threads = append(threads, &lthread{th: sp.hb.thread()})
			live = append(live, len(threads)-1)
			ev.obj = len(threads) - 1
		case r < weights[7]:
			if len(threads) >= maxThreads {
				continue
			}
			newRoot()
			continue
		case r < weights[8]:
			if lt.holdW != [len(mus)]bool{} || lt.holdR != [len(mus)]bool{} {
				continue
			}
			if lt.root {
				ev.op = hbOpEndRoot
				t.EndRoot()
			} else if rng.IntN(2) == 0 {
				ev.op = hbOpExit
				t.Exit()
			} else {
				ev.op = hbOpExitJoined
				t.ExitJoined()
			}
			remove(i)
		case r < weights[9]:
			ev.op, ev.obj = hbOpNew, rng.IntN(len(hbAddrs))
			if rng.IntN(4) == 0 { // a large object over every address: forgotten by a pass over the shadow
				ev.obj = -1
				e.forget(hbAddrs[0], 1<<14)
				for k := range gen {
					gen[k]++
				}
				break
			}
			e.forget(hbAddrs[ev.obj], 1)
			gen[ev.obj]++
		default:
			continue
		}
		trace = append(trace, ev)
	}
	return trace, reps
}

// conflict reports whether accesses a and b conflict: one writes, not both
// are atomic.
func conflict(a, b hbEv) bool {
	return (a.isWrite() || b.isWrite()) && !(a.isAtomic() && b.isAtomic())
}

// hbLoc is a location and allocation of a trace.
type hbLoc struct{ obj, gen int }

// checkHBTrace asserts (a) and (b) for one trace; it returns the number
// of racy locations, and of those only the weak rule finds (every
// conflicting pair of accesses the weak relation leaves unordered is
// ordered by happens-before: a lock hand-off hid it).
func checkHBTrace(t *testing.T, seed uint64, trace []hbEv, reps []rawReport) (int, int) {
	o := newHBOracle(trace)
	racy := map[hbLoc]bool{}
	hbRacy := map[hbLoc]bool{}
	for j, b := range trace {
		if !b.isAccess() {
			continue
		}
		for i := range j {
			a := trace[i]
			if a.isAccess() && a.obj == b.obj && a.gen == b.gen && conflict(a, b) && !o.before(i, j) {
				racy[hbLoc{b.obj, b.gen}] = true
				if !has(o.anc[j], i) {
					hbRacy[hbLoc{b.obj, b.gen}] = true
				}
			}
		}
	}
	reported := map[hbLoc]bool{}
	for _, r := range reps {
		j, i := int(wordSite(r.sink))-1, int(wordSite(r.source))-1
		if !r.hb || j < 0 || j >= len(trace) || i < 0 || i >= j {
			t.Fatalf("seed %d: report %+v: sink %d, source %d out of order\n%s", seed, r, j, i, dumpTrace(trace))
		}
		a, b := trace[i], trace[j]
		wantKind := readWrite
		switch {
		case a.isWrite() && b.isWrite():
			wantKind = writeWrite
		case a.isWrite():
			wantKind = writeRead
		}
		switch {
		case !a.isAccess() || !b.isAccess() || a.obj != b.obj || hbAddrs[a.obj] != r.addr:
			t.Fatalf("seed %d: report %s of events %d, %d: not accesses of %#x\n%s", seed, r.kind, i, j, r.addr, dumpTrace(trace))
		case a.gen != b.gen:
			t.Fatalf("seed %d: report of events %d, %d: different allocations (New between)\n%s", seed, i, j, dumpTrace(trace))
		case !conflict(a, b) || r.kind != wantKind || wordAtomic(r.sink) != b.isAtomic() || wordAtomic(r.source) != a.isAtomic():
			t.Fatalf("seed %d: report %s of events %d, %d: not that conflict\n%s", seed, r.kind, i, j, dumpTrace(trace))
		case o.before(i, j):
			t.Fatalf("seed %d: FALSE RACE: events %d and %d are ordered\n%s", seed, i, j, dumpTrace(trace))
		case wordTag(r.sink) == 0 || wordTag(r.source) == 0 || wordTag(r.sink) == wordTag(r.source):
			t.Fatalf("seed %d: report of events %d, %d: threads #%d, #%d", seed, i, j, wordTag(r.source), wordTag(r.sink))
		}
		reported[hbLoc{b.obj, b.gen}] = true
	}
	for l := range racy {
		if !reported[l] {
			t.Fatalf("seed %d: MISSED: address %d (allocation %d) has an unordered conflicting pair, no report\n%s", seed, l.obj, l.gen, dumpTrace(trace))
		}
	}
	return len(racy), len(racy) - len(hbRacy)
}

func dumpTrace(trace []hbEv) string {
	names := [...]string{"read", "write", "atomic-read", "atomic-write", "chan", "sync", "foreign", "lock", "unlock", "rlock", "runlock", "go", "exit", "root", "endroot", "new",
		"exit-joined", "sync-release", "sync-acquire", "after", "escape", "send", "recv", "close", "unseen"}
	s := ""
	for j, ev := range trace {
		s += fmt.Sprintf("%3d: T%d %s %d", j, ev.th, names[ev.op], ev.obj)
		if ev.isAccess() && ev.gen > 0 {
			s += fmt.Sprintf(" (allocation %d)", ev.gen)
		}
		s += "\n"
	}
	return s
}

func TestHBAgainstOracle(t *testing.T) {
	seeds := 3000
	if testing.Short() {
		seeds = 300
	}
	var events, races, hidden, reports int
	for seed := range uint64(seeds) {
		n := 20 + int(seed%8)*25 // 20..195 events
		trace, reps := hbPlay(seed, n)
		r, h := checkHBTrace(t, seed, trace, reps)
		races += r
		hidden += h
		events += len(trace)
		reports += len(reps)
	}
	t.Logf("%d seeds, %d events, %d racy locations (%d racy only under the weak rule: a lock hand-off hides them), %d raw reports", seeds, events, races, hidden, reports)
	if races == 0 || reports == 0 || hidden == 0 {
		t.Fatal("the traces raced nowhere, or no lock hid a race: the test tests nothing")
	}
}
