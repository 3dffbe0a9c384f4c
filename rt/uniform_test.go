package rt

import (
	"testing"
	"unsafe"
)

// chunkBuf returns n words starting at a chunk boundary (128 bytes), so
// that a range over them covers whole chunks.
func chunkBuf(n int) []int64 {
	buf := make([]int64, n+chunkCells)
	skip := (-uintptr(unsafe.Pointer(&buf[0]))) % 128 / 8
	return buf[skip : skip+uintptr(n)]
}

// TestUniformRecordsOnce: a whole-chunk range check records its access in
// the chunk's first cell and leaves the others alone; the first element access
// splits the chunk, and then every cell holds the range's words.
func TestUniformRecordsOnce(t *testing.T) {
	e := newEnv(t, "")
	c := e.enter(1, siteLoop)
	tk := c.Fork(0)
	buf := chunkBuf(2 * chunkCells)
	a := uintptr(unsafe.Pointer(&buf[0]))
	unsplit(tk, a, 2*chunkCells)
	tk.WriteRange(a, 2*chunkCells, 8, siteA)
	tk.ReadRange(a, 2*chunkCells, 8, siteX)
	ch := tk.sh.chunk(chunkKey(a))
	u := &ch.u
	if ch.mode.Load() != chunkUniform || u.w.Load() == 0 || u.r.Load() == 0 {
		t.Fatalf("mode %d, u.w %#x, u.r %#x: want the range recorded uniformly", ch.mode.Load(), u.w.Load(), u.r.Load())
	}
	if ch.cells.Load() != nil {
		t.Fatalf("cells allocated while the chunk is uniform")
	}
	w, r := u.w.Load(), u.r.Load()
	tk.Read(a+3*8, siteX)
	if ch.mode.Load() != chunkSplit {
		t.Fatalf("an element access left mode %d", ch.mode.Load())
	}
	cs := ch.cellsOf()
	for k := range cs {
		if cs[k].w.Load() != w || cs[k].r.Load() != r {
			t.Fatalf("cell %d: w %#x r %#x, want the uniform %#x %#x", k, cs[k].w.Load(), cs[k].r.Load(), w, r)
		}
	}
	if ch2 := tk.sh.chunk(chunkKey(a + 16*8)); ch2.mode.Load() != chunkUniform {
		t.Fatalf("the next chunk was split too")
	}
	c.Join()
}

// unsplit makes the chunks of n words from a uniform and empty: the tree's
// table may be a finished tree's, whose chunks at these addresses were
// split (see recycle). Only while no other goroutine checks in them.
func unsplit(tk *Task, a uintptr, n int) {
	for k := 0; k < n; k += chunkCells {
		tk.sh.chunk(chunkKey(a + uintptr(k)*8)).reset()
	}
}

// chunkKey is the key of addr's chunk.
func chunkKey(addr uintptr) uintptr { key, _ := chunkOf(addr); return key }

// TestUniformReportsEveryElement: a range write concurrent with a range
// read of the same whole chunks is reported at every element, as the cells
// would report it, with the sites of both ranges; a partial range
// overlapping a uniform chunk is reported on the overlap only.
func TestUniformReportsEveryElement(t *testing.T) {
	e := newEnv(t, "")
	buf := chunkBuf(2 * chunkCells)
	a := uintptr(unsafe.Pointer(&buf[0]))
	e.parallel(2, siteLoop, func(i int, t *Task) {
		if i == 0 {
			t.WriteRange(a, 2*chunkCells, 8, siteA)
			return
		}
		t.ReadRange(a, 2*chunkCells, 8, siteX)
	})
	at := map[uintptr]bool{}
	for _, r := range e.reports() {
		if sites := [2]Site{wordSite(r.sink), wordSite(r.source)}; sites != [2]Site{siteA, siteX} && sites != [2]Site{siteX, siteA} {
			t.Errorf("report names sites %v", sites)
		}
		at[r.addr] = true
	}
	for k := range uintptr(2 * chunkCells) {
		if !at[a+k*8] {
			t.Errorf("no report at element %d", k)
		}
	}

	e = newEnv(t, "")
	e.parallel(2, siteLoop, func(i int, t *Task) {
		if i == 0 {
			t.WriteRange(a, chunkCells, 8, siteA)
			return
		}
		t.ReadRange(a+5*8, 4, 8, siteX)
	})
	at = map[uintptr]bool{}
	for _, r := range e.reports() {
		at[r.addr] = true
	}
	for k := range uintptr(chunkCells) {
		if want := k >= 5 && k < 9; at[a+k*8] != want {
			t.Errorf("element %d reported %v, want %v", k, at[a+k*8], want)
		}
	}
}

