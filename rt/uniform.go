package rt

import "sync/atomic"

// A range check covering a whole chunk (sixteen aligned words, one row
// segment of a []float64) would run the protocol on sixteen cells that,
// in a dense kernel, hold the same three words: written by one block,
// read by one block. A chunk therefore starts *uniform*: the header's
// words u stand for every cell's, and a whole-chunk access runs the
// protocol once, on u. The first access that is not a whole-chunk one (an
// element, a partial range, an atomic access, fresh) *splits* the chunk:
// u is copied into the cells, and from then on the chunk is checked cell
// by cell, as before. A chunk never becomes uniform again (until its tree
// is done, see reset).
//
// The invariant everything rests on: u is written only by whole-chunk
// checks (and reset), so every word u ever holds is an access of every
// element of the chunk. A conflict found on u is thus a conflict at every
// cell, whatever the mode is by then, and a copy of u may land in any cell
// at any time. (Session 6 kept u in the first cell to save a word per
// chunk; after a split that cell held accesses of its own element only,
// which a whole-chunk check still in flight read as u and reported at all
// sixteen elements: the false READ-WRITE of the property test's seed 1469,
// TestUniformSplitFirstCell.)
//
// The mode word goes uniform → splitting → split, by CAS, and everything
// stays wait-free (bounded steps, no waiting on another goroutine):
//
//   - While uniform, the cells are all zero (new chunks are, and only a
//     splitter or a check of a split chunk writes them).
//   - split: whoever finds the chunk uniform moves it to splitting; whoever
//     finds it splitting (the mover or anybody after) reads u and copies it
//     into the cells with CAS from zero; then it CASes the mode to split.
//     The mode is split only after one complete copy, so a check of a
//     split chunk sees every word u held when the copy read it. A slower
//     copier can only fill a word still zero, with a whole-chunk access;
//     fresh marks the words it clears (clearedWord) so that no copy lands
//     on memory allocated since.
//   - A whole-chunk check loads the mode, runs the protocol on u, and loads
//     the mode again. Still uniform: its update happened before any split
//     moved the mode, so every copy reads it (Go's atomics are sequentially
//     consistent). Otherwise it lost a race with a split: its reports stand
//     (they are right at every cell, above), and it finishes the split and
//     runs again cell by cell, for what the copy may have missed. Its words
//     are then recorded twice (the second time as the same access, with no
//     swap) and its reports may be made twice: the reporter counts the
//     second as a repeat.
//   - A read's protocol is two steps, swap R then store C; a copy between
//     them gives the cells the new R without the old one the store keeps
//     in C. A read that lost the race therefore repeats its store in every
//     cell whose R is still its own (see finishRead).

const (
	chunkUniform   = 0 // u holds every cell's history; the cells are zero
	chunkSplitting = 1 // being copied from u into the cells
	chunkSplit     = 2 // the cells hold the history
)

// clearedWord is the word fresh stores into the cells it clears: no access
// (tag 0), but not zero, so a late copy of u (see split) cannot fill it.
const clearedWord = 1

// split makes ch's cells hold its history, copying u into them the first
// time; s is the table holding ch, whose slab gives the cells. It returns
// once ch is split.
func (ch *chunk) split(s *shadow) {
	for {
		switch ch.mode.Load() {
		case chunkSplit, chunkLocked:
			return
		case chunkUniform:
			ch.mode.CompareAndSwap(chunkUniform, chunkSplitting)
		default:
			// Once split, u's later words are whole-chunk checks that lost
			// the race and check the cells themselves: not copied then.
			cs := s.cellsFor(ch) // before the mode is split, even with nothing to copy
			u := &ch.u
			w, r, c := u.w.Load(), u.r.Load(), u.c.Load()
			if w|r|c != 0 && ch.mode.Load() == chunkSplitting {
				for k := range cs {
					cl := &cs[k]
					fill(&cl.w, w)
					fill(&cl.r, r)
					fill(&cl.c, c)
				}
			}
			ch.mode.CompareAndSwap(chunkSplitting, chunkSplit)
			return
		}
	}
}

// fill stores v into a word still zero.
func fill(x *atomic.Uint64, v uint64) {
	if v != 0 {
		x.CompareAndSwap(0, v)
	}
}

// uniformRead checks a read of every word of the uniform chunk ch, the
// first at addr. It reports false when a split overtook it: the caller
// checks the cells then.
func (t *Task) uniformRead(ch *chunk, addr uintptr, me uint64) bool {
	if raceHook != nil {
		raceHook(ch, hookBefore)
	}
	u := &ch.u
	var kept uint64 // the reader this read moved to C, if any
	// As recordRead: a block already in R or C records nothing.
	if !sameAccess(u.r.Load(), me) && !sameAccess(u.c.Load(), me) {
		prev := u.r.Swap(me)
		if raceHook != nil {
			raceHook(ch, hookSwapped)
		}
		if t.lc(prev) {
			u.c.Store(prev)
			kept = prev
		}
	}
	if w := u.w.Load(); w>>tagShift != 0 && t.lc(w) {
		t.reportChunk(writeRead, addr, me, w)
	}
	if ch.mode.Load() == chunkUniform {
		return true
	}
	if kept != 0 {
		ch.finishRead(t.sh, me, kept)
	}
	return false
}

// finishRead is a read's store of the concurrent reader kept, done again
// in the cells of the split chunk ch after the read lost the race with the
// split: in every cell whose R is the read's own, the copy may have taken
// R after the read's swap and C before its store. (A cell whose R is
// another access had that reader's own swap and store since, or the copy
// was made before the read's swap, and the read's cell check swaps it.)
func (ch *chunk) finishRead(s *shadow, me, kept uint64) {
	ch.split(s)
	cs := ch.cellsOf()
	for k := range cs {
		if cl := &cs[k]; sameAccess(cl.r.Load(), me) {
			cl.c.Store(kept)
		}
	}
}

// uniformWrite checks a write of every word of the uniform chunk ch, as
// uniformRead. A write changes only W, in one swap, so a copy has either
// the write or what it replaced, and what it replaced is reported here.
func (t *Task) uniformWrite(ch *chunk, addr uintptr, me uint64) bool {
	if raceHook != nil {
		raceHook(ch, hookBefore)
	}
	u := &ch.u
	if prev := u.w.Load(); !sameAccess(prev, me) {
		if prev = u.w.Swap(me); t.lc(prev) {
			t.reportChunk(writeWrite, addr, me, prev)
		}
	}
	if l := u.r.Load(); !t.lc(l) || !t.reportChunk(readWrite, addr, me, l) {
		if cc := u.c.Load(); t.lc(cc) {
			t.reportChunk(readWrite, addr, me, cc)
		}
	}
	return ch.mode.Load() == chunkUniform
}

// raceHook, set by tests only, runs inside a whole-chunk check that found
// the chunk uniform: before it records its access (hookBefore), and, in a
// read, between its swap of R and its store of C (hookSwapped). A test
// splits the chunk there, the races a whole-chunk check can lose.
var raceHook func(ch *chunk, at int)

const (
	hookBefore = iota
	hookSwapped
)

// reportChunk reports a conflict of me with source at each of the sixteen
// words from addr, as a check of each cell would.
func (t *Task) reportChunk(k kind, addr uintptr, me, source uint64) bool {
	ok := false
	for j := range uintptr(chunkCells) {
		ok = t.report(k, addr+j*8, me, source) || ok
	}
	return ok
}
