package rt

import (
	"sync/atomic"
	"testing"
	"unsafe"
)

// TestReadInCRecordsNothing: a read by a block already kept in C (it read
// before, then another block's read moved it there) leaves R and C as
// they were, in a split chunk's cell and in a uniform chunk's words: the
// state is that of the run without the repeated read, whose block's
// earlier read (its site) stays recorded. A write concurrent with both
// readers is then still reported.
func TestReadInCRecordsNothing(t *testing.T) {
	for _, whole := range []bool{false, true} {
		e := newEnv(t, "")
		c := e.enter(3, siteLoop)
		b, x, z := c.Fork(0), c.Fork(1), c.Fork(2)
		buf := chunkBuf(chunkCells)
		a := uintptr(unsafe.Pointer(&buf[0]))
		unsplit(b, a, chunkCells)
		read := func(tk *Task, site Site) {
			if whole {
				tk.ReadRange(a, chunkCells, 8, site)
			} else {
				tk.Read(a, site)
			}
		}
		read(b, siteA)
		read(x, siteX)
		ch := b.sh.chunk(chunkKey(a))
		var r, cc *atomic.Uint64
		if whole {
			if ch.mode.Load() != chunkUniform {
				t.Fatalf("whole-chunk reads split the chunk")
			}
			r, cc = &ch.u.r, &ch.u.c
		} else {
			r, cc = &ch.cellsOf()[0].r, &ch.cellsOf()[0].c
		}
		wr, wc := r.Load(), cc.Load()
		if wr>>tagShift != x.cur || wc>>tagShift != b.cur || wordSite(wc) != siteA {
			t.Fatalf("whole=%v: R %#x C %#x, want x's read in R and b's (site A) in C", whole, wr, wc)
		}
		read(b, siteSum)
		if r.Load() != wr || cc.Load() != wc {
			t.Fatalf("whole=%v: b's second read changed R %#x -> %#x, C %#x -> %#x", whole, wr, r.Load(), wc, cc.Load())
		}
		z.Write(a, siteSections)
		if len(e.reports()) == 0 {
			t.Fatalf("whole=%v: z's write, concurrent with both reads, not reported", whole)
		}
		c.Join()
	}
}
