package rt

import (
	"encoding/binary"
	"flag"
	"fmt"
	"maps"
	"slices"
	"sync/atomic"
	"testing"
)

// checkProg runs p under both protocols and compares with the oracle. It
// returns the oracle's conflicting (location, class) pairs.
func checkProg(p *prog, atomics bool) (map[locClass]bool, error) {
	o := buildOracle(p)
	want := o.conflicts(atomics)
	// The wait-free protocol runs twice: without the recent sets and with
	// one in every task from its first check (recent.go), so that every
	// repeated access of a block skips its check.
	for _, v := range []struct {
		locked bool
		recent uint64
	}{{false, 0}, {false, 1}, {true, 0}} {
		locked := v.locked
		cfg := config{exitcode: 66, maxCells: defaultMaxCells, locked: locked, atomics: atomics, recent: v.recent}
		reps, r := runProg(p, cfg)
		got := map[locClass]bool{}
		for _, x := range reps {
			loc := r.loc(x.addr)
			if why := o.checkReport(x, loc, atomics); why != "" {
				return nil, fmt.Errorf("locked=%v recent=%d atomics=%v: false report %s on loc%d sink site %d source site %d: %s",
					locked, v.recent, atomics, x.kind, loc, wordSite(x.sink), wordSite(x.source), why)
			}
			got[locClass{loc, x.class}] = true
		}
		switch {
		case locked && !maps.Equal(got, want):
			return nil, fmt.Errorf("locked protocol, atomics=%v: reported %v, oracle %v", atomics, sorted(got), sorted(want))
		case !locked:
			for lc := range want {
				if got[locClass{lc.loc, dataRace}] || got[locClass{lc.loc, nondet}] {
					continue
				}
				if p.nested {
					nestedMisses.Add(1)
					continue
				}
				return nil, fmt.Errorf("wait-free protocol, recent=%d atomics=%v: no report on loc%d, oracle %v", v.recent, atomics, lc.loc, sorted(want))
			}
		}
	}
	return want, nil
}

// nestedMisses counts conflicting locations of nested programs the
// wait-free protocol did not report (it promises completeness only without
// nesting); the test logs it.
var nestedMisses atomic.Int64

// sorted lists a location set for messages.
func sorted(m map[locClass]bool) []string {
	var s []string
	for lc := range m {
		s = append(s, fmt.Sprintf("loc%d:%s", lc.loc, lc.class))
	}
	slices.Sort(s)
	return s
}

// The seeds the property test runs, for a longer or another run than the
// default (go test ./rt -run TestPropertyRandomPrograms -prop.first 10000
// -prop.seeds 50000), or one seed again (-prop.first 1469 -prop.seeds 1).
var (
	propFirst = flag.Uint64("prop.first", 0, "TestPropertyRandomPrograms: the first seed")
	propSeeds = flag.Uint64("prop.seeds", 0, "TestPropertyRandomPrograms: how many seeds (0: 10,000, 1,000 with -short)")
)

// TestPropertyRandomPrograms runs 10,000 random fork-join programs (1,000
// with -short) with real goroutines under both protocols and checks every
// report, and the completeness the protocols promise, against the oracle.
func TestPropertyRandomPrograms(t *testing.T) {
	n := uint64(10000)
	if testing.Short() {
		n = 1000
	}
	if *propSeeds != 0 {
		n = *propSeeds
	}
	var nested, racy, races, nondets int
	for seed := *propFirst; seed < *propFirst+n; seed++ {
		p := genProg(seed)
		want, err := checkProg(p, seed%3 == 0)
		if err != nil {
			t.Fatalf("%v\nprogram:\n%v", err, p)
		}
		if p.nested {
			nested++
		}
		if len(want) > 0 {
			racy++
		}
		for lc := range want {
			if lc.class == dataRace {
				races++
			} else {
				nondets++
			}
		}
	}
	t.Logf("%d programs (%d nested, %d with conflicts): %d locations with a DATA RACE, %d with NONDETERMINISM; wait-free missed %d locations of nested programs",
		n, nested, racy, races, nondets, nestedMisses.Load())
}

// FuzzPrograms is the property test driven by the fuzzer: the input picks
// the generator's seed and the atomics option.
func FuzzPrograms(f *testing.F) {
	for _, s := range []uint64{1, 42, 9999} {
		f.Add(binary.LittleEndian.AppendUint64(nil, s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var buf [9]byte
		copy(buf[:], b)
		p := genProg(binary.LittleEndian.Uint64(buf[:8]))
		if _, err := checkProg(p, buf[8]&1 == 1); err != nil {
			t.Fatalf("%v\nprogram:\n%v", err, p)
		}
	})
}
