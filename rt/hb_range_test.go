package rt

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHBRangeIsElementwise: a range check of elements smaller than a
// word, which hbRange makes a word at a time (accessWord), reports
// exactly what checking each element does. For runs of 1-, 2- and 4-byte
// elements at random offsets and lengths, a goroutine checks two runs and
// the root, unordered with it, two more; the raw reports of the two ways
// (kind, offset, both sites) are equal, in order. Runs of one goroutine
// overlap, so repeats in the epoch, whole and partial, are covered.
func TestHBRangeIsElementwise(t *testing.T) {
	type run struct {
		lo, n uintptr
		write bool
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var total int
	for round := range 300 {
		elem := [...]uintptr{1, 2, 4}[round%3]
		runs := make([]run, 4)
		for i := range runs {
			runs[i] = run{uintptr(rng.IntN(24)), uintptr(rng.IntN(24)), rng.IntN(2) == 0}
		}
		var got [2][]string
		for way, name := range []string{"range", "elements"} {
			t.Run(fmt.Sprintf("%d/%s", round, name), func(t *testing.T) {
				root, e := hbTestRoot(t, "", io.Discard)
				buf := New(nil, new([128]byte))
				base := addrOf(&buf[0])
				e.rep.raw = func(r rawReport) {
					got[way] = append(got[way], fmt.Sprint(r.kind, " at +", r.addr-base, ": ", wordSite(r.sink), " after ", wordSite(r.source)))
				}
				check := func(k *Task, r run, site Site) {
					a := base + r.lo*elem
					switch {
					case way == 0 && r.write:
						k.WriteRange(a, r.n, elem, site)
					case way == 0:
						k.ReadRange(a, r.n, elem, site)
					default:
						for i := range r.n {
							if r.write {
								k.Write(a+i*elem, site)
							} else {
								k.Read(a+i*elem, site)
							}
						}
					}
				}
				done := make(chan struct{})
				hbGo(root, func(k *Task) {
					check(k, runs[0], 1)
					check(k, runs[1], 2)
					close(done)
				})
				<-done // not hooked: the goroutine's checks are unordered with the root's
				check(root, runs[2], 3)
				check(root, runs[3], 4)
			})
		}
		if !slices.Equal(got[0], got[1]) {
			t.Fatalf("round %d, %d-byte elements, runs %+v:\nby range:\n%q\nelement by element:\n%q", round, elem, runs, got[0], got[1])
		}
		total += len(got[0])
	}
	if total == 0 {
		t.Fatal("no run conflicted: the test tests nothing")
	}
	t.Logf("%d raw reports, equal both ways", total)
}
