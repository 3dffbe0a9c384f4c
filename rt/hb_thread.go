package rt

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// A thread of the happens-before layer is a goroutine that HBRoot or
// (*Spawn).Start made one. It has a vector clock (hb_clock.go) and a
// buffer of pending acquires: a hook placed before an operation that may
// wait (a receive, Wait, a load) cannot acquire yet, since what it waits
// for has not been released, so it records the object and the thread's
// next hook acquires it, after the operation returned; a check that would
// report applies them first (see api_hb.go).
//
// The engine's core takes explicit threads (the property test plays
// several threads from one goroutine); the goroutine-local table of
// hb_gls.go is only the outer layer that finds the caller's thread.

// hbEngine is the state the threads of one program share: the global
// clock, the objects' clocks and the shadow of plain and atomic accesses.
// The program has one (global.hb); tests make their own.
type hbEngine struct {
	rep   *reporter // nil: the program's (defaultReporter), looked up at the first report
	slots hbSlots   // the threads' slots in the clocks, reused (hb_slot.go)

	gmu  sync.Mutex
	g    vclock        // the global clock G: Foreign, EndRoot and ExitJoined release to it, every acquire joins it
	gver atomic.Uint64 // bumped under gmu at each release to G, so an acquire skips an unchanged G

	objs    [hbShards]hbObjShard // synchronization objects' clocks (hb_sync.go)
	regions hbRegions            // the shadow's cells (hb_region.go)
	exts    hbExts               // the cells' extensions (hb_ext.go)
	mem     hbMem                // where regions and extensions' records come from (hb_mem_unix.go)

	cellLocks [hbCellLocks]hbCellLock // the cells' mutexes (hb_cell.go)

	escaped    sync.Map    // addresses of objects Escape marked: their releases also go to G
	anyEscaped atomic.Bool // escaped holds one
	all        hbAll       // every thread, for AcquireAll (hb_all.go)

	locks [hbShards]hbLockShard // mutexes' states (hb_wcp_lock.go)

	gcOnce      sync.Once     // arms the collection counter once (hb_gen.go)
	generations atomic.Bool   // the shadow turns generations at collections
	gcGen       atomic.Uint64 // collections counted
	pace        hbPace        // collections asked for at the shadow's pace (hb_pace.go)
	stacks      hbDepot       // the stacks goroutines were created in (hb_depot.go)
	made        hbMade        // the shadow memory made, for summary=1
}

// hbMade counts the bytes of shadow memory an engine made: its regions'
// cells and its extensions' records (given back records are reused, so
// this is their peak). summary=1 prints them (fini.go).
type hbMade struct{ cells, records atomic.Uint64 }

const (
	hbShards    = 64
	hbShardBits = 6
)

// reporter returns where e's reports go.
func (e *hbEngine) reporter() *reporter {
	if e.rep != nil {
		return e.rep
	}
	return defaultReporter()
}

// hbThread is one thread. Hooks take mu, because the blocks of a construct
// the thread entered act on its clock concurrently (see hbOf); its own
// goroutine's checks take it only while such a construct is open
// (entered), and otherwise read the clock without a lock.
type hbThread struct {
	eng  *hbEngine
	id   uint32 // the thread's slot (hb_slot.go)
	task Task   // the thread's task: hb = this thread, sh = nil

	mu    sync.Mutex
	vc    vclock
	gver  uint64                  // the version of G vc last joined
	pend  []hbKey                 // objects to acquire at the next hook; the buffer is kept
	objs  [hbObjCache]hbObjCached // objects the thread synchronized on lately (obj)
	full  []unsafe.Pointer        // channels whose receivers' clock a send acquires if their buffer is full then (ChanSend)
	npend atomic.Int32            // len(pend), read by the check path without mu

	// Trees this thread's task entered and whose root has not joined:
	// their blocks may act on vc concurrently, so the thread's own checks
	// take mu too (access).
	entered atomic.Int32

	lastAcc   uint32                // the slot's clock at its last access recorded in the shadow: the thread's, or before its first, its predecessors' (hbSlots: who may take the slot)
	retired   bool                  // end gave the slot back
	cache     [hbCacheSize]hbCached // words this thread checked lately (repeat); its goroutine's only
	cacheGen  uint64                // the shadow generation the cache was filled in
	region    *hbRegion             // the region of the thread's last check that missed the cache
	scratch   [4][]hbEnt            // a cell's lists while a check changes them (hbEngine.record)
	growFresh bool                  // the last Grow of the thread found that its append allocates (Appended)

	wcp hbWCPThread // H, P's own entry and the open critical sections (hb_wcp.go)

	roots  int  // HBRoot calls not yet ended on this thread
	byRoot bool // HBRoot made the thread (EndRoot of the last ends it)
}

// hbSpawn is the clock a go statement hands to the goroutine it starts.
type hbSpawn struct {
	eng   *hbEngine
	id    uint32
	vc    vclock
	pself uint32 // what vc knew of the slot before it was taken (hbSlots.take)
	last  uint32 // the slot's last access when it was taken (hbSlots.take)
}

