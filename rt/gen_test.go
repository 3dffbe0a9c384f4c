package rt

import (
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"unsafe"
)

// Random fork-join programs for the property test: constructs (counted and
// uncounted loops, worker pools) nested up to maxDepth, parent work between
// forks (possibly a whole construct), reads and writes of a few locations,
// some under locks, some atomic. A program is a value; run executes it with
// real goroutines through rt's API, buildOracle models it.

type opKind uint8

const (
	opAccess opKind = iota
	opLocked
	opCon
)

// op is one statement of a generated program.
type op struct {
	kind          opKind
	site          int // opAccess: the access's site id (unique in the program)
	loc           int // the word accessed, or the first of a range
	n             int // words from loc a range check covers; 0 for one element
	write, atomic bool
	lock          int  // opLocked: the lock held while body runs
	body          []op // opLocked
	con           *conSpec
	yield         bool // call runtime.Gosched first
	worker        bool // opAccess inside a work item, checked with the worker's own block (Task.Worker)
}

// conSpec is one construct: the parent runs pre, then forks child i and runs
// between[i]; child i runs children[i]. In a worker pool the workers then
// take items from a channel (each a block of its own) and run post[i];
// during[i] are the accesses worker i makes inside an item to memory only it
// addresses (checked with Task.Worker), run in its first item or, when it
// got none, in an empty item of their own.
type conSpec struct {
	counted  bool
	pool     bool
	pre      []op
	children [][]op
	between  [][]op
	post     [][]op
	items    [][]op
	during   [][]op
}

// prog is a generated program: one construct in a new tree, root work, and
// optionally a second construct entered by the same root task.
type prog struct {
	seed   uint64
	top    []*conSpec
	mid    []op
	nsites int
	nlocs  int   // element locations, at words pos[0..nlocs)
	pos    []int // the word of each element location, in [0, nWords)
	ranges bool  // some accesses are range checks (ReadRange, WriteRange)
	nlocks int
	nested bool // some construct runs inside another
}

// gen holds the generator's state.
type gen struct {
	r        *rand.Rand
	p        *prog
	maxDepth int
}

// genProg returns the program of seed.
func genProg(seed uint64) *prog {
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), p: &prog{seed: seed}}
	g.maxDepth = 1 + g.r.IntN(4)
	g.p.nlocs = 1 + g.r.IntN(4)
	g.p.pos = g.r.Perm(nWords)[:g.p.nlocs]
	g.p.ranges = g.r.IntN(2) == 0
	g.p.nlocks = g.r.IntN(3)
	g.p.top = append(g.p.top, g.con(1))
	if g.r.IntN(4) == 0 {
		g.p.mid = g.ops(2, 3, false, 0)
		g.p.top = append(g.p.top, g.con(1))
	}
	return g.p
}

// con generates a construct at nesting depth d (1: outermost).
func (g *gen) con(d int) *conSpec {
	c := &conSpec{counted: g.r.IntN(2) == 0, pool: g.r.IntN(5) == 0}
	n := g.r.IntN(5)
	if d == 1 && g.r.IntN(6) == 0 {
		n = 5 + g.r.IntN(8) // past the first chunk of an uncounted construct
	}
	c.pre = g.ops(d+1, 2, true, 0)
	for range n {
		c.children = append(c.children, g.ops(d+1, 3, true, 0))
		c.between = append(c.between, g.ops(d+1, 2, true, 0))
		if c.pool {
			c.post = append(c.post, g.ops(d+1, 2, true, 0))
		}
	}
	if c.pool {
		for range g.r.IntN(12) {
			c.items = append(c.items, g.ops(d+1, 3, true, 0))
		}
		for range n {
			ops := g.ops(d+1, 3, false, 0)
			markWorker(ops)
			c.during = append(c.during, ops)
		}
	}
	return c
}

// markWorker marks the accesses of ops (and of their critical sections) as
// the worker's own.
func markWorker(ops []op) {
	for i := range ops {
		ops[i].worker = true
		markWorker(ops[i].body)
	}
}

