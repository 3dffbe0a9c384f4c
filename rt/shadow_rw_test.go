package rt

import "testing"

// TestRWIsOneWrite backs RW's single write check with the oracle: in random
// programs, a read of a location just before a plain write of it in the
// same block (what RW used to check besides the write) conflicts with no
// access, in no class, that the write does not conflict with in the same
// class. TestPropertyRandomPrograms checks that rt reports what the oracle
// finds for the programs without the reads.
func TestRWIsOneWrite(t *testing.T) {
	pairs := 0
	for seed := range uint64(2000) {
		p := genProg(seed)
		before := map[int]int{} // added read's site -> the write's site
		addReads(p, before)
		if len(before) == 0 {
			continue
		}
		o := buildOracle(p)
		atomics := seed%2 == 0
		for r, w := range before {
			for _, b := range o.acc {
				if !b.valid || b.loc != o.acc[r].loc || !o.concurrent(o.acc[r], b) {
					continue
				}
				cr, ok := classOf(o.acc[r], b, atomics)
				if !ok {
					continue
				}
				pairs++
				if !o.concurrent(o.acc[w], b) {
					t.Fatalf("seed %d: read %d conflicts with site %d, its write %d is ordered with it\n%v", seed, r, b.site, w, p)
				}
				if cw, ok := classOf(o.acc[w], b, atomics); !ok || cw != cr {
					t.Fatalf("seed %d: read %d conflicts with site %d as %s, its write %d as %s (%v)\n%v", seed, r, b.site, cr, w, cw, ok, p)
				}
			}
		}
	}
	if pairs == 0 {
		t.Fatal("no added read conflicts with anything: the test exercised nothing")
	}
	t.Logf("%d conflicting pairs of an added read, each also the write's", pairs)
}

// addReads puts a read of the same location before every plain write of p,
// each at a new site, and records the pairs in before.
func addReads(p *prog, before map[int]int) {
	for _, c := range p.top {
		addReadsCon(p, c, before)
	}
	p.mid = addReadsOps(p, p.mid, before)
}

// addReadsCon is addReads for one construct.
func addReadsCon(p *prog, c *conSpec, before map[int]int) {
	c.pre = addReadsOps(p, c.pre, before)
	for _, list := range [][][]op{c.children, c.between, c.post, c.items} {
		for i := range list {
			list[i] = addReadsOps(p, list[i], before)
		}
	}
}

// addReadsOps is addReads for one list of statements; it returns the new list.
func addReadsOps(p *prog, ops []op, before map[int]int) []op {
	var out []op
	for _, x := range ops {
		switch {
		case x.kind == opAccess && x.write && !x.atomic:
			p.nsites++
			before[p.nsites] = x.site
			out = append(out, op{kind: opAccess, site: p.nsites, loc: x.loc})
		case x.kind == opLocked:
			x.body = addReadsOps(p, x.body, before)
		case x.kind == opCon:
			addReadsCon(p, x.con, before)
		}
		out = append(out, x)
	}
	return out
}
