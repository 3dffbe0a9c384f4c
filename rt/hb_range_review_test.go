package rt

import (
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestHBRangeAsElements: a range of elements of 1, 2 or 4 bytes from any
// address (unaligned, across words, over words the thread's cache holds
// in part from single accesses of the same epoch) reports exactly the
// conflicts that checking each element alone reports. Two engines play
// the same random trace of threads, one with ReadRange and WriteRange,
// the other element by element.
func TestHBRangeAsElements(t *testing.T) {
	var total int
	for seed := range uint64(200) {
		ranged := playRanges(seed, true)
		single := playRanges(seed, false)
		if !slices.Equal(ranged, single) {
			t.Fatalf("seed %d: ranges reported\n%v\nelement by element\n%v", seed, ranged, single)
		}
		total += len(single)
	}
	if total == 0 {
		t.Fatal("no trace raced: the test tests nothing")
	}
	t.Logf("%d reports", total)
}

// playRanges plays trace seed on a fresh engine, checking ranges as
// ranges (ranged) or element by element, and returns its reports as
// "addr sink source" strings, sorted.
func playRanges(seed uint64, ranged bool) []string {
	rng := rand.New(rand.NewPCG(seed, 99))
	e := &hbEngine{rep: newReporter(parseOptions("", io.Discard), io.Discard)}
	var reps []string
	e.rep.raw = func(r rawReport) { reps = append(reps, fmt.Sprintf("%#x %#x %#x", r.addr, r.sink, r.source)) }
	root := e.root()
	root.roots = 1
	threads := []*hbThread{root}
	for range 2 {
		threads = append(threads, root.task.Go().hb.thread())
	}
	const base = 0x50000 // 48 bytes: six words
	// On the heap: a new(int) kept on this goroutine's stack moves when
	// the stack grows, and its clock, keyed by address, stays behind.
	objs := [2]*int{reflect.New(reflect.TypeFor[int]()).Interface().(*int), reflect.New(reflect.TypeFor[int]()).Interface().(*int)}
	for step := range 60 {
		th := threads[rng.IntN(len(threads))]
		t := &th.task
		site := Site(step + 1)
		switch r := rng.IntN(10); {
		case r < 6:
			elem := [...]uintptr{1, 2, 4}[rng.IntN(3)]
			addr := base + uintptr(rng.IntN(40))
			n := 1 + uintptr(rng.IntN(int((base+48-addr)/elem)))
			write := rng.IntN(3) == 0
			switch {
			case ranged && write:
				t.WriteRange(addr, n, elem, site)
			case ranged:
				t.ReadRange(addr, n, elem, site)
			default:
				for k := range n {
					if write {
						t.Write(addr+k*elem, site)
					} else {
						t.Read(addr+k*elem, site)
					}
				}
			}
		case r < 8: // one address: the thread's cache holds part of its word
			addr := base + uintptr(rng.IntN(48))
			if rng.IntN(2) == 0 {
				t.Write(addr, site)
			} else {
				t.Read(addr, site)
			}
		case r < 9:
			t.SyncRelease(objs[rng.IntN(2)])
		default:
			t.SyncAcquire(objs[rng.IntN(2)])
		}
	}
	slices.Sort(reps)
	return reps
}
