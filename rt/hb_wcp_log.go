package rt

// Rule (b) of the weak-causally-precedes relation (hb_wcp.go): the release
// of a section orders the release of a later section of the same lock by
// another thread once the first section's acquire is ordered before it
// (the two cannot overlap, so the first ended before the second began).
// The paper keeps, per lock and thread, queues of the other threads'
// acquire and release times; here a lock keeps one log of its recent
// sections in acquire order, and each thread how far into it it got.
//
// At a release the thread walks the log from there: a section of another
// thread whose acquire time its vc (P) covers has its release's H joined
// into vc. Once a write section is not covered, no later section is: each
// later one acquired after it released, and the relation composes with
// happens-before. The read sections between two write sections do not
// follow each other, so past one that is not covered the walk goes on to
// the end of its run (without moving the thread's place) and repeats while
// it joins something. A thread looks at every section as a writer and at
// write sections only as a reader (two read sections never conflict
// through the lock), so it keeps a place for each.

// hbLogEnt is one section of a lock's log.
type hbLogEnt struct {
	owner uint32
	acq   uint32 // the owner's time at the acquire
	read  bool
	rel   *hbSnap // H at the release; nil while the section is open
}

// hbLogPos is how far a thread got in a log, as a writer and as a reader:
// the sequence number of the first section it has not passed.
type hbLogPos struct{ w, r uint64 }

// hbLockLog is a lock's recent sections, in a ring (no allocation once it
// has grown). Released sections beyond the last hbLogKeep leave it from
// the front; their H is joined into drop (and dropW, for write sections),
// which a thread whose place is before the front joins whole: every
// section that left is then taken as ordered before its release (more
// orderings, never fewer).
type hbLockLog struct {
	base  uint64     // sequence number of the oldest section
	n     int        // sections in the log
	ring  []hbLogEnt // section s at ring[s&(len(ring)-1)]; its length a power of two
	drop  vclock
	dropW vclock
	pos   map[uint32]hbLogPos
}

const (
	hbLogKeep = 64      // released sections kept
	hbLogMax  = 1 << 12 // sections open at once beyond which the lock orders fully
	hbNoSeq   = ^uint64(0)
)

// add appends a section of owner acquired at time acq and returns its
// sequence number, or hbNoSeq when too many are open.
func (lg *hbLockLog) add(owner, acq uint32, read bool) uint64 {
	if lg.n >= hbLogMax {
		return hbNoSeq
	}
	if lg.n == len(lg.ring) {
		ring := make([]hbLogEnt, max(8, 2*len(lg.ring)))
		for k := range lg.n {
			s := lg.base + uint64(k)
			ring[s&uint64(len(ring)-1)] = *lg.at(s)
		}
		lg.ring = ring
	}
	seq := lg.base + uint64(lg.n)
	*lg.at(seq) = hbLogEnt{owner: owner, acq: acq, read: read}
	lg.n++
	return seq
}

// at returns section s of the log.
func (lg *hbLockLog) at(s uint64) *hbLogEnt { return &lg.ring[s&uint64(len(lg.ring)-1)] }

// end is the sequence number after the newest section.
func (lg *hbLockLog) end() uint64 { return lg.base + uint64(lg.n) }

// release records rel as the H of section seq's release and lets released
// sections beyond hbLogKeep leave, giving their snapshots back to sn.
func (lg *hbLockLog) release(sn *hbSnaps, seq uint64, rel *hbSnap) {
	if seq != hbNoSeq && seq >= lg.base && seq < lg.end() {
		lg.at(seq).rel = hold(rel)
	}
	for lg.n > hbLogKeep && lg.at(lg.base).rel != nil {
		e := lg.at(lg.base)
		lg.drop.join(e.rel.vc)
		if !e.read {
			lg.dropW.join(e.rel.vc)
		}
		sn.let(e.rel)
		*e = hbLogEnt{}
		lg.base++
		lg.n--
	}
	if len(lg.pos) > 4*hbLogKeep {
		for u, p := range lg.pos {
			if p.w < lg.base && p.r < lg.base {
				delete(lg.pos, u) // a missing place is before the front too
			}
		}
	}
}

// ruleB walks lg for the thread's release of a section (read: a read
// section) and joins into vc the releases rule (b) orders before it.
func (th *hbThread) ruleB(lg *hbLockLog, read bool) {
	p := lg.pos[th.id]
	at := &p.w
	if read {
		at = &p.r
	}
	if *at < lg.base {
		if read {
			th.joinP(lg.dropW)
		} else {
			th.joinP(lg.drop)
		}
		*at = lg.base
	}
	for {
		next, joined, stuck := th.walkLog(lg, *at, read)
		*at = next
		if !joined || !stuck {
			break
		}
	}
	if lg.pos == nil {
		lg.pos = map[uint32]hbLogPos{}
	}
	lg.pos[th.id] = p
}

// walkLog is one walk of lg from sequence number at: it joins the release
// of every section of another thread whose acquire vc covers, and returns
// the first section the thread cannot pass, whether it joined anything,
// and whether it stopped at or passed a section that is not covered.
func (th *hbThread) walkLog(lg *hbLockLog, at uint64, read bool) (next uint64, joined, stuck bool) {
	next = at
	for s := at; s < lg.end(); s++ {
		e := lg.at(s)
		switch {
		case e.owner == th.id || read && e.read:
			// its own section, or a read section seen from a reader: no rule
		case e.rel != nil && e.acq <= th.vc.get(e.owner):
			if th.covers(e.rel.vc) {
				break
			}
			th.joinP(e.rel.vc)
			joined = true
		case e.rel == nil || !e.read:
			return next, joined, true // no later section is covered
		default:
			stuck = true // a read section: the rest of its run may be covered
		}
		if !stuck {
			next = s + 1
		}
	}
	return next, joined, stuck
}

// covers reports whether the thread's P already holds c.
func (th *hbThread) covers(c vclock) bool {
	for u, x := range c {
		switch {
		case uint32(u) == th.id:
			if x > th.wcp.pself {
				return false
			}
		case x > th.vc.get(uint32(u)):
			return false
		}
	}
	return true
}
