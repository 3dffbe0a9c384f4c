package rt

import "reflect"

// Callbacks that the runtime or the standard library runs later, on a
// goroutine that no rewritten go statement started (Later, Finalizer,
// Cleanup of api_hb.go). Such a goroutine is no thread, so without these
// nothing the callback does would be checked. Each run of the callback is
// a thread of its own, begun by the wrapper the rewriter puts in place of
// the function and ended when the function returns:
//
//   - time.AfterFunc(d, f) and synctest.Test(t, f) start f as a go
//     statement would, from the clock the registering thread had at the
//     call (the race detector's timer releases at AfterFunc and Reset and
//     its goroutine acquires that), and after G (a Reset is a Foreign
//     call);
//   - runtime.SetFinalizer's finalizer begins after everything every
//     thread has done so far (hb_all.go), as the race detector's finalizer
//     goroutine does before each batch: an object is finalized after its
//     last use, whoever made it, and finalizers run one after another;
//   - runtime.AddCleanup's cleanup too, but after no other cleanup:
//     "cleanups may also run concurrently with one another (unlike
//     finalizers)", and the race detector starts each cleanup of a batch
//     as a context of its own so that it catches their races.

// hbLater is the clock the runs of a Later callback begin after.
type hbLater struct {
	eng  *hbEngine
	vc   vclock
	site Site
}

// hbLaterOf returns the clock of t's thread now for a callback registered
// at site, or nil when t has no thread. The thread ticks: what it does
// next does not precede the callback.
func (t *Task) hbLaterOf(site Site) *hbLater {
	t.feedOnSpawn()
	th := t.hbOf()
	if th == nil {
		return nil
	}
	th.eng.noteAsync()                                              // its runs may begin while a construct runs (hb_feed.go)
	l := &hbLater{eng: th.eng, vc: th.hclock().clone(), site: site} // a hard edge, as a go statement's (fork)
	th.tick()
	th.mu.Unlock()
	return l
}

// thread makes the thread of one run of the callback.
func (l *hbLater) thread() *hbThread {
	vc := l.vc.clone()
	id, prior, last := l.eng.slots.take(&vc, l.site, nil)
	th := l.eng.newThread(id, vc)
	th.wcp.pself, th.lastAcc = prior, last
	th.acquireG()
	l.eng.register(th, false)
	return th
}

// asyncThread makes the thread of one run of a finalizer or, with
// cleanup, of a cleanup, registered at site: it begins after every
// thread (but the cleanups, for a cleanup).
func (e *hbEngine) asyncThread(cleanup bool, site Site) *hbThread {
	vc := e.allClock(0, cleanup)
	id, prior, last := e.slots.take(&vc, site, nil)
	th := e.newThread(id, vc)
	th.wcp.pself, th.lastAcc = prior, last
	if !cleanup {
		th.acquireG() // G holds the cleanups' releases too
	}
	e.register(th, cleanup)
	return th
}

// hbRunAs makes th the calling goroutine's thread and returns what ends
// it: the thread is marked ended and the goroutine gets back the thread it
// had, if any (none, for the runtime's goroutines).
func hbRunAs(th *hbThread) func() {
	prev := hbCurrent()
	hbSetCurrent(&th.task)
	return func() {
		th.mu.Lock()
		th.ended()
		th.mu.Unlock()
		if prev != nil {
			hbSetCurrent(prev)
		} else {
			hbClearCurrent()
		}
	}
}

// hbAround returns f wrapped so that each call runs as the thread begin
// makes, ended when f returns or panics. A nil f is returned as is.
func hbAround[F any](f F, begin func() *hbThread) F {
	if g, ok := any(f).(func()); ok {
		if g == nil {
			return f
		}
		return any(func() {
			defer hbRunAs(begin())()
			g()
		}).(F)
	}
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Func || v.IsNil() {
		return f
	}
	return reflect.MakeFunc(v.Type(), func(args []reflect.Value) []reflect.Value {
		defer hbRunAs(begin())()
		if v.Type().IsVariadic() {
			return v.CallSlice(args)
		}
		return v.Call(args)
	}).Interface().(F)
}

// hbLaterFunc is Later.
func hbLaterFunc[F any](t *Task, f F, site Site) F {
	if t == nil {
		return f
	}
	l := t.hbLaterOf(site)
	if l == nil {
		return f
	}
	return hbAround(f, l.thread)
}

// hbAsyncFunc is Finalizer (cleanup false) on engine e.
func hbAsyncFunc[F any](e *hbEngine, f F, cleanup bool, site Site) F {
	e.noteAsync()
	return hbAround(f, func() *hbThread { return e.asyncThread(cleanup, site) })
}

// hbCleanupFunc is Cleanup on engine e.
func hbCleanupFunc[S any](e *hbEngine, f func(S), site Site) func(S) {
	if f == nil {
		return f
	}
	e.noteAsync()
	return func(s S) {
		defer hbRunAs(e.asyncThread(true, site))()
		f(s)
	}
}

// hbChecking reports whether the program's checks are on (GOANOMALY
// check=0 turns them off, and HBRoot makes no thread).
func hbChecking() bool { return defaultReporter().cfg.check != 0 }
