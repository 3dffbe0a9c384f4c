package rt

import "sync"

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
// A pending acquire is taken (and cleared) at the thread's next hook
// (Chan, Sync, Once, Foreign, Go, Exit, EndRoot, a lock or an atomic),
// which comes after the operation returned; and a check that is about to
// report a race first applies every acquire still pending (without
// clearing them) and checks again, reporting only if the access is still
// unordered. Checks do not take pending acquires otherwise: the rewriter
// places some hooks (Foreign, before the statement holding the call) a
// little before their operation, so the checks of the call's own
// arguments may run between the hook and the operation. Taking an acquire
// later only adds order. See docs/runtime.md, "Happens-before".

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

// Go is called by the parent right before a go statement (as an argument
// of the started call): the child begins after everything the parent did.
func (t *Task) Go() *Spawn { return t.hbGo() }

// Start is the first statement of a goroutine a rewritten go statement
// started: it makes the goroutine a thread whose clock follows the
// parent's at Go, and returns its task. A nil s returns nil.
func (s *Spawn) Start() *Task { return s.start() }

// Exit ends the thread of a goroutine Start began (deferred by the
// goroutine's function). It releases the thread's clock to the global
// clock (see Foreign): a goroutine that ends is followed by every later
// acquire, which covers the joins done inside code that is not rewritten
// (wg.Go's own Done, a library's wait for its workers).
func (t *Task) Exit() { t.hbExit() }

// Chan is called right before a send, receive or close on ch, before a
// select (once per channel of its cases), and first thing in the body of
// a range over a channel. It releases the thread's clock to ch's and makes
// the thread's next event acquire ch's clock: a channel orders both ways
// (a send before its receive; a receive before a later send, which a
// buffered channel used as a semaphore needs). A nil channel does nothing.
func (t *Task) Chan(ch any) { t.hbChan(ch) }

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
