package decisions

import "sync/atomic"

// The locals below are atomic only when every use calls one of their
// methods (atomiconly.go).

var globalCount atomic.Int64 // a global: another function may copy it

var sink int64

func counters(p *atomic.Int64, xs []atomic.Int32) {
	var next atomic.Int64       // want `atomic only: next is touched only by its sync/atomic methods`
	done := atomic.Bool{}       // want `atomic only: done is touched only by its sync/atomic methods`
	var ptr atomic.Pointer[int] // want `atomic only: ptr is touched only by its sync/atomic methods`
	var copied atomic.Int64     // copied below: a plain read
	var addressed atomic.Int64  // &addressed escapes
	var bound atomic.Int64      // a method value binds &bound
	var assigned atomic.Int64   // assigned whole below
	next.Add(1)
	done.Store(true)
	ptr.Store(new(int))
	copied.Add(1)
	snapshot := copied // want `atomic only: snapshot is touched only by its sync/atomic methods`
	addressed.Add(1)
	p = &addressed
	add := bound.Add
	add(1)
	assigned = atomic.Int64{}
	assigned.Add(2)
	for _, x := range xs { // x is a copy of an element: not a declaration in the body
		x.Add(1)
	}
	globalCount.Add(1)
	p.Add(1) // a parameter's memory is the caller's
	sink = next.Load() + snapshot.Load() + p.Load() + assigned.Load()
}
