package rt

import (
	"io"
	"reflect"
	"sync"
)

// The happens-before layer (issue 13): what a binary built with -hb calls
// outside the parallel constructs. Code of a rewritten package that runs in
// no construct is checked against the goroutines it may race with by vector
// clocks (FastTrack epochs), following the Go memory model's synchronizing
// operations. Blocks of a construct keep their structural tags among
// themselves (the rest of this package); the construct's tree shares its
// parent goroutine's clock for the synchronization its blocks do.
//
// Every method below is safe on a nil receiver and then does nothing: a
// goroutine that no rewritten go statement started and that is not a root
// (main, a test function) has no thread, HB returns nil for it, and nothing
// it does is checked or ordered.
//
// The hooks are placed so that every ordering the program has is seen,
// and perhaps more (a missed race, never a false one): a release is
// recorded right before the operation that publishes, and the acquire of
// an operation that may wait (a receive, Wait, a load) is made pending.
// A pending acquire is applied at every later hook of the thread (Chan,
// Sync, Once, Foreign, Go, a lock or an atomic) and kept pending, and
// taken and cleared by After, which the rewriter puts right after the
// statement whose operation made it pending; a check that is about to
// report a race first applies every acquire still pending and checks
// again, reporting only if the access is still unordered. A hook may run
// before the operation whose acquire another hook made pending has
// returned (the hooks of one select's cases run one after another at its
// entry; Foreign comes before the statement holding the call, so the
// checks of the call's own arguments run between the hook and the call),
// so only After clears. Applying an acquire again later only adds order.
// See docs/runtime.md, "Happens-before".

// Spawn carries a parent goroutine's clock to the goroutine a go statement
// starts.
type Spawn struct{ hb *hbSpawn }

// HB returns the calling goroutine's happens-before task, or nil when the
// goroutine has no thread. The first statement of every function of an -hb
// build is _ga_hb := _ga_rt.HB().
func HB() *Task { return hbCurrent() }

// HBRoot makes the calling goroutine a thread if it is none yet, and
// returns its task: main and test functions begin with
//
//	_ga_hb := _ga_rt.HBRoot(); defer _ga_hb.EndRoot()
//
// A new root's clock starts after everything released to the global clock
// (see Foreign), so a test goroutine follows the package's initialization
// and the tests that ran before it. It returns nil when checks are off.
func HBRoot() *Task { return hbRoot() }

// EndRoot ends what HBRoot began: it releases the thread's clock to the
// global clock, and ends the thread when this HBRoot made it.
func (t *Task) EndRoot() { t.hbEndRoot() }

// InitVar ends the root that HBRoot began for a package variable's
// initializer and returns the initializer's value v:
//
//	var x = _ga_rt.InitVar(_ga_rt.HBRoot(), f())
//
// (HBRoot is evaluated first: calls are evaluated left to right).
// Variables are initialized before any init function, outside every
// root, so a goroutine that f started was no thread and its races went
// unchecked (testdata/review16b/hbvarinit).
func InitVar[T any](t *Task, v T) T {
	t.EndRoot()
	return v
}

// InitCall begins what InitVar ends for a multi-valued initializer, whose
// call no generic function can take as one operand: it returns f, so that
//
//	var a, b = f(x)  →  var a, b = _ga_rt.InitVars2(_ga_rt.InitCall(_ga_rt.HBRoot(), f)(x))
//
// evaluates HBRoot before f's arguments and f (calls are evaluated left
// to right, the function value's before the arguments'), and InitVars2
// ends the root once f returned.
func InitCall[F any](t *Task, f F) F { return f }

// InitVars2 ends the root InitCall's HBRoot began (the calling
// goroutine's) and returns a and b.
func InitVars2[A, B any](a A, b B) (A, B) {
	hbCurrent().EndRoot()
	return a, b
}

// InitVars3 is InitVars2 for three values.
func InitVars3[A, B, C any](a A, b B, c C) (A, B, C) {
	hbCurrent().EndRoot()
	return a, b, c
}

// InitVars4 is InitVars2 for four values.
func InitVars4[A, B, C, D any](a A, b B, c C, d D) (A, B, C, D) {
	hbCurrent().EndRoot()
	return a, b, c, d
}

// Go is called by the parent right before a go statement (as an argument
// of the started call): the child begins after everything the parent did.
func (t *Task) Go() *Spawn { return t.hbGo() }

// GoAt is Go for the go statement at site: reports name the goroutine
// with where it was started ("goroutine #4 started at main.go:30:4").
func (t *Task) GoAt(site Site) *Spawn { return t.hbGoAt(site) }

// Start is the first statement of a goroutine a rewritten go statement
// started: it makes the goroutine a thread whose clock follows the
// parent's at Go, and returns its task. A nil s returns nil.
func (s *Spawn) Start() *Task { return s.start() }

// Exit ends the thread of a goroutine Start began (deferred by the
// goroutine's function). A goroutine's end synchronizes with nothing (Go
// has no join of its own); see ExitJoined for the goroutines a wrapper
// that is not rewritten joins.
func (t *Task) Exit() { t.hbExit() }

