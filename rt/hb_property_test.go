package rt

import (
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
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
	// A sweep (plain accesses of several addresses of one word at one
	// site, as a loop over a []byte makes) accesses these too.
	more []hbLoc
}

// locs returns the addresses and allocations an access event accesses.
func (ev hbEv) locs() []hbLoc { return append([]hbLoc{{ev.obj, ev.gen}}, ev.more...) }

func (ev hbEv) isAccess() bool { return ev.op <= hbOpAWrite }
func (ev hbEv) isWrite() bool  { return ev.op == hbOpWrite || ev.op == hbOpAWrite }
func (ev hbEv) isAtomic() bool { return ev.op == hbOpARead || ev.op == hbOpAWrite }

// hbAddrs are the locations a trace accesses: three words (the first two
// in one 16-byte granule), four addresses of one granule (a byte, another
// byte, a third and a 4-byte field: hbWordLo..hbWordHi), which share a
// cell of the shadow (hb_cell.go) and never conflict with each other, two
// more words (one granule), and six words the lock-heavy traces access
// mostly in sections, two for each thread (modulo three; each pair one
// granule): sections that do not conflict.
var hbAddrs = [...]uintptr{0x10000, 0x10008, 0x10040, 0x10013, 0x10010, 0x10011, 0x10014, 0x10080, 0x10088,
	0x30000, 0x30008, 0x30040, 0x30048, 0x30080, 0x30088}

const (
	hbWordLo, hbWordHi = 3, 7 // hbAddrs[hbWordLo:hbWordHi] are one word's
	hbShared           = 9    // the number of hbAddrs every thread accesses alike
)

const (
	hbMaxThreads = 6  // alive at once
	hbMaxMade    = 14 // made in one trace: those that exit leave their slots to later ones
)

// hbPlayed is a trace the engine ran, with what it reported and the
// number in reports (hbSlots' serial) of each logical thread.
type hbPlayed struct {
	trace    []hbEv
	reps     []rawReport
	serial   []uint32
	reused   int // threads that took an exited thread's slot
	recycled int // of those, threads whose parent did not cover it (hbSlots.recycled)
}

// hbPlay runs a random trace of n steps from seed on a fresh engine and
// returns it with the engine's raw reports.
func hbPlay(seed uint64, n int) hbPlayed { return hbPlayWith(seed, n, false) }