// ops generates up to max statements; constructs only when allowed and
// the depth permits, locks only with ids >= minLock (so nested locking has
// one global order and cannot deadlock).
func (g *gen) ops(d, max int, allowCon bool, minLock int) []op {
	var out []op
	for range g.r.IntN(max + 1) {
		switch k := g.r.IntN(100); {
		case k < 12 && allowCon && d <= g.maxDepth:
			if d > 1 {
				g.p.nested = true
			}
			out = append(out, op{kind: opCon, con: g.con(d)})
		case k < 30 && minLock < g.p.nlocks:
			l := minLock + g.r.IntN(g.p.nlocks-minLock)
			out = append(out, op{kind: opLocked, lock: l, body: g.ops(d, 3, false, l+1)})
		case k < 55 && g.p.ranges:
			g.p.nsites++
			lo, n := g.span()
			out = append(out, op{kind: opAccess, site: g.p.nsites, loc: lo, n: n,
				write: g.r.IntN(2) == 0, yield: g.r.IntN(6) == 0})
		default:
			g.p.nsites++
			out = append(out, op{kind: opAccess, site: g.p.nsites, loc: g.p.pos[g.r.IntN(g.p.nlocs)],
				write: g.r.IntN(2) == 0, atomic: g.r.IntN(8) == 0, yield: g.r.IntN(6) == 0})
		}
	}
	return out
}

// nWords is the number of words the locations of a program lie in: two
// chunks of the shadow, 128-byte aligned (see runProg), so that range
// checks cover whole chunks (kept uniform, see uniform.go), partial ones,
// and the words element accesses touch.
const nWords = 2 * chunkCells

// span returns the words of a range check: mostly whole chunks, sometimes
// a part of the words.
func (g *gen) span() (lo, n int) {
	switch g.r.IntN(5) {
	case 0:
		return 0, chunkCells
	case 1:
		return chunkCells, chunkCells
	case 2:
		return 0, nWords
	}
	lo = g.r.IntN(nWords)
	return lo, 1 + g.r.IntN(nWords-lo)
}

// runner executes a program with real goroutines.
type runner struct {
	p     *prog
	locs  []int64
	locks []sync.Mutex
	rep   *reporter
}

// run executes p once with cfg and returns every conflict rt found.
func runProg(p *prog, cfg config) ([]rawReport, *runner) {
	var mu sync.Mutex
	var reps []rawReport
	buf := make([]int64, nWords+chunkCells)
	skip := (-uintptr(unsafe.Pointer(&buf[0]))) % 128 / 8
	r := &runner{p: p, locs: buf[skip : skip+nWords], locks: make([]sync.Mutex, p.nlocks)}
	r.rep = newReporter(cfg, io.Discard)
	r.rep.raw = func(x rawReport) {
		mu.Lock()
		reps = append(reps, x)
		mu.Unlock()
	}
	root := newRootTask(newTree(r.rep))
	r.con(root, p.top[0])
	r.exec(root, p.mid)
	if len(p.top) > 1 {
		r.con(root, p.top[1])
	}
	return reps, r
}

// loc returns the location index of addr, or -1.
func (r *runner) loc(addr uintptr) int {
	for i := range r.locs {
		if uintptr(unsafe.Pointer(&r.locs[i])) == addr {
			return i
		}
	}
	return -1
}

