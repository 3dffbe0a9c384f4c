package rt

import "sync/atomic"

// A block that reads or writes one location again and again (a captured
// slice header or bound that every pixel reads, a convolution kernel, the
// window of a row that a blur reads once per tap) pays the whole check each
// time: the chunk lookup (the last chunk is rarely the header's, between
// pixels), the cell's loads and the W test. The wait-free protocol gains
// nothing from the repeats: concurrency is a property of blocks, so a block's
// second read of a location conflicts with exactly the accesses its first
// one does, in the same class, and the protocol's guarantee (a report for
// every location with a conflict, not every pair of sites) holds for the run
// without the repeat, whose state the repeat at best leaves unchanged
// (sameAccess). The same holds for a repeated write, and for a read after
// the block's own write (any access conflicting with the read conflicts
// with the write).
//
// So each task keeps a small direct-mapped set of the locations its current
// block checked (recentSize entries, keyed by address, each marked read or
// written), and a plain read or write found there is counted and not checked
// again. An entry stands for "this block, with this lockset, checked a
// read (write) of addr in this shadow table", and is dropped when any of
// the three changes: setCur, a lockset change and a new shadow table bump
// the task's generation, which every entry carries. It is also dropped when
// the location's history may have been forgotten: fresh (a new object at an
// address whose cells exist) bumps freshGen, which every task compares with
// the one its entries were made under. Only the wait-free protocol of a
// tree without -hb uses the set: the locked protocol promises the exact
// pairs of sites, and a happens-before tree orders blocks by more than tags.
// Atomic accesses and range checks neither use nor fill it.
//
// The set is allocated at a block change of a task that made recentMin
// checks (never on the check path): a goroutine of a loop that forks one per
// iteration and checks a few locations does not pay for it.
type recentSet struct {
	gen   uint64 // the generation of the entries; 1..recentGenMax
	fresh uint64 // freshGen when gen was last bumped
	e     [recentSize]uint64
}

const (
	recentBits   = 8
	recentSize   = 1 << recentBits
	recentMin    = 64
	recentGenMax = 1<<15 - 1
	recentAddrs  = 47 // an entry holds an address below 1<<recentAddrs (every user address on amd64); others are always checked
)

// freshGen counts the fresh calls that cleared an existing cell. It sits on
// a cache line of its own: every check with a recent set reads it.
var freshGen struct {
	_ [64]byte
	n atomic.Uint64
	_ [56]byte
}

// recentKey is the entry of addr with t's current generation, written
// marking a write.
func recentKey(addr uintptr, gen uint64) uint64 {
	return uint64(addr)<<16 | gen<<1
}

// recentSlot is addr's entry index: the words of an array take
// consecutive entries (a window of up to recentSize words never evicts
// itself, which a hash would: a blur's window of 76 words hashed into 128
// entries missed on most reads), and the bytes of one word are spread
// recentSize/8 entries apart.
func recentSlot(addr uintptr) uintptr {
	return (addr>>3 ^ (addr&7)<<(recentBits-3)) & (recentSize - 1)
}

// seenRecently reports whether t's block already checked addr (a write, or
// for a read, either), and is valid in its generation.
func (t *Task) seenRecently(addr uintptr, write bool) bool {
	r := t.recent
	if r == nil || addr>>recentAddrs != 0 {
		return false
	}
	if g := freshGen.n.Load(); g != r.fresh {
		r.fresh = g
		t.bumpRecent()
		return false
	}
	e := r.e[recentSlot(addr)]
	k := recentKey(addr, r.gen)
	if write {
		return e == k|1
	}
	return e|1 == k|1
}

// noteRecent records that t's block checked addr.
func (t *Task) noteRecent(addr uintptr, write bool) {
	r := t.recent
	if r == nil || addr>>recentAddrs != 0 {
		return
	}
	k := recentKey(addr, r.gen)
	if write {
		k |= 1
	}
	r.e[recentSlot(addr)] = k
}

// bumpRecent drops every entry of t's recent set: a new generation, and at
// the last one a cleared set.
func (t *Task) bumpRecent() {
	r := t.recent
	if r == nil {
		return
	}
	if r.gen++; r.gen > recentGenMax {
		r.e = [recentSize]uint64{}
		r.gen = 1
	}
}

// resetRecent is setCur's part: t moved to another block (or shadow table,
// or lockset), so its entries are dropped; a task that checks enough gets
// its set here, and one whose tree cannot use it loses it.
func (t *Task) resetRecent() {
	switch {
	case t.sh == nil || t.sh.locked || t.tree.hb != nil:
		t.recent = nil
	case t.recent != nil:
		t.bumpRecent()
	default:
		t.recent = &recentSet{gen: 1, fresh: freshGen.n.Load()}
	}
}
