package rt

import (
	"sync"
	"sync/atomic"
)

// The registry of an engine's threads, for the one acquire that is of no
// object: a thread that follows everything every thread has done so far.
// The race detector's runtime makes it (AcquireGlobal, racefingo) where a
// goroutine runs after what it cannot name: the finalizer goroutine before
// each batch of finalizers (an object is finalized after its last use, by
// whichever goroutine that was), the cleanup goroutines before each batch
// of cleanups, synctest's Wait and the end of a bubble (after its
// goroutines blocked or exited). The join of all clocks needs only each
// thread's own entry (no thread knows more of thread u than u itself), so
// the registry keeps the threads that run, whose own entry is read under
// their mu, and the last own entry of those that ended. A thread keeps
// running in the epoch it was read in, so what it does next until its next
// release also looks ordered before the acquirer: a race missed, never a
// false one.
//
// Threads are registered by the hooks that publish them (HBRoot, Start, the
// callbacks' threads of hb_callbacks.go), after their clock is made, and
// marked ended by the hooks that end them (EndRoot, Exit, ExitJoined).

// hbAll is an engine's registry of threads.
type hbAll struct {
	mu    sync.Mutex
	live  []*hbThread     // by thread number: a registered thread that has not ended
	last  vclock          // by thread number: an ended thread's own entry at its end
	alone map[uint32]bool // cleanups' threads: a cleanup's acquire of all skips them
	spare []*hbThread     // allClock's buffer of live threads, reused under mu

	lastAcc vclock       // by thread number: an ended thread's last access recorded (quiescent, hb_feed.go)
	async   atomic.Int64 // callbacks registered to run later on threads of their own (hb_feed.go)
	spawned atomic.Int64 // go statements' threads forked and not started yet (hb_feed.go)
}

// register adds th, whose clock is made, to its engine's registry; alone
// marks a cleanup's thread.
func (e *hbEngine) register(th *hbThread, alone bool) {
	a := &e.all
	a.mu.Lock()
	if int(th.id) >= len(a.live) {
		n := max(int(th.id)+1, 2*len(a.live))
		live := make([]*hbThread, n)
		copy(live, a.live)
		a.live = live
	}
	a.live[th.id] = th
	if alone {
		if a.alone == nil {
			a.alone = map[uint32]bool{}
		}
		a.alone[th.id] = true
	}
	a.mu.Unlock()
}

// ended marks th ended in its engine's registry: AcquireAll takes its last
// own entry from now on. Under th.mu, as its last hook.
func (th *hbThread) ended() {
	a := &th.eng.all
	a.mu.Lock()
	if int(th.id) < len(a.live) && a.live[th.id] == th {
		a.live[th.id] = nil
		a.last.set(th.id, th.vc[th.id])
		a.lastAcc.set(th.id, th.lastAcc)
	}
	a.mu.Unlock()
}

// allClock returns the join of the clocks of every thread registered, as
// they are now: the live threads' own entries, the ended ones' last. The
// thread self (0: none) is skipped, its mu being the caller's to hold;
// cleanup skips the threads of cleanups (they may run concurrently with
// one another). It takes each live thread's mu in turn and holds no other
// lock meanwhile, so it is called with no thread's mu held.
func (e *hbEngine) allClock(self uint32, cleanup bool) vclock {
	a := &e.all
	a.mu.Lock()
	vc := a.last.clone()
	live := a.spare[:0]
	for _, th := range a.live {
		if th != nil && th.id != self && !(cleanup && a.alone[th.id]) {
			live = append(live, th)
		}
	}
	a.spare = nil // this call's own while it runs: another allClock makes its own
	if cleanup {
		for u := range a.alone {
			if int(u) < len(vc) {
				vc[u] = 0
			}
		}
	}
	a.mu.Unlock()
	for _, th := range live {
		th.mu.Lock()
		c := th.vc[th.id]
		th.mu.Unlock()
		if vc.get(th.id) < c {
			vc.set(th.id, c)
		}
	}
	clear(live)
	a.mu.Lock()
	a.spare = live
	a.mu.Unlock()
	return vc
}

// hbAcquireAll is AcquireAll.
func (t *Task) hbAcquireAll() {
	var e *hbEngine
	var self uint32
	if th := t.hbOf(); th != nil {
		e, self = th.eng, th.id
		th.mu.Unlock()
	}
	if e == nil {
		return
	}
	vc := e.allClock(self, false)
	if th := t.hbOf(); th != nil {
		th.vc.join(vc)
		th.mu.Unlock()
	}
}
