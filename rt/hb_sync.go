package rt

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Synchronization objects of the happens-before layer, each a vector
// clock keyed by address: a channel (its runtime pointer), an object a
// Sync or Once hook names, the address of an atomic access (mutexes have
// states of their own, hb_wcp_lock.go). A release joins the thread's H
// clock into the object's and ticks the thread; an acquire joins the
// object's clock (and G) into the thread's vc and H: these are the hard
// edges of hb_wcp.go. Objects are never forgotten: a freed object's
// address reused by a new one only adds orderings (a missed race, never a
// false one); their memory grows with the distinct addresses synchronized
// on (phase 1).

// hbKey names an object's clock.
type hbKey struct {
	addr uintptr
	kind uint8
}

// Kinds of object clock.
const (
	hbObject   uint8 = iota // a channel, or what Sync and Once name
	hbWriters               // a mutex's Unlocks: the pending relock of a Cond's Wait (hb_wcp_lock.go)
	hbReaders               // an RWMutex's RUnlocks: the same
	hbAtomic                // an address accessed by sync/atomic
	hbGClock                // G itself (Foreign's pending acquire): every acquire takes it anyway
	hbChanRecv              // a channel's receivers: released by a receive, acquired by a send that found the buffer full
)

// hbObj is one object's clock, under its own mutex: a release and an
// acquire of the object lock it alone, so threads synchronizing on
// different objects do not wait for each other.
type hbObj struct {
	mu sync.Mutex
	c  vclock
	// ver counts the releases joined into c, bumped under mu after each.
	// A thread that joined c at version v and finds v again adds nothing
	// by joining it again (its clocks only grow), so it skips the join
	// and mu: a hot atomic or channel that many goroutines read and few
	// write (a pool's state, a closed done channel) costs a load.
	ver atomic.Uint64
}

// hbObjShard is one lock domain of the objects' map; it is locked only
// to find an object a thread has not cached (hbThread.obj).
type hbObjShard struct {
	mu sync.Mutex
	m  map[hbKey]*hbObj
	_  [40]byte
}

// shard returns the shard of k.
func (e *hbEngine) objShard(k hbKey) *hbObjShard {
	return &e.objs[hashKey(k.addr^uintptr(k.kind))>>(64-hbShardBits)]
}

// hbObjCache is the number of objects a thread remembers (1,024 bytes of
// the thread). Eight were too few for a pub/sub's broker, which sends to
// each subscriber's channel: a quarter of pubsub's 10.8M lookups missed
// and took a shard's mutex, which every thread shares (2.7M; 0.5M with
// 32; sixteen, whose index folds the kind into fewer bits, missed 3.2M).
const (
	hbObjCacheBits = 5
	hbObjCache     = 1 << hbObjCacheBits
)

// hbObjCached is an object a thread found.
type hbObjCached struct {
	k    hbKey
	o    *hbObj
	seen uint64 // o.ver when the thread last joined o.c (0: never; then c was empty)
}

// obj returns k's clock: from the thread's cache, else from the shard's
// map, made there if new and create is true (nil if new otherwise).
// Objects are never dropped, so a cached one stays k's. Under th.mu.
func (th *hbThread) obj(k hbKey, create bool) *hbObj {
	if c := th.objEntry(k, create); c != nil {
		return c.o
	}
	return nil
}

// objEntry is obj, returning the thread's cache entry that holds it.
func (th *hbThread) objEntry(k hbKey, create bool) *hbObjCached {
	// The kind picks among neighbouring slots: hashed together with
	// the address, a channel's two clocks fell in one slot and evicted
	// each other at every operation.
	c := &th.objs[(hashKey(k.addr)>>(64-hbObjCacheBits)^uint64(k.kind))&(hbObjCache-1)]
	if c.o != nil && c.k == k {
		return c
	}
	sh := th.eng.objShard(k)
	sh.mu.Lock()
	o := sh.m[k]
	if o == nil && create {
		if sh.m == nil {
			sh.m = map[hbKey]*hbObj{}
		}
		o = new(hbObj)
		sh.m[k] = o
	}
	sh.mu.Unlock()
	if o == nil {
		return nil
	}
	c.k, c.o, c.seen = k, o, 0
	return c
}

