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
// (write and read), channel and Sync hooks, Foreign, Exit, EndRoot and
// New (of one location, or of a large object over all of them). The
// oracle builds the happens-before graph of the same trace by the rules
// of api_hb.go, node by node: program order; Go to the child's first
// event; a release (Chan, Sync, Foreign and EndRoot and Exit to G,
// Unlock, RUnlock, an atomic write) to every later acquire of its object;
// Lock and RLock acquire at once; Chan, Sync, Foreign and atomics leave
// acquires pending, which the thread's next hook takes and clears, and
// which every plain access in between applies (the engine applies them
// only when it would report, and then it reports only what is still
// unordered: at a report its clock is exactly the oracle's, see
// docs/runtime.md); every acquire also takes G; a new root takes G.
// Reachability is computed by brute force (bitsets of predecessors).
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

// hbAddrs are the locations a trace accesses: three words, and four
// addresses of one word (a byte, another byte, a third and a 4-byte
// field), which share a cell of the shadow (hb_cell.go) and never
// conflict with each other.
var hbAddrs = [...]uintptr{0x10000, 0x10008, 0x10040, 0x10013, 0x10010, 0x10011, 0x10014}

const (
	hbMaxThreads = 6  // alive at once
	hbMaxMade    = 14 // made in one trace: those that exit leave their slots to later ones
)

// hbPlayed is a trace the engine ran, with what it reported and the
// number in reports (hbSlots' serial) of each logical thread.
type hbPlayed struct {
	trace  []hbEv
	reps   []rawReport
	serial []uint32
	reused int // threads that took an exited thread's slot
}