// newThread returns thread number id with clock vc (owned) of engine e.
func (e *hbEngine) newThread(id uint32, vc vclock) *hbThread {
	th := &hbThread{eng: e, id: id, vc: vc}
	th.task.hb = th
	return th
}

// root returns a new thread that begins after everything released to G.
// Its slot is taken once its clock holds G: an exited thread's that G
// covers (one that ended with EndRoot or ExitJoined: the tests before).
func (e *hbEngine) root() *hbThread {
	th := e.newThread(0, nil)
	th.acquireG()
	th.id, th.wcp.pself, th.lastAcc = e.slots.take(&th.vc, 0, nil)
	return th
}

// end gives back the slot of the thread, which does nothing more: its
// goroutine ends (Exit, ExitJoined) or its last HBRoot ended. A thread
// whose clock construct blocks still share (entered) keeps its slot.
// Under mu.
func (th *hbThread) end() {
	if th.retired || th.entered.Load() != 0 {
		return
	}
	th.retired = true
	th.eng.slots.retire(th.id, th.lastAcc, th.vc[th.id], th.hclock())
}

// epoch returns the thread's current epoch.
func (th *hbThread) epoch() epoch { return mkEpoch(th.id, th.vc[th.id]) }

// tick moves the thread past a release: its later accesses do not precede
// what acquires the released clock.
func (th *hbThread) tick() { th.vc[th.id]++ }

// takePending acquires every pending object and G. clear empties the
// buffer: only After does (the rewriter puts it right after the statement
// whose operations made them pending returned). Every other hook applies
// them and keeps them, and so does a check about to report (access) and a
// block of a construct (hbOf): a hook may come before the operation its
// pending acquire is for has returned — the hooks of one select's cases
// run one after another at its entry, and a block's pending receive may be
// another block's — and the acquire must still be taken after it.
// Applying one again later only adds orderings. Under mu.
func (th *hbThread) takePending(clear bool) {
	if len(th.pend) == 0 {
		return
	}
	for _, k := range th.pend {
		th.acquireObj(k)
	}
	for _, p := range th.full {
		if chanFull(p) {
			th.acquireObj(hbKey{uintptr(p), hbChanRecv})
		}
	}
	th.acquireG()
	if clear {
		th.pend = th.pend[:0]
		for i := range th.full {
			th.full[i] = nil // let the channels go
		}
		th.full = th.full[:0]
		th.npend.Store(0)
	}
}

// addPending makes k an acquire of the thread's next event. Under mu.
func (th *hbThread) addPending(k hbKey) {
	for _, p := range th.pend {
		if p == k {
			return
		}
	}
	th.pend = append(th.pend, k)
	th.npend.Store(int32(len(th.pend)))
}

// addFull makes the receivers' clock of channel p a pending acquire,
// taken only if p's buffer is full when it is (ChanSend). Under mu.
func (th *hbThread) addFull(p unsafe.Pointer) {
	for _, q := range th.full {
		if q == p {
			return
		}
	}
	th.full = append(th.full, p)
	th.addPending(hbKey{kind: hbGClock}) // the count that says something is pending
}

// acquireG joins G into the thread's clock. Under mu, or before the
// thread is published.
func (th *hbThread) acquireG() {
	e := th.eng
	if e.gver.Load() == th.gver {
		return
	}
	e.gmu.Lock()
	th.joinHard(e.g)
	th.gver = e.gver.Load()
	e.gmu.Unlock()
}

// releaseG joins the thread's H clock into G and ticks. Under mu. When the
// thread had joined the latest G and its P already holds H (no lock
// hand-off joined H alone since), G is now its clock, so the thread is
// marked as having seen the new version: its next acquire has nothing to
// take from G (a loop of Foreign and After, as around every call through a
// function value, otherwise joined G back at each call). Otherwise G holds
// hand-offs the weak rule has not ordered yet (hb_wcp.go), which order the
// thread's events only from its next acquire of G on, as every hard edge
// orders from its acquire: joined into vc here, they ordered the accesses
// between the release and that acquire, and hid their races (the close of
// an escaped channel, which acquires nothing: TestHBWCPReleaseToG).
func (th *hbThread) releaseG() {
	e := th.eng
	covered := th.hInP()
	e.gmu.Lock()
	seen := th.gver == e.gver.Load() // G has not changed since th joined it
	e.g.join(th.hclock())
	v := e.gver.Add(1)
	if seen && covered {
		th.gver = v
		th.wcp.pself = max(th.wcp.pself, th.vc[th.id]) // P's own entry, as a join of G would move it (vc holds the rest)
	}
	e.gmu.Unlock()
	th.tick()
}

