package rt

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestHBSweepDuringChecks: sweeps run back to back while goroutines read
// and write words whose read sets live in extensions, and while words
// are forgotten (their extensions given back to the stripe's pool and
// taken by other cells, whose last owners the sweep may still visit).
// Every access is ordered by a reader-writer protocol of Sync objects:
// dropped histories may hide races, but nothing may be reported, and
// the extension count must come back to what the cells hold.
func TestHBSweepDuringChecks(t *testing.T) {
	var out bytes.Buffer
	root, e := hbTestRoot(t, "", &out)
	e.generations.Store(true) // turned by the sweeper below, not by the collector
	const words, workers, rounds = 2048, 4, 6000
	arr := make([]uint64, words)
	base := addrOf(&arr[0])
	var rw sync.RWMutex
	wObj, rObj := new(int), new(int) // the writers' and the readers' releases
	stop := make(chan struct{})
	swept := make(chan int)
	go func() { // not a thread: the finalizer goroutine's part
		n := 0
		for {
			select {
			case <-stop:
				swept <- n
				return
			default:
			}
			e.gcGen.Add(1)
			e.sweep()
			n++
			time.Sleep(20 * time.Microsecond) // read sets grow between sweeps

		}
	}()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		hbGo(root, func(k *Task) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for range rounds {
				lo := rng.IntN(words)
				n := 1 + rng.IntN(min(256, words-lo))
				switch rng.IntN(8) {
				case 0, 1: // write a range
					rw.Lock()
					k.SyncAcquire(wObj)
					k.SyncAcquire(rObj)
					k.WriteRange(base+uintptr(lo)*8, uintptr(n), 8, 2)
					k.SyncRelease(wObj)
					rw.Unlock()
				case 2: // new memory over a range: its cells forgotten
					rw.Lock()
					k.SyncAcquire(wObj)
					k.SyncAcquire(rObj)
					e.forget(base+uintptr(lo)*8, uintptr(n)*8)
					k.WriteRange(base+uintptr(lo)*8, uintptr(n), 1, 3) // bytes: masks
					k.SyncRelease(wObj)
					rw.Unlock()
				default: // read a range, unordered with the other readers
					rw.RLock()
					k.SyncAcquire(wObj)
					k.ReadRange(base+uintptr(lo)*8+uintptr(rng.IntN(8)), uintptr(n), 1+uintptr(rng.IntN(2)), 4)
					k.SyncRelease(rObj)
					rw.RUnlock()
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	n := <-swept
	if races(e) != 0 {
		t.Fatalf("%d races reported on accesses ordered by the protocol:\n%s", races(e), &out)
	}
	if made := e.exts.n.Load(); n < 3 || made < 100 {
		t.Fatalf("%d sweeps ran during the checks, %d extensions were made: nothing was tested", n, made)
	}
	t.Logf("%d sweeps, %d extension indexes", n, e.exts.n.Load())
	// Every cell untouched for two collections: the sweep gives back
	// every extension.
	e.gcGen.Add(2)
	e.sweep()
	if l := e.liveExts(); l != 0 {
		t.Fatalf("%d extensions live after a sweep of cells two collections old, want 0", l)
	}
}

// TestHBRaceAfterExtensionReuse: an extension given back by a forgotten
// word and taken by another word of the same stripe must hold only the
// new word's histories: a read of the new word races with an unordered
// write of it, and the old word's history does not come back.
func TestHBRaceAfterExtensionReuse(t *testing.T) {
	RegisterSites(9800, []SiteInfo{{Pos: "reuse.go:1:1", What: "a"}, {Pos: "reuse.go:2:1", What: "b"}, {Pos: "reuse.go:3:1", What: "b"}})
	var out bytes.Buffer
	root, e := hbTestRoot(t, "", &out)
	e.generations.Store(true)
	arr := make([][hbGrain / 8]uint64, 1<<14) // 256 KB, an element per granule: cells of every stripe
	done := make(chan struct{})
	hbGo(root, func(k *Task) {
		for i := range arr {
			k.Read(addrOf(&arr[i][0]), 9800) // read sets of two, with the root's below: extensions
		}
		close(done)
	})
	<-done // not hooked: unordered
	for i := range arr {
		root.Read(addrOf(&arr[i][0]), 9800)
	}
	if l := e.liveExts(); l != int64(len(arr)) {
		t.Fatalf("%d extensions, want %d", l, len(arr))
	}
	half := len(arr) / 2
	e.forget(addrOf(&arr[0]), uintptr(half)*hbGrain) // the first half's extensions go back to their stripes
	if l := e.liveExts(); l != int64(len(arr)-half) {
		t.Fatalf("%d extensions after forgetting half, want %d", l, len(arr)-half)
	}
	// The second half, written by a new goroutine unordered with the
	// root, then read by the root: each word's read set now grows from
	// the extension of another, given back.
	done2 := make(chan struct{})
	hbGo(root, func(k *Task) {
		for i := half; i < len(arr); i++ {
			k.Write(addrOf(&arr[i][0]), 9801)
		}
		close(done2)
	})
	<-done2
	// The first half, read again by two unordered threads (taking the
	// given-back extensions): no race, as before.
	done3 := make(chan struct{})
	hbGo(root, func(k *Task) {
		for i := range half {
			k.Read(addrOf(&arr[i][0]), 9800)
		}
		close(done3)
	})
	<-done3
	for i := range half {
		root.Read(addrOf(&arr[i][0]), 9800)
	}
	// The second half's histories fit inline again (a write and one read):
	// its extensions went back to the pools, and the first half's new
	// read sets took them (no index given out anew).
	if l, n := e.liveExts(), e.exts.n.Load(); l != int64(half) || n != uint32(len(arr)) {
		t.Fatalf("%d extensions live, %d indexes given out; want %d and %d", l, n, half, len(arr))
	}
	for i := half; i < len(arr); i++ {
		root.Write(addrOf(&arr[i][0]), 9802)
	}
	// The second half: goroutine 3's writes race with goroutine 2's reads,
	// and the root's writes with both (goroutine 3's write did not order
	// goroutine 2's reads). The first half, read only, races nowhere.
	text := out.String()
	if races(e) != 3 || strings.Count(text, "Write of b at reuse.go:2:1") != 1 || strings.Count(text, "Write of b at reuse.go:3:1") != 2 {
		t.Fatalf("want the second half's 3 races, got %d:\n%s", races(e), text)
	}
}

// TestHBPaceChurnAsksNone: a program whose record memory in use does not
// grow (a publisher rewrites one buffer, two subscribers read it
// unordered with each other, and the publisher's next write, ordered
// after their reads, gives each word's extension back) asks for no
// collection: the collections it would ask for bring back nothing, and
// each one shortens the time a history lives (hb_gen.go): a race whose
// two accesses are two asked-for collections apart is missed.
func TestHBPaceChurnAsksNone(t *testing.T) {
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	asked := 0
	e.pace.live = func() uint64 { return 0 } // the floor
	e.pace.gc = func() { asked++; e.pace.collected() }
	e.pace.collected()
	e.generations.Store(true) // turned by hand: no collection is counted here
	pub := &e.root().task
	s1, s2 := &pub.Go().hb.thread().task, &pub.Go().hb.thread().task
	buf := make([]uint64, 512)
	base, n := addrOf(&buf[0]), uintptr(len(buf))
	ch := new(int)
	const rounds = 2000 // 40 MB of records taken and given back
	for range rounds {
		pub.WriteRange(base, n, 8, 1)
		pub.Chan(ch)
		s1.Chan(ch)
		s2.Chan(ch) // before s1's reads: the two read unordered
		s1.ReadRange(base, n, 8, 2)
		s2.ReadRange(base, n, 8, 3)
		s1.Chan(ch)
		s2.Chan(ch)
		pub.Chan(ch) // the next write follows both reads
	}
	if races(e) != 0 {
		t.Fatalf("%d races", races(e))
	}
	grains := int((base+n*8-1)>>hbGrainShift - base>>hbGrainShift + 1) // 257 where the buffer is not 16-byte aligned (under -race)
	if made := e.exts.n.Load(); made < uint32(grains) || e.liveExts() > int64(grains) {
		t.Fatalf("%d extensions made, %d live: want the buffer's granules' read sets, given back at each write", made, e.liveExts())
	}
	if asked != 0 {
		t.Fatalf("asked for %d collections while the records in use stayed %d extensions' worth", asked, len(buf))
	}
}
