package rt

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"
)

// hbRangeOp is one step of TestHBRangeIsElementwise: thread th checks a
// run of n elements of elem bytes from element lo (as one range check, or
// element by element in the other way), a single access, an atomic, or
// synchronizes on object key (a release, an acquire, a lock, an unlock).
type hbRangeOp struct {
	th, kind int
	lo, n    uintptr
	elem     uintptr
	off      uintptr // bytes past base+lo*elem the run starts at: a run of elements not aligned to their size
	write    bool
	site     Site
	key      uintptr
}

const (
	hbRangeRun = iota
	hbRangeSingle
	hbRangeAtomic
	hbRangeRelease
	hbRangeAcquire
	hbRangeLock
	hbRangeUnlock
)

// TestHBRangeIsElementwise: a range check of elements smaller than a
// word, which hbRange makes a word at a time (accessGrain), reports
// exactly what checking each element does: the raw reports (kind,
// offset, both sites), in order, are equal. Random programs of two or
// three threads, run in one interleaving, mix runs of 1-, 2-, 4- and
// 8-byte elements at random offsets (a quarter of them not aligned to
// their size), single and atomic accesses, releases and
// acquires and critical sections, so a word's run meets repeats of the
// epoch, whole and partial, extensions, races and the weak rule's logs.
// (A reviewer's version of this test found that a run's write over
// addresses the thread had written in the epoch moved their site and
// dropped their reads, where single checks skip them as repeats.)
func TestHBRangeIsElementwise(t *testing.T) {
	rounds := 4000
	if testing.Short() {
		rounds = 400
	}
	var total int
	for round := range rounds {
		rng := rand.New(rand.NewPCG(uint64(round), 14))
		nth := 2 + rng.IntN(2)
		var ops []hbRangeOp
		held := map[uintptr]int{} // lock key -> the thread holding it
		for range 3 + rng.IntN(12) {
			op := hbRangeOp{th: rng.IntN(nth), site: Site(1 + rng.IntN(4)), write: rng.IntN(3) == 0, key: uintptr(rng.IntN(2))}
			op.elem = [...]uintptr{1, 2, 4, 8}[rng.IntN(4)]
			op.lo, op.n = uintptr(rng.IntN(int(24/op.elem))), uintptr(1+rng.IntN(int(24/op.elem)))
			if rng.IntN(4) == 0 {
				op.off = uintptr(rng.IntN(int(op.elem)))
			}
			switch k := rng.IntN(20); {
			case k < 10:
				op.kind = hbRangeRun
			case k < 12:
				op.kind = hbRangeSingle
			case k < 14:
				op.kind = hbRangeAtomic
			case k < 15:
				op.kind = hbRangeRelease
			case k < 16:
				op.kind = hbRangeAcquire
			case held[op.key] != 0:
				op.kind, op.th = hbRangeUnlock, held[op.key]-1
				delete(held, op.key)
			default:
				op.kind = hbRangeLock
				held[op.key] = op.th + 1
			}
			ops = append(ops, op)
		}
		var got [2][]string
		for way, name := range []string{"range", "elements"} {
			t.Run(fmt.Sprintf("%d/%s", round, name), func(t *testing.T) {
				got[way] = hbRangePlay(t, ops, nth, way == 0)
			})
		}
		if !slices.Equal(got[0], got[1]) {
			t.Fatalf("round %d, ops %+v:\nby range:\n%q\nelement by element:\n%q", round, ops, got[0], got[1])
		}
		total += len(got[0])
	}
	if total == 0 {
		t.Fatal("nothing conflicted: the test tests nothing")
	}
	t.Logf("%d raw reports, equal both ways", total)
}

// hbRangePlay runs ops on a fresh engine, thread 0 the root and the others
// goroutines it started, one op at a time, and returns the raw reports;
// byRange says how a run is checked.
func hbRangePlay(t *testing.T, ops []hbRangeOp, nth int, byRange bool) []string {
	root, e := hbTestRoot(t, "", io.Discard)
	buf := New(nil, new([64]byte))
	base := addrOf(&buf[0])
	mus := addrOf(&new([2]uint64)[0])
	var reps []string
	e.rep.raw = func(r rawReport) {
		reps = append(reps, fmt.Sprint(r.kind, " at +", r.addr-base, ": ", wordSite(r.sink), " after ", wordSite(r.source)))
	}
	steps := make([]chan func(*Task), nth)
	done := make(chan struct{})
	for i := 1; i < nth; i++ {
		steps[i] = make(chan func(*Task))
		hbGo(root, func(k *Task) {
			for f := range steps[i] {
				f(k)
				done <- struct{}{}
			}
		})
	}
	for _, op := range ops {
		f := func(k *Task) {
			th, a := k.hb, base+op.lo*op.elem+op.off
			switch op.kind {
			case hbRangeRun, hbRangeSingle:
				n := op.n
				if op.kind == hbRangeSingle {
					n = 1
				}
				switch {
				case op.kind == hbRangeRun && byRange && op.write:
					k.WriteRange(a, n, op.elem, op.site)
				case op.kind == hbRangeRun && byRange:
					k.ReadRange(a, n, op.elem, op.site)
				default:
					for i := range n {
						if op.write {
							k.Write(a+i*op.elem, op.site)
						} else {
							k.Read(a+i*op.elem, op.site)
						}
					}
				}
			case hbRangeAtomic:
				k.hbAccess(a, op.site, op.write, true)
			case hbRangeRelease, hbRangeAcquire:
				th.mu.Lock()
				th.takePending(false)
				if op.kind == hbRangeRelease {
					th.releaseTo(hbKey{op.key + 1, hbObject})
				} else {
					th.acquireObj(hbKey{op.key + 1, hbObject})
				}
				th.mu.Unlock()
			case hbRangeLock:
				k.Lock(mus + op.key*8)
			case hbRangeUnlock:
				k.Unlock(mus + op.key*8)
			}
		}
		if op.th == 0 {
			f(root)
			continue
		}
		steps[op.th] <- f // the goroutines' steps are unhooked: only the ops order them
		<-done
	}
	for i := 1; i < nth; i++ {
		close(steps[i])
	}
	return reps
}
