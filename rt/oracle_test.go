package rt

import (
	"fmt"
	"slices"
)

// The oracle is the slow, obviously correct model the runtime is tested
// against: the explicit execution DAG of a program's blocks (program order
// within a goroutine, fork edges, join edges; work items as virtual children
// forked where the construct's first child was), reachability by bitsets,
// and every access of every location.

// oracle is the DAG of one program and its accesses.
type oracle struct {
	preds [][]int    // preds[v]: nodes with an edge to v; ids are a topological order
	reach [][]uint64 // reach[v]: bitset of the nodes that reach v (its predecessors)
	acc   []oAccess  // indexed by site
}

// oAccess is one access as the program text makes it.
type oAccess struct {
	site          int
	loc           int // the first word accessed
	n             int // the words accessed, from loc
	write, atomic bool
	locks         []int // held, sorted
	node          int
	valid         bool
}

// newNode adds a node with edges from preds.
func (o *oracle) newNode(preds ...int) int {
	o.preds = append(o.preds, slices.Clone(preds))
	return len(o.preds) - 1
}

// build walks prog and computes reachability.
func buildOracle(p *prog) *oracle {
	o := &oracle{acc: make([]oAccess, p.nsites+1)}
	root := o.newNode()
	cur := o.walkCon(p.top[0], root)
	cur = o.walk(p.mid, cur, nil)
	if len(p.top) > 1 {
		o.walkCon(p.top[1], cur)
	}
	n := len(o.preds)
	o.reach = make([][]uint64, n)
	for v := range n {
		r := make([]uint64, (n+63)/64)
		for _, u := range o.preds[v] {
			for i := range r {
				r[i] |= o.reach[u][i]
			}
			r[u/64] |= 1 << (u % 64)
		}
		o.reach[v] = r
	}
	return o
}

// walk records the accesses of ops, run in block cur, and returns the block
// that follows them.
func (o *oracle) walk(ops []op, cur int, locks []int) int {
	for _, x := range ops {
		switch x.kind {
		case opAccess:
			ls := slices.Clone(locks)
			slices.Sort(ls)
			o.acc[x.site] = oAccess{x.site, x.loc, max(x.n, 1), x.write, x.atomic, ls, cur, true}
		case opLocked:
			cur = o.walk(x.body, cur, append(slices.Clip(locks), x.lock))
		case opCon:
			cur = o.walkCon(x.con, cur)
		}
	}
	return cur
}

// walkCon models one construct entered in block cur and returns the
// parent's block after the join.
func (o *oracle) walkCon(c *conSpec, cur int) int {
	cur = o.newNode(cur) // P_0
	cur = o.walk(c.pre, cur, nil)
	var finals []int
	first := -1
	for i := range c.children {
		if i == 0 {
			first = cur
		}
		f := o.walk(c.children[i], o.newNode(cur), nil)
		if c.pool {
			f = o.walk(c.during[i], f, nil) // the worker's own block, whichever item it runs in
			f = o.walk(c.post[i], f, nil)
		}
		finals = append(finals, f)
		cur = o.walk(c.between[i], o.newNode(cur), nil)
	}
	if first >= 0 {
		for _, it := range c.items {
			finals = append(finals, o.walk(it, o.newNode(first), nil))
		}
	}
	return o.newNode(append(finals, cur)...)
}

// covers reports whether a accesses word loc.
func (a oAccess) covers(loc int) bool { return a.loc <= loc && loc < a.loc+a.n }

// precedes reports whether block u reaches block v.
func (o *oracle) precedes(u, v int) bool { return o.reach[v][u/64]&(1<<(u%64)) != 0 }

// concurrent reports whether two accesses run in unordered blocks.
func (o *oracle) concurrent(a, b oAccess) bool {
	return a.node != b.node && !o.precedes(a.node, b.node) && !o.precedes(b.node, a.node)
}

// classOf returns the class of two concurrent accesses to one location, or
// false if they do not conflict: at least one writes, a common lock makes it
// NONDETERMINISM, two atomics are NONDETERMINISM with atomics=1 and nothing
// otherwise, anything else is a DATA RACE.
func classOf(a, b oAccess, atomics bool) (class, bool) {
	if !a.write && !b.write {
		return 0, false
	}
	for _, l := range a.locks {
		if slices.Contains(b.locks, l) {
			return nondet, true
		}
	}
	if a.atomic && b.atomic {
		return nondet, atomics
	}
	return dataRace, true
}

// locClass is a location and a class of conflict on it.
type locClass struct {
	loc   int
	class class
}

// conflicts returns every (location, class) with a conflicting pair.
func (o *oracle) conflicts(atomics bool) map[locClass]bool {
	m := map[locClass]bool{}
	for i, a := range o.acc {
		for _, b := range o.acc[i+1:] {
			lo, hi := max(a.loc, b.loc), min(a.loc+a.n, b.loc+b.n)
			if !a.valid || !b.valid || lo >= hi || !o.concurrent(a, b) {
				continue
			}
			if cl, ok := classOf(a, b, atomics); ok {
				for loc := lo; loc < hi; loc++ {
					m[locClass{loc, cl}] = true
				}
			}
		}
	}
	return m
}

// checkReport returns why r is not a real conflict of the program, or "".
func (o *oracle) checkReport(r rawReport, loc int, atomics bool) string {
	si, so := int(wordSite(r.sink)), int(wordSite(r.source))
	if si >= len(o.acc) || so >= len(o.acc) || !o.acc[si].valid || !o.acc[so].valid {
		return fmt.Sprintf("report names unknown sites %d, %d", si, so)
	}
	a, b := o.acc[si], o.acc[so]
	wantSink := r.kind != writeRead
	wantSrc := r.kind != readWrite
	switch {
	case !a.covers(loc) || !b.covers(loc):
		return fmt.Sprintf("sites %d, %d access locations [%d:%d], [%d:%d], report is on %d", si, so, a.loc, a.loc+a.n, b.loc, b.loc+b.n, loc)
	case a.write != wantSink || b.write != wantSrc:
		return fmt.Sprintf("%s report but sink write=%v source write=%v", r.kind, a.write, b.write)
	case a.atomic != wordAtomic(r.sink) || b.atomic != wordAtomic(r.source):
		return "atomic flags do not match the sites"
	case !o.concurrent(a, b):
		return fmt.Sprintf("sites %d (node %d) and %d (node %d) are ordered", si, a.node, so, b.node)
	}
	cl, ok := classOf(a, b, atomics)
	if !ok {
		return "the pair is not a conflict"
	}
	if cl != r.class {
		return fmt.Sprintf("class %s, oracle says %s", r.class, cl)
	}
	return ""
}