// hbPlayWith is hbPlay; with recycle, a new thread takes an exited
// thread's slot even when its parent did not see that thread's last
// access (hbSlots.recycleAt), whenever one is free.
func hbPlayWith(seed uint64, n int, recycle bool) hbPlayed {
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	var reps []rawReport
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	e.rep.raw = func(r rawReport) { reps = append(reps, r) }
	if recycle {
		e.slots.recycleMax = -1
	}
	chans := [2]chan int{make(chan int), make(chan int, 1)}
	// Sync objects on the heap: an object on this goroutine's stack (two
	// new(int) that escape analysis keeps there) moves when the stack
	// grows, and its clock, keyed by address, with it.
	objs := [2]*int{reflect.New(reflect.TypeFor[int]()).Interface().(*int), reflect.New(reflect.TypeFor[int]()).Interface().(*int)}
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
	var serial []uint32 // of each logical thread
	made := func(th *hbThread) *lthread {
		serial = append(serial, e.slots.serials)
		return &lthread{th: th}
	}
	var live []int
	var trace []hbEv
	writer := [len(mus)]int{-1, -1, -1}
	readers := [len(mus)]int{}
	gen := [len(hbAddrs)]int{}

	newRoot := func() {
		threads = append(threads, made(e.root()))
		threads[len(threads)-1].root = true
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
			// A sweep of the shared word's addresses from one site, outside
			// critical sections: the oracle takes a sweep for one event, but
			// in a section each of its accesses may order the thread by rule
			// (a) only from that access on (a conflict on a later address
			// does not order the earlier ones).
			inSection := lt.holdW != [len(mus)]bool{} || lt.holdR != [len(mus)]bool{}
			if k := rng.IntN(100); k < 15 && !inSection {
				ev.op = [2]hbOpKind{hbOpRead, hbOpWrite}[rng.IntN(2)]
				ev.obj = hbWordLo + rng.IntN(hbWordHi-hbWordLo)
				ev.gen = gen[ev.obj]
				whole := rng.IntN(2) == 0 // the word's addresses in one check, as hbRange makes it
				var mask hbMask
				for o := ev.obj; o < hbWordHi; o++ {
					if o != ev.obj {
						if rng.IntN(3) == 0 {
							continue
						}
						ev.more = append(ev.more, hbLoc{o, gen[o]})
					}
					switch {
					case whole:
						_, bit := grainOf(hbAddrs[o])
						mask |= bit
					case ev.op == hbOpWrite:
						t.Write(hbAddrs[o], site)
					default:
						t.Read(hbAddrs[o], site)
					}
				}
				if whole {
					g, _ := grainOf(hbAddrs[hbWordLo])
					e.accessGrain(lt.th, g, mask, site, ev.op == hbOpWrite)
				}
				break
			}
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
			if len(live) >= maxThreads || len(threads) >= hbMaxMade {
				continue
			}
			ev.op = hbOpGo
			sp := t.Go()
			threads = append(threads, made(sp.hb.thread()))
			live = append(live, len(threads)-1)
			ev.obj = len(threads) - 1
		case r < weights[7]:
			if len(live) >= maxThreads || len(threads) >= hbMaxMade {
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
			} else if k := rng.IntN(4); k < 2 { // a join: Done, or a send, then the end
				ev.op, ev.obj = hbOpSyncRelease, rng.IntN(2)
				if k == 1 {
					ev.op = hbOpChanSend
					t.ChanSend(chans[ev.obj])
				} else {
					t.SyncRelease(objs[ev.obj])
				}
				trace = append(trace, ev)
				ev = hbEv{th: i, op: hbOpExit}
				t.Exit()
			} else if k == 2 {
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
				e.forget(hbAddrs[0], hbAddrs[len(hbAddrs)-1]+8-hbAddrs[0])
				for k := range gen {
					gen[k]++
				}
				break
			}
			a, size := hbAddrs[ev.obj], [...]uintptr{1, 1, 2, 4}[rng.IntN(4)] // an object of one or more of the addresses
			e.forget(a, size)
			for k, b := range hbAddrs {
				if a <= b && b < a+size {
					gen[k]++
				}
			}
		default:
			continue
		}
		trace = append(trace, ev)
	}
	return hbPlayed{trace, reps, serial, int(e.slots.serials - e.slots.n), e.slots.recycled}
}

// conflict reports whether accesses a and b conflict: one writes, not both
// are atomic.
func conflict(a, b hbEv) bool {
	return (a.isWrite() || b.isWrite()) && !(a.isAtomic() && b.isAtomic())
}

// hbLoc is a location and allocation of a trace.
type hbLoc struct{ obj, gen int }

// checkHBTrace asserts (a) and (b) for one trace, and that each report
// names the logical threads that made the two accesses (threads reuse
// the slots of those that exited: hb_slot.go); it returns the number of
// racy locations, and of those only the weak rule finds (every
// conflicting pair of accesses the weak relation leaves unordered is
// ordered by happens-before: a lock hand-off hid it).
func checkHBTrace(t *testing.T, seed uint64, p hbPlayed) (int, int) {
	return checkHBTraceWith(t, seed, p, true)
}