// exec runs ops in task t.
func (r *runner) exec(t *Task, ops []op) {
	for _, x := range ops {
		switch x.kind {
		case opAccess:
			if x.yield {
				runtime.Gosched()
			}
			addr, s := uintptr(unsafe.Pointer(&r.locs[x.loc])), Site(x.site)
			t := t
			if x.worker {
				t = t.Worker()
			}
			switch {
			case x.n > 0 && x.write:
				t.writeRange(addr, uintptr(x.n), 8, s)
			case x.n > 0:
				t.readRange(addr, uintptr(x.n), 8, s)
			case x.atomic && x.write:
				t.AtomicWrite(addr, s)
			case x.atomic:
				t.AtomicRead(addr, s)
			case x.write:
				t.Write(addr, s)
			default:
				t.Read(addr, s)
			}
		case opLocked:
			mu := &r.locks[x.lock]
			mu.Lock()
			t.Lock(uintptr(unsafe.Pointer(mu)))
			r.exec(t, x.body)
			t.Unlock(uintptr(unsafe.Pointer(mu)))
			mu.Unlock()
		case opCon:
			r.con(t, x.con)
		}
	}
}

// con runs one construct entered by t.
func (r *runner) con(t *Task, c *conSpec) {
	n := -1
	if c.counted {
		n = len(c.children)
	}
	k := t.enter(n, 1<<20)
	pt := k.Task()
	r.exec(pt, c.pre)
	work := make(chan int, len(c.items))
	for i := range c.items {
		work <- i
	}
	close(work)
	var wg sync.WaitGroup
	for i := range c.children {
		ct := k.Fork(-1)
		wg.Go(func() {
			r.exec(ct, c.children[i])
			if c.pool {
				done := false
				for it := range work {
					ct.Item()
					r.exec(ct, c.items[it])
					if !done {
						r.exec(ct, c.during[i])
						done = true
					}
				}
				if !done {
					ct.Item()
					r.exec(ct, c.during[i])
				}
				ct.EndItems()
				r.exec(ct, c.post[i])
			}
		})
		r.exec(pt, c.between[i])
	}
	wg.Wait()
	k.Join()
}

// String prints the program for a failure message.
func (p *prog) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d: element locations at words %v, %d locks, nested=%v\n", p.seed, p.pos, p.nlocks, p.nested)
	p.top[0].print(&b, "")
	if len(p.top) > 1 {
		b.WriteString("root:\n")
		printOps(&b, p.mid, "  ")
		p.top[1].print(&b, "")
	}
	return b.String()
}

// print writes c indented.
func (c *conSpec) print(b *strings.Builder, in string) {
	fmt.Fprintf(b, "%sconstruct counted=%v pool=%v\n", in, c.counted, c.pool)
	fmt.Fprintf(b, "%s parent pre:\n", in)
	printOps(b, c.pre, in+"  ")
	for i := range c.children {
		fmt.Fprintf(b, "%s child %d:\n", in, i)
		printOps(b, c.children[i], in+"  ")
		if c.pool {
			fmt.Fprintf(b, "%s worker %d inside an item, its own block:\n", in, i)
			printOps(b, c.during[i], in+"  ")
			fmt.Fprintf(b, "%s worker %d after items:\n", in, i)
			printOps(b, c.post[i], in+"  ")
		}
		fmt.Fprintf(b, "%s parent after fork %d:\n", in, i)
		printOps(b, c.between[i], in+"  ")
	}
	for i, it := range c.items {
		fmt.Fprintf(b, "%s item %d:\n", in, i)
		printOps(b, it, in+"  ")
	}
}

// printOps writes ops indented.
func printOps(b *strings.Builder, ops []op, in string) {
	for _, x := range ops {
		switch x.kind {
		case opAccess:
			rw := map[bool]string{true: "write", false: "read"}[x.write]
			if x.atomic {
				rw = "atomic " + rw
			}
			if x.worker {
				rw = "worker's " + rw
			}
			if x.n > 0 {
				fmt.Fprintf(b, "%s%s loc[%d:%d] (site %d)\n", in, rw, x.loc, x.loc+x.n, x.site)
				break
			}
			fmt.Fprintf(b, "%s%s loc%d (site %d)\n", in, rw, x.loc, x.site)
		case opLocked:
			fmt.Fprintf(b, "%slock L%d:\n", in, x.lock)
			printOps(b, x.body, in+"  ")
		case opCon:
			x.con.print(b, in)
		}
	}
}