// Chan is called right before a send, receive or close on ch, before a
// select (once per channel of its cases), and first thing in the body of
// a range over a channel. It releases the thread's clock to ch's and makes
// the thread's next event acquire ch's clock: a channel orders both ways
// (a send before its receive; a receive before a later send, which a
// buffered channel used as a semaphore needs). A nil channel does nothing.
func (t *Task) Chan(ch any) { t.hbChan(ch) }

// ChanSend is called right before a send on ch (a send statement, a
// select's send case): it releases to the channel's senders' clock, and
// its pending acquire takes the receivers' clock if the buffer is full
// when it is taken (After, right after the send): a receive made room for
// the send, or met it (unbuffered).
func (t *Task) ChanSend(ch any) { t.hbChanOp(ch, chanSend) }

// ChanRecv is called right before a receive from ch (also a select's
// receive case, and first in the body of a range over ch and after the
// loop): it releases to the receivers' clock and makes the senders' clock
// (every send and the close) a pending acquire.
func (t *Task) ChanRecv(ch any) { t.hbChanOp(ch, chanRecv) }

// ChanClose is called right before close(ch): a release to the senders'
// clock, which a receive that sees the close acquires.
func (t *Task) ChanClose(ch any) { t.hbChanOp(ch, chanClose) }

// SentOn is ChanSend for the send at site: it also checks the send as a
// read of the channel's state, which a close writes (a close racing with
// a send, as -race reports it), then hooks the send.
func (t *Task) SentOn(ch any, site Site) { t.hbSentOn(ch, site) }

// ClosedOn is ChanClose for the close at site: it also checks the close
// as a write of the channel's state.
func (t *Task) ClosedOn(ch any, site Site) { t.hbClosedOn(ch, site) }

// Sync is called right before a call that synchronizes on the object obj
// points to (WaitGroup Add, Done and Wait; Cond Wait, Signal and
// Broadcast; sync.Map's methods): a release to obj's clock, and an acquire
// of it at the thread's next event.
func (t *Task) Sync(obj any) { t.hbSync(obj) }

// Once returns the function to pass to o.Do in place of f: it does Sync(o)
// now, and its function runs f and then releases to o's clock, so every
// Do that returns follows f.
func (t *Task) Once(o *sync.Once, f func()) func() { return t.hbOnce(o, f) }

// Foreign is called right before a call into code that is not rewritten
// and may synchronize (another module, most of the standard library, a
// function value or an interface method): a release to the global clock,
// and an acquire of it at the thread's next event. Every acquire also
// takes the global clock, so an ordering made inside such code (a context
// cancelled, a channel closed by a library) is never missed.
func (t *Task) Foreign() { t.hbForeign() }

// ExitJoined is Exit for a goroutine a wrapper starts and joins inside
// code that is not rewritten or not hooked (wg.Go's own Done, errgroup's
// Go): it releases the thread's clock to the global clock first, so the
// wrapper's Wait, hooked as Foreign or Sync, follows the goroutine.
func (t *Task) ExitJoined() { t.hbExitJoined() }

// SyncRelease is the release half of Sync: right before a call that only
// publishes (WaitGroup Add and Done, Cond Signal and Broadcast).
func (t *Task) SyncRelease(obj any) { t.hbSyncOp(obj, true, false) }

// SyncAcquire is the acquire half of Sync: right before a call that only
// waits (WaitGroup Wait), its acquire pending until the next hook.
func (t *Task) SyncAcquire(obj any) { t.hbSyncOp(obj, false, true) }

// CondWait is called right before c.Wait(): Wait unlocks c.L and locks it
// again, so this releases c.L as an Unlock does, and makes pending the
// acquires of c (what Signal and Broadcast released) and of c.L (the
// Lock Wait ends with). A c.L that is not a *sync.Mutex or *sync.RWMutex
// synchronizes through the global clock.
func (t *Task) CondWait(c *sync.Cond) { t.hbCondWait(c) }

// Unseen is called right before a statement that calls code that is not
// rewritten and reaches memory of the program the checks do not see (a
// method of a standard library type on a variable, an argument the table
// of the static stage does not know), where no Foreign is: inside a
// critical section, the section's conflicts with other sections of its
// lock cannot be known, so its hand-offs order fully (the section is
// opaque, see hb_wcp.go). Foreign does the same. Outside sections it does
// nothing.
func (t *Task) Unseen() { t.hbUnseenCall() }

// After takes the acquires still pending now: the rewriter calls it right
// after a statement whose channel operation, Wait or call into code that
// is not rewritten returned, so the acquire is taken at that point rather
// than at the thread's next hook (which may be after more
// synchronization, and adds orderings that hide races).
func (t *Task) After() { t.hbAfter() }

