package rt

import (
	"io"
	"runtime/debug"
	"testing"
)

// TestHBPaceBoundsRecords: a program that allocates little while its
// threads read much (each 32-byte message read by five subscribers: a
// read set per word, in records outside the Go heap) keeps its records
// bounded, because the engine asks for collections at the pace its
// records are taken (hb_pace.go), and the sweep after each gives back
// what is no longer touched. Without the pacing the collector runs at the
// messages' pace, eight times slower than the records', and the records
// in use grow with the run.
func TestHBPaceBoundsRecords(t *testing.T) {
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	e.pace.live = func() uint64 { return 0 } // not the test process's heap: the floor
	e.dropOld()
	f := newHBFanOut(e, 5)
	var peak int64
	for i := range 200_000 {
		f.deliver(make([]byte, 32)) // a new message, at an address the collector may have freed
		if i%1000 == 0 {
			peak = max(peak, e.liveExts())
		}
	}
	// 1 MB of records between collections is about 12,000 extensions of
	// four or eight entries; a sweep gives back what two collections did
	// not see touched.
	if peak > 200_000 {
		t.Errorf("%d extensions in use at the peak (200,000 messages, 800,000 words read)", peak)
	}
	t.Logf("peak: %d extensions in use", peak)
	if n := races(e); n != 0 {
		t.Fatalf("%d races", n)
	}
}

// TestHBPaceAsksOnce: the engine asks for a collection when the records
// its extensions took since the last one pass the limit, once until the
// collection is counted, and not at all when its shadow keeps every
// history (a test engine's).
func TestHBPaceAsksOnce(t *testing.T) {
	e := &hbEngine{}
	asked := 0
	e.pace.gc = func() { asked++ }
	e.pace.live = func() uint64 { return 10 << 20 }
	e.pace.collected()
	e.pace.took(e, 20<<20)
	if asked != 0 {
		t.Fatalf("asked %d times by an engine that keeps every history", asked)
	}
	e.generations.Store(true)
	e.pace.took(e, 10<<20-1)
	if asked != 0 {
		t.Fatalf("asked below the limit (the live heap, 10 MB)")
	}
	e.pace.took(e, 1)
	e.pace.took(e, 1<<20)
	if asked != 1 {
		t.Fatalf("asked %d times past the limit, want once", asked)
	}
	e.pace.live = func() uint64 { return 0 }
	e.pace.collected() // the limit is the floor now
	e.pace.took(e, hbPaceFloor)
	if asked != 2 {
		t.Fatalf("asked %d times after a collection and the floor's worth, want 2", asked)
	}
}

// TestHBPaceOffAsksNone: with collections off (GOGC=off) the engine asks
// for none, and looks at the setting once per limit passed, until a
// collection comes (GOMEMLIMIT's, or one the program asks for) and the
// count starts again; with collections on again it asks.
func TestHBPaceOffAsksNone(t *testing.T) {
	e := &hbEngine{}
	e.generations.Store(true)
	asked, looked, off := 0, 0, true
	e.pace.gc = func() { asked++ }
	e.pace.off = func() bool { looked++; return off }
	e.pace.live = func() uint64 { return 0 }
	e.pace.collected()
	for range 10 {
		e.pace.took(e, hbPaceFloor)
	}
	if asked != 0 || looked != 1 {
		t.Fatalf("collections off: asked %d times, looked at the setting %d times; want 0 and 1", asked, looked)
	}
	off = false
	e.pace.collected()
	e.pace.took(e, hbPaceFloor)
	if asked != 1 {
		t.Fatalf("collections on again: asked %d times, want 1", asked)
	}
}

// TestHBPaceGCOffSetting reads the program's real setting.
func TestHBPaceGCOffSetting(t *testing.T) {
	var p hbPace
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	if p.gcOff() {
		t.Fatal("collections reported off at GOGC=100")
	}
	debug.SetGCPercent(-1)
	if !p.gcOff() {
		t.Fatal("collections reported on after SetGCPercent(-1)")
	}
}