// fork returns the clock of a goroutine the thread starts now at site,
// whose stack is stack:
// the thread's full happens-before clock (a hard edge: what happened
// before, lock hand-offs too), with the child's own entry in a slot of its
// own (a new one, or an exited thread's that the clock covers,
// hb_slot.go); the thread ticks, so what it does next does not precede
// the child.
func (th *hbThread) fork(site Site, stack *hbStack) *hbSpawn {
	th.eng.all.spawned.Add(1) // until the child registers (start, hb_feed.go)
	vc := th.hclock().clone()
	id, prior, last := th.eng.slots.take(&vc, site, stack)
	th.tick()
	return &hbSpawn{eng: th.eng, id: id, vc: vc, pself: prior, last: last}
}

// thread makes the thread of a spawned goroutine.
func (s *hbSpawn) thread() *hbThread {
	th := s.eng.newThread(s.id, s.vc)
	th.wcp.pself, th.lastAcc = s.pself, s.last
	return th
}

// hbOf returns the thread a hook with task t acts on, locked, with the
// pending acquires taken: t's own thread, or, for a task of a construct
// tree that a thread's task entered (Enter), that thread, whose clock the
// tree's blocks share. nil when there is none (checks off, a goroutine
// that is no thread).
func (t *Task) hbOf() *hbThread {
	if t == nil {
		return nil
	}
	if th := t.hb; th != nil {
		th.mu.Lock()
		th.takePending(false) // kept: see takePending
		return th
	}
	if t.tree != nil {
		if th := t.tree.hb; th != nil {
			th.mu.Lock()
			th.takePending(false)
			return th
		}
	}
	return nil
}

// hbCacheSize is the number of granules a thread remembers.
const hbCacheSize = 16

// hbCached is a granule a thread checked and its cell.
type hbCached struct {
	grain uintptr
	c     *hbCell
}

// remember puts the cell c of addr's granule in the thread's cache. Only the
// thread's goroutine calls it, from access.
func (th *hbThread) remember(addr uintptr, c *hbCell) {
	th.cache[addr>>hbGrainShift&(hbCacheSize-1)] = hbCached{addr &^ (hbGrain - 1), c}
}

// repeat reports whether the plain access of addr is a repeat in the
// thread's current epoch of its last plain access of that sort there
// (FastTrack's same-epoch case), found from the cache with no lock: the
// cell's inline histories are atomic, and hold the thread's current epoch
// only if the thread wrote it there (a cell whose histories are in an
// extension, or forgotten, has none inline).
//
// It calls cachedBits directly: through cacheEpoch and cached it was
// three calls per access, a third of the time of a loop of checks that
// all repeat (bench/callbacks under -hb). A collection since the cache
// was filled empties it first (cacheEpoch).
func (th *hbThread) repeat(addr uintptr, write bool) bool {
	if th.eng.gcGen.Load() != th.cacheGen || th.entered.Load() != 0 {
		th.cacheEpoch() // empties the cache for a new generation
		return false
	}
	g, bit := grainOf(addr)
	return th.cachedBits(g, write, th.epoch())&bit != 0
}

// cacheEpoch returns the epoch whose repeats the cache finds, or 0 when
// it finds none now: a collection turned the shadow's generation
// (hb_gen.go; the cache is emptied, so that the slow path keeps a live
// cell in the new generation), or a construct the thread entered is open
// (its blocks may tick the clock). A check of many elements (hbRange,
// hbLeaves) asks once.
func (th *hbThread) cacheEpoch() epoch {
	if th.entered.Load() != 0 {
		return 0 // first: the blocks of a fed tree fill the cache under mu (hb_feed.go)
	}
	if g := th.eng.gcGen.Load(); g != th.cacheGen {
		th.cache = [hbCacheSize]hbCached{}
		th.cacheGen = g
		return 0
	}
	return th.epoch()
}

// cached is repeat for the epoch now that cacheEpoch returned.
func (th *hbThread) cached(addr uintptr, write bool, now epoch) bool {
	g, bit := grainOf(addr)
	return th.cachedBits(g, write, now)&bit != 0
}

// cachedBits returns the addresses of the granule at grain (bit k: grain+k)
// that the thread read or wrote (write: wrote) in the epoch now, as far as
// its cache knows: a check of a granule's run looks once, not per element.
// A read of an address the thread wrote in the epoch is a repeat too: an
// access that races with the read races with that write (the write is
// not before it, and the read's epoch is the write's), and the write
// dropped the read entries before it, so a variable read and written in
// turn (acc = f(acc)) took its cell's lock at each access.
func (th *hbThread) cachedBits(grain uintptr, write bool, now epoch) hbMask {
	c := &th.cache[grain>>hbGrainShift&(hbCacheSize-1)]
	if now == 0 || c.grain != grain || c.c == nil {
		return 0
	}
	var m hbMask
	if h := c.c.w.Load(); markEpoch(h) == now {
		m = markMask(h)
	}
	if write {
		return m
	}
	if h := c.c.r.Load(); markEpoch(h) == now {
		m |= markMask(h)
	}
	return m
}
