package rt

// Vector clocks and epochs of the happens-before layer (FastTrack, Flanagan
// and Freund, PLDI 2009). A thread has a slot, numbered from 1; a clock is
// a slice indexed by slot that only grows: entry u is how much of slot
// u's history the owner has seen. An epoch is one slot's clock value,
// u@c, packed as u<<32 | c: an access is recorded as the epoch of the
// thread that made it, and it happens before thread v's current point
// exactly when c <= C_v[u]. A slot's clock starts at 1, so epoch 0 means
// "no access".
//
// A thread that ends gives its slot back, and a new thread whose parent
// has seen all of the slot's history continues it (hb_slot.go), so clocks
// are as long as the goroutines alive at once (plus those that ended
// unjoined), not as the goroutines ever started. A slot's clock continues
// over its threads; a slot whose clock passed 2^31 is not reused, and a
// thread whose own entry passes 2^32-1 (four billion releases by one
// goroutine) would wrap; not handled.

// vclock is a vector clock indexed by thread number (entry 0 unused).
type vclock []uint32

// epoch is a thread number and one of its clock values: u<<32 | c.
type epoch = uint64

// mkEpoch returns the epoch u@c.
func mkEpoch(u, c uint32) epoch { return uint64(u)<<32 | uint64(c) }

// epochThread returns the thread number of e.
func epochThread(e epoch) uint32 { return uint32(e >> 32) }

// epochClock returns the clock value of e.
func epochClock(e epoch) uint32 { return uint32(e) }

// get returns entry u of c (0 past its end).
func (c vclock) get(u uint32) uint32 {
	if int(u) < len(c) {
		return c[u]
	}
	return 0
}

// before reports whether the access recorded as e happens before the point
// of a thread whose clock is c. Epoch 0 (no access) precedes everything.
func (c vclock) before(e epoch) bool {
	return epochClock(e) <= c.get(epochThread(e))
}

// join sets *c to the entrywise maximum of *c and o, growing *c to o's
// length (the only allocation: when a thread learns of newer threads).
func (c *vclock) join(o vclock) {
	if len(o) > len(*c) {
		c.grow(len(o))
	}
	d := (*c)[:len(o)] // no bounds check in the loop
	for i, x := range o {
		d[i] = max(d[i], x) // no branch: a pool's clocks differ at random entries
	}
}

// grow makes c at least n entries long.
func (c *vclock) grow(n int) {
	if n <= cap(*c) {
		*c = (*c)[:n]
		return
	}
	d := make(vclock, n, max(n, 2*cap(*c)))
	copy(d, *c)
	*c = d
}

// set sets entry u of c to x, growing c as needed.
func (c *vclock) set(u uint32, x uint32) {
	if int(u) >= len(*c) {
		c.grow(int(u) + 1)
	}
	(*c)[u] = x
}

// clone returns a copy of c.
func (c vclock) clone() vclock { return append(vclock(nil), c...) }
