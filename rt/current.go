package rt

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Code reached through a function value, a method value or an interface
// cannot be given the task as a hidden parameter: the caller does not know
// which function it calls. Such code finds its task from the goroutine
// instead. A construct's goroutines attach their task when they start
// (Attach) and detach it when they end (Detach); a goroutine that enters a
// root construct is attached to the new root task until the root joins.
// Rewritten functions that may be called that way begin with
//
//	if t := rt.Current(); t != nil { return checkedClone(t, args...) }
//
// so they run checked exactly when their goroutine is inside a construct.
//
// This is the portable reference implementation: the goroutine is named by
// the id runtime.Stack prints, and the table is a map under a mutex. Outside
// any construct (no goroutine attached anywhere) Current costs one atomic
// load.

// Current returns the task of the calling goroutine, or nil when it runs
// outside every construct.
func Current() *Task { return current() }

// Attach makes t the calling goroutine's task until Detach. A nil t does
// nothing.
func Attach(t *Task) { attach(t) }

// Detach ends what Attach began in the calling goroutine.
func Detach() { detach() }

var (
	attached atomic.Int64 // goroutines attached now
	glsMu    sync.Mutex
	gls      = map[uint64]*Task{}
)

func current() *Task {
	if attached.Load() == 0 {
		return nil
	}
	id := goid()
	glsMu.Lock()
	t := gls[id]
	glsMu.Unlock()
	return t
}

func attach(t *Task) {
	if t == nil {
		return
	}
	id := goid()
	glsMu.Lock()
	if _, ok := gls[id]; !ok {
		attached.Add(1)
	}
	gls[id] = t
	glsMu.Unlock()
}

func detach() {
	id := goid()
	glsMu.Lock()
	if _, ok := gls[id]; ok {
		delete(gls, id)
		attached.Add(-1)
	}
	glsMu.Unlock()
}

// setAttached makes t (nil: none) the calling goroutine's task and returns
// the one it replaces.
func setAttached(t *Task) (prev *Task) {
	prev = current()
	if t == nil {
		detach()
	} else {
		attach(t)
	}
	return prev
}

// goid returns the calling goroutine's id, parsed from the first line of
// its stack trace ("goroutine 18 [running]:").
func goid() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	const prefix = "goroutine "
	var id uint64
	for _, c := range b[len(prefix):] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	return id
}
