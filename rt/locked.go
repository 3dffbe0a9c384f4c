package rt

import "sync"

// history is a cell's access history under the locked protocol: antichains
// of readers and writers, each entry a full shadow word (tag, site, atomic
// flag, lockset), so reports name the exact source access.
type history struct {
	mu      sync.Mutex
	readers []uint64
	writers []uint64
}

// histCap bounds each antichain; past it the oldest entry is forgotten, the
// one place the locked protocol may miss a conflict.
const histCap = 256

// lockedCheck compares the access me with every stored concurrent
// conflicting access, then stores it and drops the entries it supersedes.
func (t *Task) lockedCheck(h *history, addr uintptr, me uint64, write bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	k := writeRead
	if write {
		k = writeWrite
		for _, r := range h.readers {
			if t.lc(r) {
				t.report(readWrite, addr, me, r)
			}
		}
	}
	for _, w := range h.writers {
		if t.lc(w) {
			t.report(k, addr, me, w)
		}
	}
	h.readers = t.prune(h.readers, me)
	if write {
		h.writers = push(t.prune(h.writers, me), me)
	} else {
		h.readers = push(h.readers, me)
	}
}

// prune removes the entries that me supersedes: those of the same or a
// preceding block with the same lockset and atomic flag. Any later access
// concurrent with such an entry is concurrent with me too (it cannot precede
// me, having come after it), and conflicts with me in the same class, so the
// set of reported locations and classes stays exact.
func (t *Task) prune(list []uint64, me uint64) []uint64 {
	const same = lsMask | atomicBit
	out := list[:0]
	for _, e := range list {
		if tag := wordTag(e); e&same == me&same && (tag == t.cur || t.sp(tag)) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// push appends w, forgetting the oldest entry when the list is full.
func push(list []uint64, w uint64) []uint64 {
	if len(list) >= histCap {
		copy(list, list[1:])
		list = list[:len(list)-1]
	}
	return append(list, w)
}
