package rt

import "sync/atomic"

// A range check covering a whole chunk (sixteen aligned words, one row
// segment of a []float64) would run the protocol on sixteen cells that,
// in a dense kernel, hold the same three words: written by one block,
// read by one block. A chunk therefore starts *uniform*: its first cell's
// words u stand for every cell's, and a whole-chunk access runs the
// protocol once, on u. The first access that is not a whole-chunk one (an
// element, a partial range, an atomic access, fresh) *splits* the chunk:
// u is copied into the other cells, and from then on the chunk is checked
// cell by cell, as before, u being the first cell's own history. A chunk
// never becomes uniform again. (u lives in the first cell, not in the
// header, so a chunk costs one word more than before, not four.)
//
// The mode word goes uniform → splitting → split, by CAS, and everything
// stays wait-free (bounded steps, no waiting on another goroutine):
//
//   - While uniform, the cells but the first are all zero (new chunks are,
//     and only a splitter or a check of a split chunk writes them).
//   - split: whoever finds the chunk uniform moves it to splitting; whoever
//     finds it splitting (the mover or anybody after) reads u, and, if the
//     mode is still splitting after the read, copies it into the other
//     cells with CAS from zero; then it CASes the mode to split. The mode
//     is split only after one complete copy, so a check of a split chunk
//     sees every word u held when the copy read it. A slower copier read u
//     before the mode became split (after it, u is the first cell's own and
//     may hold an access of that element only: such a read is not copied),
//     so it can only fill a word still zero, with a word of a whole-chunk
//     access; fresh marks the words it clears (clearedWord) so that no copy
//     lands on memory allocated since.
//   - A whole-chunk check loads the mode, runs the protocol on u, and loads
//     the mode again. Still uniform: its update happened before any split
//     moved the mode, so every copy reads it (Go's atomics are sequentially
//     consistent). Otherwise it lost a race with a split: it finishes the
//     split and runs again cell by cell. Its words may then be recorded
//     twice (the second time as the same access, with no swap) and its
//     reports made twice: the reporter counts the second as a repeat.
//
// A conflict found on u (in the uniform mode) is a conflict at every cell, and is reported at
// every element of the chunk with the site of the previous access, exactly
// as the cells would have: reports still name an element address inside the
// range (the reporter prints the first and counts the rest).

const (
	chunkUniform   = 0 // u holds every cell's history; the cells are zero
	chunkSplitting = 1 // being copied from u into the cells
	chunkSplit     = 2 // the cells hold the history
)

// clearedWord is the word fresh stores into the cells it clears: no access
// (tag 0), but not zero, so a late copy of u (see split) cannot fill it.
const clearedWord = 1

// split makes ch's cells hold its history, copying u (the first cell's
// words) into the others the first time. It returns once ch is split.
func (ch *chunk) split() {
	for {
		switch ch.mode.Load() {
		case chunkSplit:
			return
		case chunkUniform:
			ch.mode.CompareAndSwap(chunkUniform, chunkSplitting)
		default:
			u := &ch.cells[0]
			w, r, c := u.w.Load(), u.r.Load(), u.c.Load()
			if w|r|c != 0 && ch.mode.Load() == chunkSplitting {
				for k := 1; k < chunkCells; k++ {
					cl := &ch.cells[k]
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
		raceHook(ch)
	}
	u := &ch.cells[0]
	t.recordRead(&u.r, &u.c, me)
	if w := u.w.Load(); w>>tagShift != 0 && t.lc(w) {
		t.reportChunk(writeRead, addr, me, w)
	}
	return ch.mode.Load() == chunkUniform
}

// uniformWrite checks a write of every word of the uniform chunk ch, as
// uniformRead.
func (t *Task) uniformWrite(ch *chunk, addr uintptr, me uint64) bool {
	if raceHook != nil {
		raceHook(ch)
	}
	u := &ch.cells[0]
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

// raceHook, set by tests only, runs after a whole-chunk check found the
// chunk uniform and before it records its access: a test splits the chunk
// there, the race a whole-chunk check can lose.
var raceHook func(*chunk)

// reportChunk reports a conflict of me with source at each of the sixteen
// words from addr, as a check of each cell would.
func (t *Task) reportChunk(k kind, addr uintptr, me, source uint64) bool {
	ok := false
	for j := range uintptr(chunkCells) {
		ok = t.report(k, addr+j*8, me, source) || ok
	}
	return ok
}
