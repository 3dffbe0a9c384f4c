package rt

// A callback proven as the body of its helper's construct (the rewriter's
// specialize.go) evaluates its proof's guard at its start, in every block
// that calls it. The guard's value is the same in every block of one
// construct instance (it names only the caller's read-only locals), and a
// guard over rows or index slices scans them, so the first block to ask
// stores the verdict in the construct and the others read it.

// GuardMemo returns the verdict stored for t's construct: 1 when its
// guard holds, 0 when it fails, -1 when no block stored one yet (or t is
// nil or forked by no construct).
func GuardMemo(t *Task) int {
	if t == nil || t.con == nil {
		return -1
	}
	return int(t.con.guard.Load()) - 1
}

// GuardStore stores holds as the verdict of t's construct's guard and
// returns it. Blocks that compute it at once store the same value.
func GuardStore(t *Task, holds bool) bool {
	if t != nil && t.con != nil {
		v := uint32(1)
		if holds {
			v = 2
		}
		t.con.guard.Store(v)
	}
	return holds
}