// acquireObj joins k's clock into the thread's vc and H: a hard edge.
// Under th.mu.
func (th *hbThread) acquireObj(k hbKey) {
	switch k.kind {
	case hbGClock:
		return
	case hbWriters, hbReaders:
		th.acquireRelock(k.addr, k.kind)
		return
	}
	c := th.objEntry(k, false)
	if c == nil || c.o.ver.Load() == c.seen {
		return // nothing released to k since the thread last joined it
	}
	o := c.o
	o.mu.Lock()
	th.joinHard(o.c)
	c.seen = o.ver.Load()
	o.mu.Unlock()
}

// The operations below are the thread's side of each hook; the caller
// holds th.mu and took the pending acquires (hbOf).

// releaseTo releases the thread's H clock to k.
func (th *hbThread) releaseTo(k hbKey) {
	o := th.obj(k, true)
	o.mu.Lock()
	o.c.join(th.hclock())
	// After the join: an acquire that sees it finds the join (acquireObj).
	// The thread's own next acquire joins again: o.c now holds H, which
	// may be ahead of its vc (lock hand-offs join H alone).
	o.ver.Add(1)
	o.mu.Unlock()
	th.tick()
}

// syncOn is Chan and Sync: release to k now, acquire it at the next event.
func (th *hbThread) syncOn(k hbKey) {
	if th.eng.isEscaped(k.addr) && k.kind == hbObject {
		th.releaseG() // a goroutine that is no thread may relay it (Escape)
	}
	th.releaseTo(k)
	th.addPending(k)
}

// foreign is Foreign: release to G now, acquire it at the next event.
func (th *hbThread) foreign() {
	th.releaseG()
	th.addPending(hbKey{kind: hbGClock})
}

// lockAcquired is a Lock that returned: under happens-before it follows
// every Unlock and RUnlock before it; under the weak rule (hb_wcp.go) only
// those whose sections conflict with what its own section does.
func (th *hbThread) lockAcquired(mu uintptr) { th.acquireLock(mu, false) }

// rlockAcquired is an RLock that returned: it follows the Unlocks before
// it as a Lock does, not the other readers.
func (th *hbThread) rlockAcquired(mu uintptr) { th.acquireLock(mu, true) }

// unlocking is an Unlock about to happen.
func (th *hbThread) unlocking(mu uintptr) { th.releaseLock(mu, false) }

// runlocking is an RUnlock about to happen: the next Lock follows it as
// the weak rule says.
func (th *hbThread) runlocking(mu uintptr) { th.releaseLock(mu, true) }

// atomicStore is the synchronization of a sync/atomic store, swap, add or
// compare-and-swap at addr: a release now (a load that reads the value
// follows it) and an acquire at the next event (a swap or add follows the
// store it replaced).
func (th *hbThread) atomicStore(addr uintptr) { th.syncOn(hbKey{addr, hbAtomic}) }

// atomicLoad is the synchronization of a sync/atomic load at addr: an
// acquire at the next event, after the load read its value.
func (th *hbThread) atomicLoad(addr uintptr) { th.addPending(hbKey{addr, hbAtomic}) }

// objKey returns the key of the object obj holds a pointer to. ok is
// false when obj is not pointer-shaped: its data word would then point
// to a copy made for the call, a different address each time.
func objKey(obj any) (k hbKey, ok bool) {
	p := chanID(obj)
	if p == nil {
		return hbKey{}, false
	}
	switch reflect.TypeOf(obj).Kind() {
	case reflect.Pointer, reflect.Chan, reflect.Map, reflect.Func, reflect.UnsafePointer:
		return hbKey{uintptr(p), hbObject}, true
	}
	return hbKey{}, false
}