// TestUniformRaces runs hand-written programs in which concurrent blocks
// make whole-chunk range checks while others split the chunk (element
// accesses, partial ranges, atomics), many times with real goroutines, and
// compares every run with the oracle: a whole-chunk check that loses a
// race with a split must still record and report its access.
func TestUniformRaces(t *testing.T) {
	rng := func(lo, n int, write bool) op { return op{kind: opAccess, loc: lo, n: n, write: write} }
	elem := func(loc int, write, atomic bool) op {
		return op{kind: opAccess, loc: loc, write: write, atomic: atomic}
	}
	bodies := [][][]op{
		{{rng(0, 16, true)}, {elem(3, false, false)}, {rng(0, 32, false)}, {elem(20, true, false)}},
		{{rng(0, 32, false)}, {rng(0, 32, false)}, {elem(7, true, false)}, {rng(16, 16, false)}},
		{{rng(0, 16, true), rng(16, 16, true)}, {rng(4, 3, false)}, {elem(0, false, true)}, {rng(0, 32, true)}},
		{{rng(0, 32, false)}, {rng(0, 32, true)}, {rng(0, 32, false)}, {elem(31, false, false), elem(15, false, false)}},
	}
	n := 600
	if testing.Short() {
		n = 100
	}
	for run := range n {
		body := bodies[run%len(bodies)]
		p := &prog{seed: uint64(run), nlocs: 1, pos: []int{0}, ranges: true}
		c := &conSpec{counted: true}
		for _, ops := range body {
			ops = append([]op(nil), ops...)
			for i := range ops {
				p.nsites++
				ops[i].site = p.nsites
				ops[i].yield = run%3 == 0
			}
			c.children = append(c.children, ops)
			c.between = append(c.between, nil)
		}
		p.top = []*conSpec{c}
		if _, err := checkProg(p, false); err != nil {
			t.Fatalf("run %d: %v\nprogram:\n%v", run, err, p)
		}
	}
}

// TestUniformFreshMarks: fresh on a uniform chunk with history splits it
// and clears the cell with a word no late copy of the uniform history can
// overwrite; on a chunk never checked it does nothing.
func TestUniformFreshMarks(t *testing.T) {
	e := newEnv(t, "")
	c := e.enter(1, siteLoop)
	tk := c.Fork(0)
	buf := chunkBuf(2 * chunkCells)
	a := uintptr(unsafe.Pointer(&buf[0]))
	unsplit(tk, a, 2*chunkCells)
	tk.WriteRange(a, chunkCells, 8, siteA)
	tk.Read(a+chunkCells*8, siteA) // the second chunk: split, the first's neighbour
	ch := tk.sh.chunk(chunkKey(a))
	tk.fresh(a+2*8, 8)
	if ch.mode.Load() != chunkSplit || ch.cellsOf()[2].w.Load() != clearedWord {
		t.Fatalf("mode %d, cell 2 w %#x", ch.mode.Load(), ch.cellsOf()[2].w.Load())
	}
	split := ch.u.w.Load()
	ch.split(tk.sh) // a late copier: must not bring the freed history back
	fill(&ch.cellsOf()[2].w, split)
	if ch.cellsOf()[2].w.Load() != clearedWord || ch.cellsOf()[3].w.Load() != split {
		t.Fatalf("cells after a late copy: %#x %#x", ch.cellsOf()[2].w.Load(), ch.cellsOf()[3].w.Load())
	}
	c.Join()
}

// TestUniformDoesNotAllocate: range checks of uniform chunks, and the split
// of one, allocate nothing.
func TestUniformDoesNotAllocate(t *testing.T) {
	e := newEnv(t, "")
	c := e.enter(1, siteLoop)
	tk := c.Fork(0)
	buf := chunkBuf(4 * chunkCells)
	a := uintptr(unsafe.Pointer(&buf[0]))
	run := func() {
		tk.ReadRange(a, 4*chunkCells, 8, siteA)
		tk.WriteRange(a, 4*chunkCells, 8, siteX)
	}
	run()
	if n := testing.AllocsPerRun(1000, run); n != 0 {
		t.Errorf("%v allocs per run", n)
	}
	if n := testing.AllocsPerRun(1, func() { tk.Read(a, siteA) }); n != 0 {
		t.Errorf("split: %v allocs", n)
	}
	c.Join()
}

