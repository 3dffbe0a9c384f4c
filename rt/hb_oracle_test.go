package rt

// The oracle of TestHBAgainstOracle: the relation the engine's clocks
// compute, built by brute force over a trace, as bitsets of predecessors.
//
// Happens-before (hb) has the rules of api_hb.go: program order; Go to the
// child's first event; a release (Chan, Sync, Foreign and EndRoot and
// ExitJoined to G, Unlock, RUnlock, an atomic write) to every later acquire
// of its object; Lock and RLock acquire at once; Chan, Sync, Foreign and
// atomics leave acquires pending, which the thread's next hook takes (and
// After clears), and which every plain access in between applies (the
// engine applies them only when it would report, and then reports only
// what is still unordered); every acquire also takes G; a new root takes G.
//
// The weak relation (wcp, hb_wcp.go) is built from the definitions, not
// from the engine's clocks: an edge of hb other than a lock hand-off is
// hard (wcp[j] takes the source and everything before it in hb); a lock
// hand-off carries only what is already weakly ordered before the release
// (composition on the right); program order carries wcp along; and
//
//	(a) an access in a section S of lock l takes the release of every
//	    earlier section S1 of l (not both read sections) that made a
//	    conflicting access (same address, one a write, atomics included,
//	    whatever the allocation);
//	(b) the release of S takes the release of every earlier section S1 of
//	    l of another thread (not both read sections) whose acquire wcp
//	    already holds, until nothing changes;
//	(o) a section is opaque from a Foreign or Unseen in it on: there it
//	    takes the release of every earlier section of its lock (not both
//	    read sections), and every later acquire of the lock (a Lock: any;
//	    an RLock: of a write section) takes its release.
//
// Two events are ordered when they are of one thread, or the first is in
// the second's wcp.

// hbOracle is the relation of a trace: anc[j] holds every event that
// happens before event j, wcp[j] every event weakly ordered before it.
type hbOracle struct {
	anc, wcp [][]uint64
	trace    []hbEv
}

// before reports whether events i < j are ordered: by program order, or
// by the weak relation.
func (o *hbOracle) before(i, j int) bool {
	return o.trace[i].th == o.trace[j].th || has(o.wcp[j], i)
}

func has(set []uint64, i int) bool { return set[i/64]&(1<<(i%64)) != 0 }

// hbObjKey names an object of a trace for the oracle.
type hbObjKey struct {
	kind uint8 // hbObject (a channel's senders: obj, a Sync object: obj+2), hbChanRecv (a channel's receivers), hbWriters, hbReaders, hbAtomic, hbGClock
	obj  int
}

// hbOracleSec is a critical section of a trace.
type hbOracleSec struct {
	lock, th int
	read     bool
	acq, rel int   // events; rel is -1 while open
	accs     []int // the accesses made in it
	opaque   bool
}

// pairs reports whether a and b can be ordered through their lock: not
// both read sections.
func (s *hbOracleSec) pairs(b *hbOracleSec) bool { return !s.read || !b.read }

