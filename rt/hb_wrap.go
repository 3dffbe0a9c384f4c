package rt

import (
	"reflect"
	"sync"
	"unsafe"
)

// The generic helpers of the happens-before layer: the rewriter wraps an
// operand in them so that a hook runs between the evaluation of the
// operand and the operation, without evaluating anything twice.

// ChanOp calls t.Chan(ch) and returns ch: an operation on ch the rewriter
// cannot tell (both ways).
func ChanOp[C any](t *Task, ch C) C {
	if t != nil {
		t.Chan(ch)
	}
	return ch
}

// RecvOp calls t.ChanRecv(ch) and returns ch: a receive <-ch and a
// select's receive case become <-_ga_rt.RecvOp(t, ch), so the hook runs
// after ch is evaluated and right before the receive.
func RecvOp[C any](t *Task, ch C) C {
	if t != nil {
		t.ChanRecv(ch)
	}
	return ch
}

// SendOp calls t.SentOn(ch, s) and returns ch: a send statement whose
// channel cannot be evaluated twice.
func SendOp[C any](t *Task, ch C, s Site) C {
	if t != nil {
		t.SentOn(ch, s)
	}
	return ch
}

// CloseOp calls t.ClosedOn(ch, s) and returns ch: close(ch) becomes
// close(_ga_rt.CloseOp(t, ch, site)).
func CloseOp[C any](t *Task, ch C, s Site) C {
	if t != nil {
		t.ClosedOn(ch, s)
	}
	return ch
}

// MakeChan forgets the state of the channel make just made (see
// chanStateAddr) and returns it: make(chan T, n) in -hb code becomes
// _ga_rt.MakeChan(t, make(chan T, n)).
func MakeChan[C any](t *Task, ch C) C {
	t.hbMakeChan(ch)
	return ch
}

// Sender returns what checks a send on ch at site s: a send statement
// ch <- v becomes ch <- _ga_rt.Sender(t, ch, s).V(v), so the hook runs
// after the value is computed (what computing it wrote is released with
// it). ch is written twice only when it is a variable or a field path (the
// rewriter checks). The element type E comes from the channel's type
// alone, so v converts to it as in the send. The result is a value: no
// allocation.
func Sender[C ~chan E, E any](t *Task, ch C, s Site) SendCheck[C, E] {
	return SendCheck[C, E]{t, ch, s}
}

// SendOnlySender is Sender for a send-only channel.
func SendOnlySender[C ~chan<- E, E any](t *Task, ch C, s Site) SendOnlyCheck[C, E] {
	return SendOnlyCheck[C, E]{t, ch, s}
}

// SendCheck is a send's check, made by Sender.
type SendCheck[C ~chan E, E any] struct {
	t  *Task
	ch C
	s  Site
}

// V hooks the send (SentOn) and returns the value to send.
func (c SendCheck[C, E]) V(v E) E {
	if c.t != nil {
		c.t.SentOn(c.ch, c.s)
	}
	return v
}

// SendOnlyCheck is SendCheck for a send-only channel.
type SendOnlyCheck[C ~chan<- E, E any] struct {
	t  *Task
	ch C
	s  Site
}

// V hooks the send (SentOn) and returns the value to send.
func (c SendOnlyCheck[C, E]) V(v E) E {
	if c.t != nil {
		c.t.SentOn(c.ch, c.s)
	}
	return v
}

// Spawned returns the function a rewritten go statement starts in place of
// f: go f(x) becomes go _ga_rt.Spawned(t.Go(), f)(x), so f and x are
// evaluated by the parent, as written, and the goroutine is a thread
// (Start) from its first instruction until f returns or panics (Exit).
// A nil s (no thread in the parent) returns f.
func Spawned[F any](s *Spawn, f F) F { return spawned(s, f, (*Task).Exit) }

// spawned is Spawned and SpawnedJoined: the goroutine ends with end.
func spawned[F any](s *Spawn, f F, end func(*Task)) F {
	if s == nil {
		return f
	}
	switch g := any(f).(type) {
	case func():
		if g == nil {
			return f
		}
		return any(func() {
			defer end(s.Start())
			g()
		}).(F)
	case func() error:
		if g == nil {
			return f
		}
		return any(func() error {
			defer end(s.Start())
			return g()
		}).(F)
	}
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Func || v.IsNil() {
		return f
	}
	return reflect.MakeFunc(v.Type(), func(args []reflect.Value) []reflect.Value {
		defer end(s.Start())
		if v.Type().IsVariadic() {
			return v.CallSlice(args)
		}
		return v.Call(args)
	}).Interface().(F)
}

// SyncOp calls t.Sync(p) and returns p: wg.Wait() becomes
// _ga_rt.SyncOp(t, &wg).Wait(), so the hook runs right before the call.
func SyncOp[P any](t *Task, p P) P {
	if t != nil {
		t.Sync(p)
	}
	return p
}

