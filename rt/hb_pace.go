package rt

import (
	"runtime"
	"runtime/metrics"
	"sync/atomic"
)

// Collections at the shadow's pace. Extension records live outside the
// Go heap (hb_ext.go), so the collector does not see them grow, and a
// record is given back only by a sweep after a collection (hb_gen.go)
// or when rewritten code allocates at its address again. A program that
// allocates little while its threads read much (bench/unstructured/pubsub:
// every subscriber reads every payload) went 9 collections in its run
// once the check path stopped allocating, and its records grew to 200 MB
// (25 MB at 164 collections before). So the program's engine counts how
// much the record memory its extensions hold grew since the last
// collection (taken minus given back: a sweep gives back only what two
// collections did not see touched, so the records in use are about three
// counts), and when that outgrows the live heap (and hbPaceFloor) it asks
// for a collection, from a goroutine of its own: the check that noticed
// goes on. Records taken and given back between two collections do not
// count: a collection would bring back none of them, and each one
// shortens the time a history lives (hb_gen.go). With collections off
// (GOGC=off, debug.SetGCPercent(-1)) it asks for none: the program said
// it wants none, and the records then grow as the heap does.

// hbPaceFloor is the least record memory between collections the
// engine asks for; a stripe's pool counts hbPaceBatch bytes before it
// tells the engine (at most 256 KB not counted over 256 stripes). With
// the records in use counted (not the reuse), a 4 MB floor let pubsub's
// records reach 55-69 MB (a sweep gives back what two collections did
// not see touched); 1 MB keeps them at 27-33 MB for about 85 collections
// of a 2 MB heap in its 4-second run.
const (
	hbPaceFloor = 1 << 20
	hbPaceBatch = 1 << 10
)

// hbPace is the state of an engine's pacing.
type hbPace struct {
	grown  atomic.Int64 // record bytes extensions took minus gave back since the last collection
	limit  atomic.Int64 // ask for a collection when grown passes it
	asked  atomic.Bool  // a collection was asked for and has not been counted
	sample []metrics.Sample
	gogc   [1]metrics.Sample // read by the goroutine that set asked

	// Tests replace these: the live heap (nil: runtime/metrics') and how
	// a collection is asked for (nil: runtime.GC from a goroutine).
	live func() uint64
	gc   func()
	off  func() bool // whether collections are off (nil: runtime/metrics')
}

// gcOff reports whether the program turned collections off. Only the
// goroutine that set asked calls it.
func (p *hbPace) gcOff() bool {
	if p.off != nil {
		return p.off()
	}
	p.gogc[0].Name = "/gc/gogc:percent"
	metrics.Read(p.gogc[:])
	v := p.gogc[0].Value
	return v.Kind() == metrics.KindUint64 && int64(v.Uint64()) < 0
}

// took counts n record bytes extensions of e took (negative: gave back),
// and asks for a collection when the count passes the limit. Only the program's engine (one
// whose shadow turns generations) asks: a test engine's keeps every
// history.
func (p *hbPace) took(e *hbEngine, n int64) {
	if !e.generations.Load() || p.grown.Add(n) < p.limit.Load() || !p.asked.CompareAndSwap(false, true) {
		return
	}
	if p.gcOff() {
		return // asked stays set: no more reads of the setting until a collection comes
	}
	if p.gc != nil {
		p.gc()
		return
	}
	go runtime.GC()
}

// collected starts a new count at a collection (and when the engine
// starts turning generations): the limit is the live heap, at least
// hbPaceFloor. It runs on the finalizer goroutine, one at a time.
func (p *hbPace) collected() {
	p.limit.Store(max(hbPaceFloor, int64(p.liveHeap())))
	p.grown.Store(0)
	p.asked.Store(false)
}

// liveHeap returns the bytes of the Go heap the last collection found
// live.
func (p *hbPace) liveHeap() uint64 {
	if p.live != nil {
		return p.live()
	}
	if p.sample == nil {
		p.sample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	}
	metrics.Read(p.sample)
	if v := p.sample[0].Value; v.Kind() == metrics.KindUint64 {
		return v.Uint64()
	}
	return 0
}
