package rt

import (
	"bytes"
	"io"
	"testing"
)

// TestHBGenerations: with generations on, a history survives one
// collection (and is moved to the new generation when touched), and is
// dropped after two collections without a touch: the race is then missed,
// never invented.
func TestHBGenerations(t *testing.T) {
	RegisterSites(9400, []SiteInfo{{Pos: "gen.go:1:1", What: "x"}, {Pos: "gen.go:2:1", What: "y"}})
	var out bytes.Buffer
	root, e := hbTestRoot(t, "", &out)
	e.generations.Store(true)            // turned by hand below, not by the collector
	xs, ys := new([16]int), new([16]int) // 128 bytes each: x and y in cells of their own
	x, y := &xs[8], &ys[8]
	wrote, bumped, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	hbGo(root, func(k *Task) {
		k.Write(addrOf(x), 9400)
		k.Write(addrOf(y), 9401)
		close(wrote)
		<-bumped                 // not hooked
		k.Write(addrOf(y), 9401) // touched after one collection: y's history moves on
		close(done)
	})
	<-wrote // not hooked: everything below is unordered with the goroutine
	e.gcGen.Add(1)
	close(bumped)
	<-done
	e.gcGen.Add(1) // x was not touched for two collections: dropped; y was
	root.Write(addrOf(x), 9400)
	root.Write(addrOf(y), 9401)
	if races(e) != 1 || !bytes.Contains(out.Bytes(), []byte("gen.go:2:1")) || bytes.Contains(out.Bytes(), []byte("gen.go:1:1")) {
		t.Fatalf("want y's race only (x's history was dropped):\n%s", out.String())
	}
	if n := e.liveExts(); n < 0 {
		t.Fatalf("extension count went negative: %d", n)
	}
}

// TestHBSweepGivesBackExtensions: the sweep after a collection gives
// back the extensions of cells not touched since the collection before
// last (a freed message's read set), and keeps the others.
func TestHBSweepGivesBackExtensions(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	e.generations.Store(true)                                                            // turned by hand below, not by the collector
	xs, ys := New(nil, new([4][hbGrain / 8]int64)), New(nil, new([4][hbGrain / 8]int64)) // a granule each
	done := make(chan struct{})
	hbGo(root, func(k *Task) { // reads unordered with the root's: read sets, in extensions
		for i := range xs {
			k.Read(addrOf(&xs[i][0]), 1)
			k.Read(addrOf(&ys[i][0]), 1)
		}
		close(done)
	})
	<-done // not hooked
	for i := range xs {
		root.Read(addrOf(&xs[i][0]), 2)
		root.Read(addrOf(&ys[i][0]), 2)
	}
	if n := e.liveExts(); n != 8 {
		t.Fatalf("%d extensions for 8 granules read by two goroutines unordered, want 8", n)
	}
	e.gcGen.Add(1)
	for i := range ys {
		root.Read(addrOf(&ys[i][0]), 2) // touched after the first collection: kept
	}
	e.gcGen.Add(1)
	e.sweep()
	if n := e.liveExts(); n != 4 {
		t.Fatalf("%d extensions after the sweep, want ys' 4", n)
	}
}