// hbPlay runs a random trace of n steps from seed on a fresh engine and
// returns it with the engine's raw reports.
func hbPlay(seed uint64, n int) hbPlayed {
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	var reps []rawReport
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	e.rep.raw = func(r rawReport) { reps = append(reps, r) }
	chans := [2]chan int{make(chan int), make(chan int, 1)}
	// Sync objects on the heap: an object on this goroutine's stack (two
	// new(int) that escape analysis keeps there) moves when the stack
	// grows, and its clock, keyed by address, with it.
	objs := [2]*int{reflect.New(reflect.TypeFor[int]()).Interface().(*int), reflect.New(reflect.TypeFor[int]()).Interface().(*int)}
	mus := [2]uintptr{0x20000, 0x20040}

	type lthread struct {
		th      *hbThread
		root    bool
		holdW   [2]bool
		holdR   [2]bool
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
	writer := [2]int{-1, -1}
	readers := [2]int{}
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
		switch r := rng.IntN(100); {
		case r < 45:
			ev.obj = rng.IntN(len(hbAddrs))
			ev.gen = gen[ev.obj]
			a := hbAddrs[ev.obj]
			if k := rng.IntN(100); k < 15 { // a sweep of the shared word's addresses from one site
				ev.op = [2]hbOpKind{hbOpRead, hbOpWrite}[rng.IntN(2)]
				ev.obj = 3 + rng.IntN(len(hbAddrs)-3)
				ev.gen = gen[ev.obj]
				for o := ev.obj; o < len(hbAddrs); o++ {
					if o != ev.obj {
						if rng.IntN(3) == 0 {
							continue
						}
						ev.more = append(ev.more, hbLoc{o, gen[o]})
					}
					if ev.op == hbOpWrite {
						t.Write(hbAddrs[o], site)
					} else {
						t.Read(hbAddrs[o], site)
					}
				}
				break
			}
			switch k := rng.IntN(100); {
			case k < 40:
				ev.op = hbOpRead
				t.Read(a, site)
			case k < 70:
				ev.op = hbOpWrite
				t.Write(a, site)
			case k < 85:
				ev.op = hbOpARead
				t.AtomicRead(a, site)
			default:
				ev.op = hbOpAWrite
				t.AtomicWrite(a, site)
			}
		case r < 55:
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
		case r < 60:
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
		case r < 63:
			ev.op = hbOpForeign
			t.Foreign()
		case r < 75:
			m := rng.IntN(2)
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
		case r < 82:
			if len(live) >= hbMaxThreads || len(threads) >= hbMaxMade {
				continue
			}
			ev.op = hbOpGo
			sp := t.Go()
			threads = append(threads, made(sp.hb.thread()))
			live = append(live, len(threads)-1)
			ev.obj = len(threads) - 1
		case r < 84:
			if len(live) >= hbMaxThreads || len(threads) >= hbMaxMade {
				continue
			}
			newRoot()
			continue
		case r < 88:
			if lt.holdW != [2]bool{} || lt.holdR != [2]bool{} {
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
		case r < 90:
			ev.op, ev.obj = hbOpNew, rng.IntN(len(hbAddrs))
			if rng.IntN(4) == 0 { // a large object over every address: forgotten by a pass over the shadow
				ev.obj = -1
				e.forget(hbAddrs[0], 1<<14)
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
	return hbPlayed{trace, reps, serial, int(e.slots.serials - e.slots.n)}
}

// hbOracle is the happens-before relation of a trace: anc[j] holds every
// event that happens before event j.
type hbOracle struct {
	anc [][]uint64
}

func (o *hbOracle) before(i, j int) bool { return o.anc[j][i/64]&(1<<(i%64)) != 0 }

// hbObjKey names an object of a trace for the oracle.
type hbObjKey struct {
	kind uint8 // hbObject (a channel's senders: obj, a Sync object: obj+2), hbChanRecv (a channel's receivers), hbWriters, hbReaders, hbAtomic, hbGClock
	obj  int
}

func newHBOracle(trace []hbEv) *hbOracle {
	n := len(trace)
	words := (n + 63) / 64
	o := &hbOracle{anc: make([][]uint64, n)}
	last := map[int]int{}      // thread -> its last event
	spawnedBy := map[int]int{} // thread -> its parent's Go event
	pending := map[int]map[hbObjKey]bool{}
	releases := map[hbObjKey][]int{}
	escaped := map[int]bool{} // channels Escape marked
	for j, ev := range trace {
		anc := make([]uint64, words)
		o.anc[j] = anc
		edge := func(p int) {
			anc[p/64] |= 1 << (p % 64)
			for w := range anc {
				anc[w] |= o.anc[p][w]
			}
		}
		acquire := func(k hbObjKey) {
			for _, r := range releases[k] {
				edge(r)
			}
		}
		if p, ok := last[ev.th]; ok {
			edge(p)
		} else if p, ok := spawnedBy[ev.th]; ok {
			edge(p)
		}
		last[ev.th] = j
		pend := pending[ev.th]
		takePending := func() {
			if len(pend) == 0 {
				return
			}
			for k := range pend {
				acquire(k)
			}
			acquire(hbObjKey{kind: hbGClock})
		}
		release := func(k hbObjKey) { releases[k] = append(releases[k], j) }
		addPending := func(k hbObjKey) {
			if pending[ev.th] == nil {
				pending[ev.th] = map[hbObjKey]bool{}
			}
			pending[ev.th][k] = true
		}
		switch ev.op {
		case hbOpRead, hbOpWrite:
			takePending() // applied, not cleared
		case hbOpRoot:
			acquire(hbObjKey{kind: hbGClock})
		case hbOpNew:
		case hbOpAfter: // take and clear
			takePending()
			delete(pending, ev.th)
		default: // another hook: take, and keep them pending
			takePending()
		}
		atomicKey := hbObjKey{hbAtomic, ev.obj}
		switch ev.op {
		case hbOpARead:
			addPending(atomicKey)
		case hbOpAWrite:
			release(atomicKey)
			addPending(atomicKey)
		case hbOpChan:
			if escaped[ev.obj] {
				release(hbObjKey{kind: hbGClock})
			}
			release(hbObjKey{hbObject, ev.obj})
			addPending(hbObjKey{hbObject, ev.obj})
			release(hbObjKey{hbChanRecv, ev.obj})
			addPending(hbObjKey{hbChanRecv, ev.obj})
		case hbOpChanSend:
			if escaped[ev.obj] {
				release(hbObjKey{kind: hbGClock})
			}
			release(hbObjKey{hbObject, ev.obj})
			if ev.obj == 0 { // unbuffered: a receive met the send
				addPending(hbObjKey{hbChanRecv, ev.obj})
			} else {
				addPending(hbObjKey{kind: hbGClock}) // room in the buffer: only G, which every acquire takes
			}
		case hbOpChanRecv:
			if escaped[ev.obj] {
				release(hbObjKey{kind: hbGClock})
			}
			release(hbObjKey{hbChanRecv, ev.obj})
			addPending(hbObjKey{hbObject, ev.obj})
		case hbOpChanClose:
			if escaped[ev.obj] {
				release(hbObjKey{kind: hbGClock})
			}
			release(hbObjKey{hbObject, ev.obj})
		case hbOpEscape:
			escaped[ev.obj] = true
		case hbOpSyncRelease:
			release(hbObjKey{hbObject, ev.obj + 2})
		case hbOpSyncAcquire:
			addPending(hbObjKey{hbObject, ev.obj + 2})
		case hbOpSync:
			release(hbObjKey{hbObject, ev.obj + 2})
			addPending(hbObjKey{hbObject, ev.obj + 2})
		case hbOpForeign:
			release(hbObjKey{kind: hbGClock})
			addPending(hbObjKey{kind: hbGClock})
		case hbOpExitJoined, hbOpEndRoot:
			release(hbObjKey{kind: hbGClock})
		case hbOpLock:
			acquire(hbObjKey{hbWriters, ev.obj})
			acquire(hbObjKey{hbReaders, ev.obj})
			acquire(hbObjKey{kind: hbGClock})
		case hbOpRLock:
			acquire(hbObjKey{hbWriters, ev.obj})
			acquire(hbObjKey{kind: hbGClock})
		case hbOpUnlock:
			release(hbObjKey{hbWriters, ev.obj})
		case hbOpRUnlock:
			release(hbObjKey{hbReaders, ev.obj})
		case hbOpGo:
			spawnedBy[ev.obj] = j
		}
	}
	return o
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
// racy locations.
func checkHBTrace(t *testing.T, seed uint64, p hbPlayed) int {
	trace, reps := p.trace, p.reps
	o := newHBOracle(trace)
	racy := map[hbLoc]bool{}
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
		if !reported[l] {
			t.Fatalf("seed %d: MISSED: address %d (allocation %d) has an unordered conflicting pair, no report\n%s", seed, l.obj, l.gen, dumpTrace(trace))
		}
	}
	return len(racy)
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
	names := [...]string{"read", "write", "atomic-read", "atomic-write", "chan", "sync", "foreign", "lock", "unlock", "rlock", "runlock",
		"go", "exit", "root", "endroot", "new", "exit-joined", "sync-release", "sync-acquire", "after", "escape", "chan-send", "chan-recv", "chan-close"}
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
	var events, races, reports, threads, reused int
	for seed := range uint64(seeds) {
		n := 20 + int(seed%8)*25 // 20..195 events
		p := hbPlay(seed, n)
		races += checkHBTrace(t, seed, p)
		events += len(p.trace)
		reports += len(p.reps)
		threads += len(p.serial)
		reused += p.reused
	}
	t.Logf("%d seeds, %d events, %d racy locations, %d raw reports, %d threads (%d in an exited thread's slot)", seeds, events, races, reports, threads, reused)
	if races == 0 || reports == 0 {
		t.Fatal("the traces raced nowhere: the test tests nothing")
	}
	if reused < threads/20 {
		t.Fatalf("only %d of %d threads took an exited thread's slot: reuse is hardly tested", reused, threads)
	}
}
