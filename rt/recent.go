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
// The set is allocated once per task, at its recentMin-th check (see
// startRecent; GOANOMALY=recent=N moves it, recent=0 turns the set off).
type recentSet struct {
	gen   uint64 // the generation of the entries; 1..recentGenMax
	fresh uint64 // freshGen when gen was last bumped
	e     [recentSize]uint64
}

const (
	recentBits   = 8
	recentSize   = 1 << recentBits
	recentMin    = 256
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

// holds reports whether r holds addr: for a read (w 0) a read or a write
// of it, for a write (w 1) a write, made in r's generation, and no fresh
// since. It is the whole of a repeated access's check, so it stays small
// enough to inline into read and write.
func (r *recentSet) holds(addr uintptr, w uint64) bool {
	k := uint64(addr)<<16 | r.gen<<1 | 1
	return r.e[recentSlot(addr)]|(1-w) == k && uint64(addr)>>recentAddrs == 0 && r.fresh == freshGen.n.Load()
}

// recentSlot is addr's entry index: the words of an array take
// consecutive entries (a window of up to recentSize words never evicts
// itself, which a hash would: a blur's window of 76 words hashed into 128
// entries missed on most reads), and the bytes of one word are spread
// recentSize/8 entries apart.
func recentSlot(addr uintptr) uintptr {
	return (addr>>3 ^ (addr&7)<<(recentBits-3)) & (recentSize - 1)
}

// note records that t's block checked addr (w 1: a write). A fresh since
// the last note drops the older entries first.
func (r *recentSet) note(addr uintptr, w uint64) {
	if uint64(addr)>>recentAddrs != 0 {
		return
	}
	if g := freshGen.n.Load(); g != r.fresh {
		r.fresh = g
		r.bump()
	}
	r.e[recentSlot(addr)] = uint64(addr)<<16 | r.gen<<1 | w
}

// bumpRecent drops every entry of t's recent set, if it has one.
func (t *Task) bumpRecent() {
	if t.recent != nil {
		t.recent.bump()
	}
}

// bump drops every entry: a new generation, and after the last one a
// cleared set.
func (r *recentSet) bump() {
	if r.gen++; r.gen > recentGenMax {
		r.e = [recentSize]uint64{}
		r.gen = 1
	}
}

// startRecent gives t its recent set once it made recent checks (the
// option, recentMin by default; 0: never), in a tree that can use it.
// check calls it on a miss: like a chunk's slab, the set is allocated once,
// not per check, and a goroutine that checks a few locations (one per
// iteration of a loop over thousands) never pays for it.
func (t *Task) startRecent() {
	if n := t.tree.rep.cfg.recent; n != 0 && t.checks >= n && !t.sh.locked && t.tree.hb == nil {
		t.recent = &recentSet{gen: 1, fresh: freshGen.n.Load()}
	}
}