// hbLock is the synchronization of a lock (lock true: it is held now) or
// an unlock (about to be released) by t, a thread's task or a task of a
// tree a thread entered (whose lock orders fully: lockHard). It returns
// true for a thread's task, which keeps no lockset: its lock orders
// instead.
func (t *Task) hbLock(mu uintptr, lock bool) bool {
	th := t.hbOf()
	switch {
	case t.hb == nil:
		th.lockHard(mu, lock)
	case lock:
		th.lockAcquired(mu)
	default:
		th.unlocking(mu)
	}
	th.mu.Unlock()
	return t.hb != nil
}

// hbUnseen makes the open sections of t's thread opaque (hb_wcp.go): t is
// about to run code whose accesses are not seen. A task of a construct
// tree does nothing: the thread's sections were made opaque when it
// entered the tree, and the blocks' own locks order fully.
func (t *Task) hbUnseen(th *hbThread) {
	if t.hb != nil && len(th.wcp.held) != 0 {
		th.wcpUnseen()
	}
}

// hbChan is Chan: both ways, for an operation the rewriter cannot tell.
func (t *Task) hbChan(ch any) {
	p := chanID(ch)
	if p == nil {
		return
	}
	if th := t.hbOf(); th != nil {
		th.syncOn(hbKey{uintptr(p), hbObject})
		th.releaseTo(hbKey{uintptr(p), hbChanRecv})
		th.addPending(hbKey{uintptr(p), hbChanRecv})
		th.mu.Unlock()
	}
}

// Channels (ChanSend, ChanRecv, ChanClose) keep two clocks, as the memory
// model orders them: the senders' (hbObject: a send, and a close, before
// the receive that gets it) and the receivers' (hbChanRecv: the k-th
// receive before the (k+C)-th send completes, C the capacity). A send
// acquires the receivers' clock only if, when its acquire is taken (right
// after it, by After), the buffer is full: then a receive made room for
// it, or, unbuffered, met it. A send that found room follows no receive,
// so a buffered channel's asynchrony leaves unordered what the memory
// model does (TestRaceChanAsyncRev). Taken later than right after the
// send, the test sees a fuller or emptier buffer; an emptier one could
// only come from receives of other goroutines after the send returned,
// which a cap-1 channel used as a lock does not have.

// chanOp names what a channel hook does.
type chanOp uint8

const (
	chanSend chanOp = iota
	chanRecv
	chanClose
)

// hbChanOp is ChanSend, ChanRecv and ChanClose: a release to the clock
// the operation publishes to (a receive: the receivers'; a send or a
// close: the senders'), and the acquire it waits for (a receive: the
// senders'; a send: the receivers', if the buffer is full then).
func (t *Task) hbChanOp(ch any, op chanOp) {
	p := chanID(ch)
	if p == nil {
		return
	}
	th := t.hbOf()
	if th == nil {
		return
	}
	th.escapedRelease(uintptr(p))
	switch op {
	case chanSend:
		th.releaseTo(hbKey{uintptr(p), hbObject})
		th.addFull(p)
	case chanRecv:
		th.releaseTo(hbKey{uintptr(p), hbChanRecv})
		th.addPending(hbKey{uintptr(p), hbObject})
	case chanClose:
		th.releaseTo(hbKey{uintptr(p), hbObject})
	}
	th.mu.Unlock()
}

// escapedRelease releases to G when Escape marked the object at addr.
func (th *hbThread) escapedRelease(addr uintptr) {
	if th.eng.isEscaped(addr) {
		th.releaseG()
	}
}

// isEscaped reports whether Escape marked the object at addr (a program
// that never calls it pays one atomic load).
func (e *hbEngine) isEscaped(addr uintptr) bool {
	if !e.anyEscaped.Load() {
		return false
	}
	_, esc := e.escaped.Load(addr)
	return esc
}

