package rt

// Snapshots of H at a lock's releases. Rule (a)'s table of writes and
// rule (b)'s log (hb_wcp_lock.go, hb_wcp_log.go) name the release of a
// section by its H, shared by every location the section touched and by
// its log entry. A snapshot was a clock allocated at every release, and
// a mutex-heavy program made as much garbage as it made hand-offs
// (bench/unstructured/cache: 8 million 48-byte clocks, 78 collections,
// a heap twice plain's). A snapshot now counts who holds it and goes
// back to its lock's free list when the last lets go, so a lock's
// releases allocate nothing once its log and table have filled. All of
// it is under the lock's mu.

// hbSnap is H at one release of a lock: never written while held.
type hbSnap struct {
	vc   vclock
	refs int32 // table entries and log entries that hold it, and its taker until it stored it
	next *hbSnap
}

// clock returns s's clock (nil for no snapshot).
func (s *hbSnap) clock() vclock {
	if s == nil {
		return nil
	}
	return s.vc
}

// hbSnaps is a lock's free snapshots.
type hbSnaps struct{ free *hbSnap }

// take returns a snapshot of vc held once, by its taker, which lets it go
// when it has stored it (the log may drop the entry it stored it in
// before, when it is the log's front: a long read section's).
func (sn *hbSnaps) take(vc vclock) *hbSnap {
	s := sn.free
	if s == nil {
		s = new(hbSnap)
	} else {
		sn.free = s.next
		s.next = nil
	}
	s.vc = append(s.vc[:0], vc...)
	s.refs = 1
	return s
}

// hold adds a holder of s and returns it.
func hold(s *hbSnap) *hbSnap {
	s.refs++
	return s
}

// let drops a holder of s (nil: none); the last one gives it back.
func (sn *hbSnaps) let(s *hbSnap) {
	if s == nil {
		return
	}
	if s.refs--; s.refs == 0 {
		s.next = sn.free
		sn.free = s
	}
}