func newHBOracle(trace []hbEv) *hbOracle {
	n := len(trace)
	words := (n + 63) / 64
	o := &hbOracle{anc: make([][]uint64, n), wcp: make([][]uint64, n), trace: trace}
	last := map[int]int{}      // thread -> its last event
	spawnedBy := map[int]int{} // thread -> its parent's Go event
	pending := map[int]map[hbObjKey]bool{}
	releases := map[hbObjKey][]int{}
	escaped := map[int]bool{} // channels Escape marked
	var secs []*hbOracleSec
	open := map[int][]*hbOracleSec{} // thread -> its open sections
	for j, ev := range trace {
		anc := make([]uint64, words)
		wcp := make([]uint64, words)
		o.anc[j], o.wcp[j] = anc, wcp
		or := func(dst, src []uint64) bool {
			changed := false
			for w := range dst {
				if src[w]&^dst[w] != 0 {
					dst[w] |= src[w]
					changed = true
				}
			}
			return changed
		}
		hard := func(p int) bool { // p and everything before it in hb are weakly before j
			changed := !has(wcp, p)
			wcp[p/64] |= 1 << (p % 64)
			return or(wcp, o.anc[p]) || changed
		}
		edge := func(p int, lock bool) {
			anc[p/64] |= 1 << (p % 64)
			or(anc, o.anc[p])
			if lock {
				or(wcp, o.wcp[p])
			} else {
				hard(p)
			}
		}
		acquire := func(k hbObjKey) {
			lock := k.kind == hbWriters || k.kind == hbReaders
			for _, r := range releases[k] {
				edge(r, lock)
			}
		}
		if p, ok := last[ev.th]; ok {
			anc[p/64] |= 1 << (p % 64)
			or(anc, o.anc[p])
			or(wcp, o.wcp[p]) // program order: not itself in wcp (before says so)
		} else if p, ok := spawnedBy[ev.th]; ok {
			edge(p, false)
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
		earlier := func(s *hbOracleSec, f func(s1 *hbOracleSec)) { // the sections of s's lock released before s began
			for _, s1 := range secs {
				if s1.lock == s.lock && s1.rel >= 0 && s1.rel < s.acq && s.pairs(s1) {
					f(s1)
				}
			}
		}
		unseen := func() { // (o), at the event
			for _, s := range open[ev.th] {
				s.opaque = true
				earlier(s, func(s1 *hbOracleSec) { hard(s1.rel) })
			}
		}
		if ev.isAccess() {
			for _, s := range open[ev.th] { // (a)
				s.accs = append(s.accs, j)
				earlier(s, func(s1 *hbOracleSec) {
					for _, a := range s1.accs {
						if trace[a].obj == ev.obj && (trace[a].isWrite() || ev.isWrite()) {
							hard(s1.rel)
							return
						}
					}
				})
			}
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
			// what was released to the channel so far goes to G too (escapeObj)
			g := hbObjKey{kind: hbGClock}
			releases[g] = append(releases[g], releases[hbObjKey{hbObject, ev.obj}]...)
			releases[g] = append(releases[g], releases[hbObjKey{hbChanRecv, ev.obj}]...)
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
			unseen()
		case hbOpUnseen:
			unseen()
		case hbOpExitJoined, hbOpEndRoot:
			release(hbObjKey{kind: hbGClock})
		case hbOpLock, hbOpRLock:
			s := &hbOracleSec{lock: ev.obj, th: ev.th, read: ev.op == hbOpRLock, acq: j, rel: -1}
			acquire(hbObjKey{hbWriters, ev.obj})
			if !s.read {
				acquire(hbObjKey{hbReaders, ev.obj})
			}
			acquire(hbObjKey{kind: hbGClock})
			for _, s1 := range secs { // (o): the opaque sections released before
				if s1.lock == s.lock && s1.opaque && s1.rel >= 0 && s.pairs(s1) {
					hard(s1.rel)
				}
			}
			secs = append(secs, s)
			open[ev.th] = append(open[ev.th], s)
		case hbOpUnlock, hbOpRUnlock:
			read := ev.op == hbOpRUnlock
			if read {
				release(hbObjKey{hbReaders, ev.obj})
			} else {
				release(hbObjKey{hbWriters, ev.obj})
			}
			stack := open[ev.th]
			k := len(stack) - 1
			for stack[k].lock != ev.obj || stack[k].read != read {
				k--
			}
			s := stack[k]
			open[ev.th] = append(stack[:k:k], stack[k+1:]...)
			for changed := true; changed; { // (b)
				changed = false
				for _, s1 := range secs {
					if s1.lock == s.lock && s1.th != s.th && s1.rel >= 0 && s1.acq < s.acq && s.pairs(s1) && has(wcp, s1.acq) {
						changed = hard(s1.rel) || changed
					}
				}
			}
			s.rel = j
		case hbOpGo:
			spawnedBy[ev.obj] = j
		}
	}
	return o
}