// Escape marks the channel (or object) ch as reachable from code that is
// not rewritten (the rewriter calls it before a call into such code that
// gets ch as an argument): a goroutine there may relay what it receives,
// unhooked, so every later release to ch also releases to the global
// clock, which every acquire takes. A mutex (a *sync.Mutex, a
// *sync.RWMutex, or a sync.Locker holding one) may be locked there: its
// hand-offs order fully from then on, and what its releases published so
// far goes to the global clock too (escapeLock).
func (t *Task) Escape(ch any) { t.hbEscape(ch) }

// Escaped is Escape of ch where the channel is an argument that cannot be
// evaluated twice (reflect.ValueOf(produce()) becomes
// reflect.ValueOf(_ga_rt.Escaped(t, produce()))); it returns ch. A nil t
// (no thread) returns ch.
func Escaped[C any](t *Task, ch C) C {
	if t != nil {
		t.hbEscape(ch)
	}
	return ch
}

// Later returns the function to pass in place of f to a call that runs f
// later on a goroutine of its own, at site: time.AfterFunc(d, f) becomes
// time.AfterFunc(d, _ga_rt.Later(t, f, site)), and synctest.Test(t, f) the
// same. Each run of f is a thread that begins after t's clock at this call,
// as a go statement's goroutine begins after its parent's (the race
// detector's timer releases at AfterFunc and its goroutine acquires), and
// after the global clock (a Timer's Reset, a Foreign call, released to
// it). A nil t (no thread) returns f. See hb_callbacks.go.
func Later[F any](t *Task, f F, site Site) F { return hbLaterFunc(t, f, site) }

// Finalizer returns the function to pass to runtime.SetFinalizer in place
// of f, registered at site: each run of f is a thread that begins after
// everything every thread has done until then (AcquireAll), as the race
// detector's finalizer goroutine does before it runs finalizers: an
// object is finalized after its last use, by whichever goroutine. With
// checks off it returns f.
func Finalizer[F any](f F, site Site) F {
	if !hbChecking() {
		return f
	}
	return hbAsyncFunc(&global.hb, f, false, site)
}

// Cleanup is Finalizer for runtime.AddCleanup, but a cleanup's thread does
// not begin after the other cleanups': "cleanups may also run
// concurrently with one another (unlike finalizers)".
func Cleanup[S any](f func(S), site Site) func(S) {
	if !hbChecking() {
		return f
	}
	return hbCleanupFunc(&global.hb, f, site)
}

// AcquireAll makes the thread follow everything every thread has done
// until now: the rewriter calls it right after a statement that calls
// testing/synctest's Wait or Test, which return once the other goroutines
// of the bubble are durably blocked or have exited (the race detector's
// runtime acquires what each of them released when it parked, and at the
// bubble's end).
func (t *Task) AcquireAll() { t.hbAcquireAll() }

// ReflectOf returns v with its memory accesses checked at site: the
// rewriter makes v.Set(x) _ga_rt.ReflectOf(t, v, site).Set(x), and so for
// the other methods of reflect.Value that read or write what v refers to
// (reflectvalue.go). Each checks, after the arguments are evaluated, the
// access of v's memory when v is addressable, then calls the method.
func ReflectOf(t *Task, v reflect.Value, site Site) ReflectValue {
	return ReflectValue{t, v, site}
}

// ReflectCopy checks then performs reflect.Copy(dst, src): the elements
// it copies are written in dst and read in src.
func ReflectCopy(t *Task, dst, src reflect.Value, site Site) int {
	return reflectCopy(t, dst, src, site)
}

// ReadInto calls r.Read(p) and then checks the write of p[:n], n being
// the count it returned, when r's dynamic type is one of the standard
// library's that writes that much of p: *os.File, *bytes.Buffer,
// *bytes.Reader, *strings.Reader. The rewriter makes r.Read(p)
// _ga_rt.ReadInto(t, r, p, site) when r's Read is the standard library's
// or an interface's; any other type's Read is rewritten, or unknown (it
// may write less of p than n says), and is not checked here (iobuf.go).
func ReadInto(t *Task, r io.Reader, p []byte, site Site) (int, error) {
	return readInto(t, r, p, site)
}

// ReadAtInto is ReadInto for r.ReadAt(p, off).
func ReadAtInto(t *Task, r io.ReaderAt, p []byte, off int64, site Site) (int, error) {
	return readAtInto(t, r, p, off, site)
}

// WriteFrom calls w.Write(p) and then checks the read of p[:n] when w's
// dynamic type is one of the standard library's that reads that much of
// p: *os.File, *bytes.Buffer, *strings.Builder, the hashes of hash/... and
// crypto/... (a hash.Hash adds all of p and returns len(p)); io.Discard,
// which reads nothing, is not among them.
func WriteFrom(t *Task, w io.Writer, p []byte, site Site) (int, error) {
	return writeFrom(t, w, p, site)
}

// WriteAtFrom is WriteFrom for w.WriteAt(p, off).
func WriteAtFrom(t *Task, w io.WriterAt, p []byte, off int64, site Site) (int, error) {
	return writeAtFrom(t, w, p, off, site)
}