// checkHBTraceWith is checkHBTrace; complete false skips (b), for traces
// played with recycled slots, which may hide races.
func checkHBTraceWith(t *testing.T, seed uint64, p hbPlayed, complete bool) (int, int) {
	trace, reps := p.trace, p.reps
	o := newHBOracle(trace)
	racy := map[hbLoc]bool{}
	hbRacy := map[hbLoc]bool{}
	for j, b := range trace {
		if !b.isAccess() {
			continue
		}
		for i := range j {
			a := trace[i]
			if !a.isAccess() || !conflict(a, b) || o.before(i, j) {
				continue
			}
			for _, l := range b.locs() {
				if slices.Contains(a.locs(), l) {
					racy[l] = true
					if !has(o.anc[j], i) {
						hbRacy[l] = true
					}
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
		case !a.isAccess() || !b.isAccess() || !accesses(a, r.addr) || !accesses(b, r.addr):
			t.Fatalf("seed %d: report %s of events %d, %d: not accesses of %#x\n%s", seed, r.kind, i, j, r.addr, dumpTrace(trace))
		case locOf(a, r.addr) != locOf(b, r.addr):
			t.Fatalf("seed %d: report of events %d, %d: different allocations (New between)\n%s", seed, i, j, dumpTrace(trace))
		case !conflict(a, b) || r.kind != wantKind || wordAtomic(r.sink) != b.isAtomic() || wordAtomic(r.source) != a.isAtomic():
			t.Fatalf("seed %d: report %s of events %d, %d: not that conflict\n%s", seed, r.kind, i, j, dumpTrace(trace))
		case o.before(i, j):
			t.Fatalf("seed %d: FALSE RACE: events %d and %d are ordered\n%s", seed, i, j, dumpTrace(trace))
		case wordTag(r.sink) != uint64(p.serial[b.th]) || wordTag(r.source) != uint64(p.serial[a.th]):
			t.Fatalf("seed %d: report of events %d, %d names goroutines #%d, #%d, want #%d (T%d), #%d (T%d)\n%s", seed, i, j,
				wordTag(r.source), wordTag(r.sink), p.serial[a.th], a.th, p.serial[b.th], b.th, dumpTrace(trace))
		}
		reported[locOf(b, r.addr)] = true
	}
	for l := range racy {
		if complete && !reported[l] {
			t.Fatalf("seed %d: MISSED: address %d (allocation %d) has an unordered conflicting pair, no report\n%s", seed, l.obj, l.gen, dumpTrace(trace))
		}
	}
	return len(racy), len(racy) - len(hbRacy)
}

// accesses reports whether access event ev accesses address addr.
func accesses(ev hbEv, addr uintptr) bool { return locOf(ev, addr).obj >= 0 }

// locOf returns the address and allocation of addr that ev accesses, or
// obj -1.
func locOf(ev hbEv, addr uintptr) hbLoc {
	for _, l := range ev.locs() {
		if hbAddrs[l.obj] == addr {
			return l
		}
	}
	return hbLoc{-1, 0}
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
		for _, l := range ev.more {
			s += fmt.Sprintf(", %d (allocation %d)", l.obj, l.gen)
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
	var events, races, hidden, reports, threads, reused int
	for seed := range uint64(seeds) {
		n := 20 + int(seed%8)*25 // 20..195 events
		p := hbPlay(seed, n)
		r, h := checkHBTrace(t, seed, p)
		races += r
		hidden += h
		events += len(p.trace)
		reports += len(p.reps)
		threads += len(p.serial)
		reused += p.reused
	}
	t.Logf("%d seeds, %d events, %d racy locations (%d racy only under the weak rule: a lock hand-off hides them), %d raw reports, %d threads (%d in an exited thread's slot)",
		seeds, events, races, hidden, reports, threads, reused)
	if races == 0 || reports == 0 || hidden == 0 {
		t.Fatal("the traces raced nowhere, or no lock hid a race: the test tests nothing")
	}
	if reused < threads/20 {
		t.Fatalf("only %d of %d threads took an exited thread's slot: reuse is hardly tested", reused, threads)
	}
}

// TestHBRecycledSlotsNoFalseRace plays the oracle's traces with every
// exited thread's slot taken by the next thread, whether or not its parent
// saw that thread's last access (its final clock joined instead): races
// may be missed, but every report is still a true race of the real
// trace, named by the goroutines that made it ((a) alone). Without the
// join (a slot continued with the parent's clock alone), seed 2791
// reports a false race.
func TestHBRecycledSlotsNoFalseRace(t *testing.T) {
	seeds := 3000
	if testing.Short() {
		seeds = 300
	}
	recycled, reports := 0, 0
	for seed := range uint64(seeds) {
		p := hbPlayWith(seed, 20+int(seed%8)*25, true)
		checkHBTraceWith(t, seed, p, false)
		recycled += p.recycled
		reports += len(p.reps)
	}
	t.Logf("%d threads in a slot their parent did not cover, %d raw reports", recycled, reports)
	if recycled == 0 || reports == 0 {
		t.Fatal("no slot recycled, or no report: the test tests nothing")
	}
}