// TestUniformLostRace: a whole-chunk check that found the chunk uniform,
// but whose chunk another block splits (an element access) before it
// records, still records and reports its access, cell by cell.
func TestUniformLostRace(t *testing.T) {
	for _, rangeWrites := range []bool{true, false} {
		e := newEnv(t, "")
		buf := chunkBuf(chunkCells)
		a := uintptr(unsafe.Pointer(&buf[0]))
		c := e.enter(2, siteLoop)
		ta, tb := c.Fork(0), c.Fork(1)
		unsplit(ta, a, chunkCells)
		raceHook = func(ch *chunk, at int) {
			if at != hookBefore {
				return
			}
			raceHook = nil
			if rangeWrites {
				tb.Read(a+5*8, siteX)
			} else {
				tb.Write(a+5*8, siteX)
			}
		}
		if rangeWrites {
			ta.WriteRange(a, chunkCells, 8, siteA)
		} else {
			ta.ReadRange(a, chunkCells, 8, siteA)
		}
		raceHook = nil
		c.Join()
		got := e.reports()
		if len(got) == 0 || got[0].addr != a+5*8 {
			t.Errorf("range writes %v: reports %v, want one at element 5", rangeWrites, got)
		}
	}
}

// BenchmarkReadRangeChunks is BenchmarkReadRange over whole chunks (a
// 128-byte aligned run of 64 words): four uniform chunks, one protocol run
// each. (BenchmarkReadRange's buffer is on the stack, aligned anyhow: it
// mostly pays for the cells of its two partial chunks.)
func BenchmarkReadRangeChunks(b *testing.B) {
	t, c := benchTask(b, "")
	defer c.Join()
	buf := chunkBuf(64)
	a := uintptr(unsafe.Pointer(&buf[0]))
	b.ReportAllocs()
	for b.Loop() {
		t.ReadRange(a, 64, 8, 1)
	}
}

// TestUniformSplitFirstCell is the interleaving of the property test's
// seed 1469: a whole-chunk check finds the chunk uniform; before it reads
// the uniform history, another block's access of the chunk's first element
// splits the chunk and records itself in the first cell. The whole-chunk
// check must report that access at the first element only: it is no
// access of the other fifteen.
func TestUniformSplitFirstCell(t *testing.T) {
	for _, rangeWrites := range []bool{true, false} {
		e := newEnv(t, "")
		buf := chunkBuf(chunkCells)
		a := uintptr(unsafe.Pointer(&buf[0]))
		c := e.enter(2, siteLoop)
		ta, tb := c.Fork(0), c.Fork(1)
		unsplit(ta, a, chunkCells)
		raceHook = func(ch *chunk, at int) {
			if at != hookBefore {
				return
			}
			raceHook = nil
			if rangeWrites {
				tb.Read(a, siteX)
			} else {
				tb.Write(a, siteX)
			}
		}
		if rangeWrites {
			ta.WriteRange(a, chunkCells, 8, siteA)
		} else {
			ta.ReadRange(a, chunkCells, 8, siteA)
		}
		raceHook = nil
		c.Join()
		got := e.reports()
		if len(got) == 0 {
			t.Errorf("range writes %v: no report", rangeWrites)
		}
		for _, r := range got {
			if r.addr != a {
				t.Errorf("range writes %v: a report at element %d, which only the range accessed", rangeWrites, (r.addr-a)/8)
			}
		}
	}
}

// TestUniformSplitTornRead: a whole-chunk read swaps itself into R; before
// it stores the reader it replaced into C, a split copies the chunk, so the
// cells get the new R and not the old reader. The read, having lost the
// race, must store that reader into the cells itself: a later write
// concurrent with the old reader (and ordered after the new one) conflicts
// with it at every element.
func TestUniformSplitTornRead(t *testing.T) {
	e := newEnv(t, "")
	buf := chunkBuf(chunkCells)
	a := uintptr(unsafe.Pointer(&buf[0]))
	c := e.enter(2, siteLoop)
	tp := c.Fork(0)
	unsplit(tp, a, chunkCells)
	tp.ReadRange(a, chunkCells, 8, siteA) // the old reader, concurrent with all below
	raceHook = func(ch *chunk, at int) {
		if at == hookSwapped {
			raceHook = nil
			tp.Read(a+5*8, siteA) // splits
		}
	}
	c.Task().ReadRange(a, chunkCells, 8, siteSum) // the parent between forks: precedes child 1
	raceHook = nil
	tw := c.Fork(1)
	tw.Write(a+9*8, siteX)
	c.Join()
	found := false
	for _, r := range e.reports() {
		if r.addr == a+9*8 && r.kind == readWrite && wordSite(r.source) == siteA && wordSite(r.sink) == siteX {
			found = true
		}
	}
	if !found {
		t.Errorf("no READ-WRITE at element 9 between the old reader and the write; reports %v", e.reports())
	}
}

// TestUniformSeed1469 runs the property test's program of seed 1469 many
// times: a whole-chunk write racing a one-word read of the chunk's first
// word, which split the chunk and was then reported at its neighbour
// (TestUniformSplitFirstCell is the interleaving made deterministic).
func TestUniformSeed1469(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 50
	}
	p := genProg(1469)
	for run := range n {
		if _, err := checkProg(p, false); err != nil {
			t.Fatalf("run %d: %v\nprogram:\n%v", run, err, p)
		}
	}
}