// chanFull reports whether the channel whose runtime pointer is p has a
// full buffer (an unbuffered channel always has): the runtime's hchan
// begins with qcount and dataqsiz (the number of elements queued and the
// capacity), read here with an atomic load without the channel's lock.
// TestChanLayout keeps this honest against len and cap.
func chanFull(p unsafe.Pointer) bool {
	h := (*[2]uintptr)(p)
	return atomic.LoadUintptr(&h[0]) >= atomic.LoadUintptr(&h[1])
}

// hbSync is Sync. An obj that holds no pointer cannot name an object: it
// synchronizes as Foreign does, through G (more orderings, never fewer).
func (t *Task) hbSync(obj any) { t.hbSyncOp(obj, true, true) }

// hbSyncOp is Sync (release and acquire), SyncRelease and SyncAcquire.
func (t *Task) hbSyncOp(obj any, release, acquire bool) {
	th := t.hbOf()
	if th == nil {
		return
	}
	switch k, ok := objKey(obj); {
	case ok && release && acquire:
		th.syncOn(k)
	case ok && release:
		th.releaseTo(k)
	case ok:
		th.addPending(k)
	case obj != nil:
		th.foreign()
		t.hbUnseen(th)
	}
	th.mu.Unlock()
}

// hbOnce is Once.
func (t *Task) hbOnce(o *sync.Once, f func()) func() {
	if o == nil || f == nil {
		return f
	}
	th := t.hbOf()
	if th == nil {
		return f
	}
	k := hbKey{uintptr(unsafe.Pointer(o)), hbObject}
	th.syncOn(k)
	th.mu.Unlock()
	return func() {
		defer func() {
			if th := t.hbOf(); th != nil {
				th.releaseTo(k)
				th.mu.Unlock()
			}
		}()
		f()
	}
}

// hbForeign is Foreign. The call it precedes runs code whose accesses are
// not seen: inside a critical section, the section becomes opaque.
func (t *Task) hbForeign() {
	if th := t.hbOf(); th != nil {
		th.foreign()
		t.hbUnseen(th)
		th.mu.Unlock()
	}
}

// hbUnseenCall is Unseen.
func (t *Task) hbUnseenCall() {
	if t == nil || t.hb == nil || len(t.hb.wcp.held) == 0 {
		return
	}
	th := t.hbOf()
	th.wcpUnseen()
	th.mu.Unlock()
}

// hbCondWait is CondWait.
func (t *Task) hbCondWait(c *sync.Cond) {
	if c == nil {
		return
	}
	th := t.hbOf()
	if th == nil {
		return
	}
	switch mu, ok := mutexAddr(c.L); {
	case ok && t.hb != nil:
		th.condWait(mu)
	case ok:
		th.lockHard(mu, false) // a block's: its relock is a Lock the hook does not see
		th.addPending(hbKey{mu, hbWriters})
		th.addPending(hbKey{mu, hbReaders})
	default:
		th.foreign()
		t.hbUnseen(th)
	}
	th.addPending(hbKey{uintptr(unsafe.Pointer(c)), hbObject})
	th.mu.Unlock()
}

// hbEscape is Escape.
func (t *Task) hbEscape(ch any) {
	th := t.hbOf()
	if th == nil {
		return
	}
	if k, ok := objKey(ch); ok {
		th.escapeChan(k.addr)
	}
	if mu, ok := lockAddr(ch); ok {
		th.escapeLock(mu) // after the mark: a release it does not see goes to G
	}
	th.mu.Unlock()
}

// escapeChan marks the channel (or object) at addr escaped: its later
// releases also go to G (escapedRelease), and what it released so far is
// published there now (escapeObj). Under th.mu.
func (th *hbThread) escapeChan(addr uintptr) {
	th.eng.escaped.Store(addr, true)
	th.eng.anyEscaped.Store(true)
	th.escapeObj(addr)
}