// ReleaseOp calls t.SyncRelease(p) and returns p: wg.Done() becomes
// _ga_rt.ReleaseOp(t, &wg).Done().
func ReleaseOp[P any](t *Task, p P) P {
	if t != nil {
		t.SyncRelease(p)
	}
	return p
}

// AcquireOp calls t.SyncAcquire(p) and returns p: wg.Wait() becomes
// _ga_rt.AcquireOp(t, &wg).Wait().
func AcquireOp[P any](t *Task, p P) P {
	if t != nil {
		t.SyncAcquire(p)
	}
	return p
}

// CondOp calls t.CondWait(c) and returns c: c.Wait() becomes
// _ga_rt.CondOp(t, c).Wait().
func CondOp(t *Task, c *sync.Cond) *sync.Cond {
	if t != nil {
		t.CondWait(c)
	}
	return c
}

// SyncCall calls t.SyncRelease(obj), then f: defer wg.Done() becomes
// defer _ga_rt.SyncCall(t, &wg, wg.Done), hooked where the call runs.
func SyncCall(t *Task, obj any, f func()) {
	if t != nil {
		t.SyncRelease(obj)
	}
	f()
}

// SpawnedJoined is Spawned for a function a wrapper starts and joins
// (wg.Go(f), g.Go(f)): the goroutine ends with ExitJoined.
func SpawnedJoined[F any](s *Spawn, f F) F { return spawned(s, f, (*Task).ExitJoined) }

// CloseLater hooks and closes ch: defer close(ch) becomes
// defer _ga_rt.CloseLater(t, ch, site), so the hook runs where the close
// does, after the function's work.
func CloseLater[C ~chan E, E any](t *Task, ch C, s Site) {
	if t != nil {
		t.ClosedOn(ch, s)
	}
	close(ch)
}

// CloseLaterSendOnly is CloseLater for a send-only channel.
func CloseLaterSendOnly[C ~chan<- E, E any](t *Task, ch C, s Site) {
	if t != nil {
		t.ClosedOn(ch, s)
	}
	close(ch)
}

// ForeignLater calls t.Foreign(), then f: a deferred call into code that
// is not rewritten (defer cancel()) in a construct's own statements, where
// no statement can be added after it (ForeignNext). f is not called by
// the defer itself: a recover() in it returns nil.
func ForeignLater(t *Task, f func()) {
	if t != nil {
		t.Foreign()
	}
	f()
}

// ForeignNext calls t.Foreign(). It is deferred right after a deferred
// call into code that is not rewritten (defer dep.Unlock(&mu), defer
// cancel()): deferred calls run last in first out, so it runs right before
// that call, at the function's end; the call's function value and
// arguments are still evaluated at its own defer statement, whatever their
// types, and a recover() in it is called by the defer (defer dep.Catch(&err)).
func ForeignNext(t *Task) {
	if t != nil {
		t.Foreign()
	}
}

// ForeignLaterErr is ForeignLater for a call with an error result
// (defer g.Wait()), which the defer drops.
func ForeignLaterErr(t *Task, f func() error) {
	if t != nil {
		t.Foreign()
	}
	_ = f()
}

// WaitCall calls t.SyncAcquire(obj), then f: defer wg.Wait().
func WaitCall(t *Task, obj any, f func()) {
	if t != nil {
		t.SyncAcquire(obj)
	}
	f()
}

// StoreLater checks the atomic store of *p at site s and makes it, as
// store(v): defer done.Store(true) becomes
// defer _ga_rt.StoreLater(t, &done, site, done.Store, true).
func StoreLater[P, V any](t *Task, p *P, s Site, store func(V), v V) {
	if t != nil {
		t.AtomicWrite(uintptr(unsafe.Pointer(p)), s)
	}
	store(v)
}

// SyncValue returns the method value m of the sync object p hooked for
// the happens-before layer where it is called, on whichever goroutine:
// wait := wg.Wait becomes wait := _ga_rt.SyncValue(&wg, wg.Wait, acquire)
// (release for Done and Unlock, acquire for Wait and Lock). The hook finds
// the calling goroutine's thread (HB), as the value may be called
// anywhere. A mutex's Lock and Unlock are hooked as a direct call's are.
func SyncValue(p any, m func(), acquire bool) func() {
	if mu, ok := mutexAddr(p); ok {
		if acquire {
			return func() {
				m()
				HB().Lock(mu)
			}
		}
		return func() {
			HB().Unlock(mu)
			m()
		}
	}
	if acquire {
		return func() {
			m()
			if t := HB(); t != nil {
				t.SyncAcquire(p)
				t.After()
			}
		}
	}
	return func() {
		if t := HB(); t != nil {
			t.SyncRelease(p)
		}
		m()
	}
}
