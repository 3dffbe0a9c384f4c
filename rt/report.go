package rt

import (
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
)

// kind is the order of the two conflicting accesses.
type kind uint8

const (
	writeWrite kind = iota // a write after a concurrent write
	writeRead              // a read after a concurrent write
	readWrite              // a write after a concurrent read
)

// String returns the kind as reports print it.
func (k kind) String() string {
	return [...]string{"WRITE-WRITE", "WRITE-READ", "READ-WRITE"}[k]
}

// class says whether a conflict is undefined behaviour or only ordered by
// the scheduler.
type class uint8

const (
	dataRace class = iota // unsynchronized (or atomic vs plain)
	nondet                // every access under one common lock, or atomic vs atomic
)

// String returns the class as reports print it.
func (c class) String() string { return [...]string{"DATA RACE", "NONDETERMINISM"}[c] }

// rawReport is one conflict as the check found it, before deduplication.
type rawReport struct {
	kind         kind
	class        class
	addr         uintptr
	sink, source uint64      // shadow words of the current and the earlier access
	hb           bool        // found by the happens-before layer: the words carry goroutine numbers, not block tags (hb_shadow.go)
	starts       [2]Site     // hb: the go statements that started the sink's and the source's goroutines (0: unknown)
	created      [2]*hbStack // hb: the stacks those go statements ran in (nil: unknown)
}

// report classifies the conflict between the current access sink and the
// earlier concurrent access source, and reports it. It returns false when
// the pair is no conflict (two atomics without atomics=1).
func (t *Task) report(k kind, addr uintptr, sink, source uint64) bool {
	tr := t.tree
	cl, ok := tr.classify(sink, source)
	if !ok {
		return false
	}
	tr.rep.add(tr, rawReport{kind: k, class: cl, addr: addr, sink: sink, source: source})
	return true
}

// classify returns the class of a conflict between two concurrent accesses,
// or false when they do not conflict. Conflicting accesses under a common
// lock are NONDETERMINISM (even if one of them is atomic: the lock orders
// them); otherwise an atomic against a plain access is a DATA RACE, and two
// atomics are NONDETERMINISM only with atomics=1.
func (tr *tree) classify(a, b uint64) (class, bool) {
	if tr.commonLock(wordLockset(a), wordLockset(b)) {
		return nondet, true
	}
	if wordAtomic(a) && wordAtomic(b) {
		return nondet, tr.rep.cfg.atomics
	}
	return dataRace, true
}

// stats are the counters summary=1 prints.
type stats struct {
	trees, constructs, blocks, checks atomic.Uint64
	exhausted, untracked              atomic.Uint64
}

// reporter deduplicates reports by (class, the two sites and their kinds
// up to order: key.id), prints each the first time and counts the
// repeats.
type reporter struct {
	cfg   config
	raw   func(rawReport)                  // tests: sees every conflict before deduplication
	cache [cacheSize]atomic.Pointer[entry] // recent entries by key hash: repeats count without a lock
	stats stats

	mu      sync.Mutex
	out     io.Writer // nil: opened on first use
	seen    map[key]*entry
	entries []*entry        // in the order found
	pending []pendingReport // found before their sites were registered (report_pending.go)
	program bool            // the program's reporter (defaultReporter), not a test engine's
	exit    func(int)
	unended bool // the program does not end through Fini (nofini.go)
}

const cacheSize = 1024

// key identifies a distinct report.
type key struct {
	kind         kind
	class        class
	sink, source Site
	hb           bool // the relation that found it (a pair both find is reported by each)
}

// id is the identity of the report k up to the order of its two
// accesses: the same two sites in conflict, whichever ran first. A
// WRITE-READ and a READ-WRITE of one write site and one read site are one
// report, as are the WRITE-WRITEs of two sites either way. Which order a
// check meets, or whether it meets both (two checks that interleave each
// see the other's access: slice_review_recover reported its one pair
// twice, once in about 1,500 runs on 4 threads), is the schedule's; the
// reports of a checked run are not, up to order (docs/runtime.md,
// "Reports").
func (k key) id() key {
	switch {
	case k.kind == readWrite:
		k.kind, k.sink, k.source = writeRead, k.source, k.sink
	case k.kind == writeWrite && k.source < k.sink:
		k.sink, k.source = k.source, k.sink
	}
	return k
}

// entry is a distinct report and how often it was found.
type entry struct {
	key        // as first found
	id     key // key.id(): what finds it again
	count  atomic.Int64
	masked bool          // NONDETERMINISM at an ordered-ok site
	sarif  *sarifPending // format=sarif: the result, described when found
}

// newReporter returns a reporter writing to out (nil: stderr or log_path).
func newReporter(cfg config, out io.Writer) *reporter {
	return &reporter{cfg: cfg, out: out, exit: os.Exit, seen: map[key]*entry{}}
}

// slot returns the cache slot of k.
func (r *reporter) slot(k key) *atomic.Pointer[entry] {
	h := (uint64(k.sink)<<32 | uint64(k.source)) * 0x9E3779B97F4A7C15
	h ^= uint64(k.kind)<<1 | uint64(k.class)
	if k.hb {
		h ^= 1 << 3
	}
	return &r.cache[(h>>40)%cacheSize]
}

// add records one conflict found in tr.
func (r *reporter) add(tr *tree, rep rawReport) {
	if r.raw != nil {
		r.raw(rep)
	}
	k := key{rep.kind, rep.class, wordSite(rep.sink), wordSite(rep.source), rep.hb}
	id := k.id()
	slot := r.slot(id)
	if e := slot.Load(); e != nil && e.id == id {
		e.count.Add(1)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := r.seen[id]; e != nil {
		e.count.Add(1)
		slot.Store(e)
		return
	}
	e := &entry{key: k, id: id, masked: rep.class == nondet && (orderedOK(k.sink) || orderedOK(k.source))}
	e.count.Add(1)
	r.seen[id] = e
	slot.Store(e)
	r.entries = append(r.entries, e)
	at := atTree(tr, rep)
	if r.keepPending(e, at, rep) {
		return
	}
	if e.masked {
		return
	}
	st := callerStack(k.sink)
	if r.cfg.sarif {
		e.sarif = describeSARIF(at, rep, st)
	} else {
		r.print(at, rep, st)
	}
	r.writeProgress()
	if r.cfg.halt && rep.class == dataRace {
		if r.cfg.sarif {
			r.writeSARIF(r.writer(), nil) // the log is all the output: write it before exiting
		}
		r.writeEnd(r.cfg.exitcode)
		r.exit(r.cfg.exitcode)
	}
}

// orderedOK reports whether site s carries the OrderedOK flag.
func orderedOK(s Site) bool {
	info, _ := siteInfo(s)
	return info.Flags&OrderedOK != 0
}

// writer returns the output, opening log_path.<pid> on first use.
func (r *reporter) writer() io.Writer {
	if r.out == nil {
		r.out = os.Stderr
		if r.cfg.logPath != "" {
			name := r.cfg.logPath + "." + strconv.Itoa(os.Getpid())
			if f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o666); err == nil {
				r.out = f
			}
		}
		r.out = r.tee(r.out)
	}
	return r.out
}