// escapeObj publishes to G what was released to the object at addr before
// Escape marked it: a goroutine that was running already may have sent on
// the channel before the call that hands it to code that is not rewritten
// (a producer started before reflect.ValueOf(ch) reaches reflect.Select:
// testdata/review19/fanin), and what that code relays of it is followed
// only through G, as the later releases are (escapedRelease). Only adds
// order: a race missed, never a false one. Under th.mu.
func (th *hbThread) escapeObj(addr uintptr) {
	e := th.eng
	for _, kind := range [...]uint8{hbObject, hbChanRecv} {
		o := th.obj(hbKey{addr, kind}, false)
		if o == nil {
			continue
		}
		o.mu.Lock()
		e.gmu.Lock()
		e.g.join(o.c)
		e.gver.Add(1)
		e.gmu.Unlock()
		o.mu.Unlock()
	}
}

// lockAddr returns the address of the mutex obj points to (a *sync.Mutex,
// a *sync.RWMutex, or a sync.Locker holding one), the key of its hbLock.
func lockAddr(obj any) (uintptr, bool) {
	switch m := obj.(type) {
	case *sync.Mutex:
		return uintptr(unsafe.Pointer(m)), m != nil
	case *sync.RWMutex:
		return uintptr(unsafe.Pointer(m)), m != nil
	}
	return 0, false
}

// escapeLock is the Escape of the mutex at mu, given to code that is not
// rewritten: a Lock or Unlock there is not hooked, and only the global
// clock G orders it with the hooked ones (testdata/review17/deplock: a
// dependency locked the mutex, and its holder's write was reported
// against the last section's read). So the lock orders fully from now on,
// what its releases published so far goes to G, and its later releases
// go to G too (releaseLock, escapedRelease), which every acquire, and a
// call into such code when it returns, takes. Under th.mu.
func (th *hbThread) escapeLock(mu uintptr) {
	l := th.lockOf(mu)
	e := th.eng
	l.mu.Lock()
	e.gmu.Lock()
	for _, c := range []vclock{l.hw, l.hr, l.ow, l.or} {
		e.g.join(c)
	}
	e.gver.Add(1)
	e.gmu.Unlock()
	l.markHard()
	l.mu.Unlock()
}

// The state of a channel (open or closed) is checked as a location of its
// own: a close writes it, a send reads it. Its address is the channel's
// runtime pointer with the top bit flipped, an address no variable has on
// a 64-bit platform (on a 32-bit one, a rare collision with a variable's
// address is possible), so a variable allocated where a freed channel was
// finds no history of it. MakeChan forgets the state of a channel made in
// rewritten code; a channel made elsewhere at a freed channel's address
// keeps its history (a false report needs a send or close on it by a
// thread unordered with the freed channel's closer).

// chanStateAddr is the location of the state of the channel at p.
func chanStateAddr(p unsafe.Pointer) uintptr {
	return uintptr(p) ^ (1 << (unsafe.Sizeof(uintptr(0))*8 - 1))
}

// hbSentOn is SentOn.
func (t *Task) hbSentOn(ch any, site Site) {
	p := chanID(ch)
	if p == nil || t == nil {
		return
	}
	if t.hb != nil {
		t.hbAccess(chanStateAddr(p), site, false, false)
	}
	t.hbChanOp(ch, chanSend)
}

// hbClosedOn is ClosedOn.
func (t *Task) hbClosedOn(ch any, site Site) {
	p := chanID(ch)
	if p == nil || t == nil {
		return
	}
	if t.hb != nil {
		t.hbAccess(chanStateAddr(p), site, true, false)
	}
	t.hbChanOp(ch, chanClose)
}

// hbMakeChan forgets the state of a channel just made.
func (t *Task) hbMakeChan(ch any) {
	if p := chanID(ch); p != nil && t != nil && t.hb != nil {
		t.hb.eng.forget(chanStateAddr(p), 1)
	}
}
