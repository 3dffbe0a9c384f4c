package rt

// This file is the contract between the rewriter (instrument/rewrite) and the
// runtime: the names and signatures below are what instrumented code calls.
// instrument/rtnames mirrors them and a test keeps the two in sync. Change a
// signature here only together with the rewriter. The generic helpers in
// wrap.go and the aliasing guard in guard.go (which picks a construct's
// pruned or checked version) are part of the same contract, and so are
// opaque.go (calls into plain code) and nofini.go (test binaries that end
// without Fini).
//
// Every *Task method is safe on a nil receiver and then does nothing: the
// rewriter passes a nil task wherever code runs outside any construct, so a
// function cloned for checking can also be called from unchecked code.

// Site is a compact static id of an instrumented access or construct. Ids are
// assigned by the rewriter, unique within one checked binary, and registered
// with RegisterSites before any construct runs.
type Site = uint32

// SiteFlag qualifies a site.
type SiteFlag uint8

const (
	// OrderedOK masks NONDETERMINISM reports whose sink or source is this site
	// (the user's //goanomaly:ordered-ok comment).
	OrderedOK SiteFlag = 1 << iota
)

// SiteInfo describes one site for reports.
type SiteInfo struct {
	Pos   string   // file:line:col in the user's original source
	What  string   // the access as written, e.g. "a[idx[i]]", or a construct's kind, e.g. "parallel loop"
	Flags SiteFlag // OrderedOK, …
}

// RegisterSites records sites first, first+1, … of one instrumented package.
// It is called from the package's init; ranges of different packages do not
// overlap.
func RegisterSites(first Site, sites []SiteInfo) { registerSites(first, sites) }

// Enter begins one dynamic instance of a parallel construct in the goroutine
// whose task is t (nil: the goroutine is a root, and the construct starts a
// new tree). n is the number of goroutines the construct will fork if known at
// entry (a counted loop, a list of sections), or -1. site names the construct.
//
// Enter is never inlined, so a root Enter measures its stack depth the same
// way from every call site (current_root.go).
//
//go:noinline
func Enter(t *Task, n int, site Site) *Construct { return enter(t, n, site, false) }

// EnterFed is Enter for the fully checked version of a construct that an
// -hb build runs when the construct's blocks may race with a goroutine
// outside it (one alive at its start, or one its blocks start): when t
// is a thread's task, every check of the construct's tree also goes to
// the happens-before engine as an access of t's thread (hb_feed.go).
// Otherwise it is Enter.
//
//go:noinline
func EnterFed(t *Task, n int, site Site) *Construct { return enter(t, n, site, true) }

// Quiescent reports whether a construct that t, a thread's task, enters
// now can race with no goroutine but those its own blocks start: no
// other thread is alive or may start on its own (a callback registered
// to run later), and every access of the threads that ended happens
// before t. The rewriter of an -hb build runs a construct's pruned
// version when it holds, and its fully checked version, entered with
// EnterFed, otherwise. True for nil or a task that is no thread's.
func Quiescent(t *Task) bool {
	if t == nil || t.hb == nil {
		return true
	}
	return t.hb.eng.quiescent(t.hb)
}

// Task returns the task the parent goroutine uses for its own checks between
// Enter and Join (t itself, or the new root's task when Enter got nil).
func (c *Construct) Task() *Task { return c.parentTask() }

// Fork is called by the parent right before it starts the goroutine for
// iteration or section index. It returns the child's task; the parent
// continues in a new block, concurrent with the child.
func (c *Construct) Fork(index int) *Task { return c.fork(index) }

// Join is called by the parent right after the construct's join
// (wg.Wait, g.Wait, the last receive of a join channel) returned. The parent
// continues in a block that follows everything in the construct. A nil
// construct joins as a no-op: the rewriter leaves it nil when the version
// that ran needs no checks (every access proven, see the guard).
func (c *Construct) Join() {
	if c != nil {
		c.join()
	}
}

// Item starts a new work item in a worker of a worker-pool construct (a
// receive from the work channel, or an index taken from an atomic counter).
// Each item is a block of its own, concurrent with every other item and with
// the workers' code outside items, so the verdict does not depend on which
// worker took which item.
func (t *Task) Item() { t.item() }

// EndItems returns a worker to its own block after its last item.
func (t *Task) EndItems() { t.endItems() }

// Drains marks t, the task of a pool worker that calls a function value
// with the pool's channel ch, as draining ch: a callback it runs whose
// range receives from ch takes each value as a work item (ItemOf). The
// rewriter calls it only where the static stage proved that every
// goroutine of the construct runs the same function value on the same
// channel, filled and closed before the construct.
func (t *Task) Drains(ch any) { t.drains(ch) }

// ItemOf starts a new work item (as Item) when t drains ch (see Drains),
// and does nothing otherwise: a callback's range over its channel calls it
// at each receive, whoever calls the callback.
func (t *Task) ItemOf(ch any) { t.itemOf(ch) }

// EndItemsOf returns t to the worker's own block (as EndItems) when t
// drains ch, and does nothing otherwise.
func (t *Task) EndItemsOf(ch any) { t.endItemsOf(ch) }

// Worker returns the task that checks, inside a work item, an access whose
// address only the worker computes (its index, memory it owns): such an
// access belongs to the worker's own block, which its items follow in every
// schedule, and which is concurrent with the other workers and with every
// item. Outside items it is t. The rewriter uses it only where the static
// stage proved that no other worker computes the same address.
func (t *Task) Worker() *Task { return t.worker() }

// Read checks a read of the element at addr.
func (t *Task) Read(addr uintptr, site Site) { t.read(addr, site) }

// Write checks a write of the element at addr.
func (t *Task) Write(addr uintptr, site Site) { t.write(addr, site) }

// ReadRange checks reads of n consecutive elements of size elem from addr
// (copy, append, slicing of arrays).
func (t *Task) ReadRange(addr, n, elem uintptr, site Site) { t.readRange(addr, n, elem, site) }

// WriteRange checks writes of n consecutive elements of size elem from addr.
func (t *Task) WriteRange(addr, n, elem uintptr, site Site) { t.writeRange(addr, n, elem, site) }

// AtomicRead records a sync/atomic load of addr: synchronized, never a data
// race with another atomic access.
func (t *Task) AtomicRead(addr uintptr, site Site) { t.atomicRead(addr, site) }

// AtomicWrite records a sync/atomic store, swap, add or compare-and-swap of addr.
func (t *Task) AtomicWrite(addr uintptr, site Site) { t.atomicWrite(addr, site) }

// Lock records that the goroutine now holds the mutex at addr (after
// Lock or RLock returned). Accesses made while holding it and conflicting with
// accesses under the same mutex are NONDETERMINISM, not DATA RACE.
func (t *Task) Lock(mu uintptr) { t.lock(mu) }

// Unlock records that the goroutine no longer holds the mutex at addr
// (called right before Unlock or RUnlock).
func (t *Task) Unlock(mu uintptr) { t.unlock(mu) }

// Fini ends a checked program and never returns: it prints the summary if
// asked and exits. The exit status is status when it is not 0, else the
// configured exitcode (default 66) when a DATA RACE was reported (or a
// NONDETERMINISM with nondet=error), else 0. The rewriter calls it when main
// returns (Fini(0)) and after a test binary's m.Run (Fini(m.Run())).
func Fini(status int) { fini(status) }
