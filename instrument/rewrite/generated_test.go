package rewrite

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goanomaly/goanomaly/instrument/plan"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// TestPruningLosesNoReportGenerated is the soundness guard over generated
// programs. Built pruned and conservatively and run on one P with the
// locked protocol (which reports every racy location, and the same pairs
// of sites for it when the accesses come in the same order), both must
// report the same pairs of sites.
//
// The affine programs (generateLoops) have parallel loops over slices made
// in the function, whose goroutines read and write elements at random
// affine subscripts k*i+d (one form per loop in some loops, so the
// independence proof applies, mixed forms in others) and through an index
// array; their pruned builds must prune something. The programs of
// generateFamilies mix the shapes the newer proofs target (chunked loops,
// flattened 2-D arrays, slices passed as parameters, [][]int rows, struct
// pointer fields), each in safe and racy variants; whether a proof prunes
// anything in them is not required, only that nothing it prunes loses a
// report. FuzzPruningLosesNoReport explores more of them. The coalesce
// programs are made of sequential loops in goroutines only (coalesceFunc):
// their pruned builds must check some loop's elements as spans before it;
// the coalesceflat programs are those over flat matrices only
// (coalesceFlatFunc), subscripts r*w+j+d; the coalescearray programs those
// over arrays of arrays and pointers to their rows (coalesceArrayFunc).
func TestPruningLosesNoReportGenerated(t *testing.T) {
	t.Parallel()
	for seed := range uint64(3) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			t.Parallel()
			checkGenerated(t, generateLoops(rand.New(rand.NewPCG(seed, 1)), 12), true)
		})
	}
	for _, seed := range []uint64{3, 4} {
		t.Run(fmt.Sprint("families", seed), func(t *testing.T) {
			t.Parallel()
			p := generateFamilies(familiesRand(seed))
			t.Logf("functions: %s", strings.Join(p.funcs, ", "))
			checkGenerated(t, p.src, p.affineProof)
		})
	}
	for _, seed := range []uint64{5, 6} {
		t.Run(fmt.Sprint("coalesce", seed), func(t *testing.T) {
			t.Parallel()
			p := generateProgram(familiesRand(seed), []int{famCoalesce, famCoalesce, famCoalesce, famCoalesce})
			if n := spans(t, p.src); n == 0 {
				t.Fatalf("no loop coalesced:\n%s", p.src)
			} else {
				t.Logf("%d span checks before loops", n)
			}
			checkGenerated(t, p.src, false)
		})
	}
	for _, seed := range []uint64{9, 10} {
		t.Run(fmt.Sprint("coalescearray", seed), func(t *testing.T) {
			t.Parallel()
			p := generateProgram(familiesRand(seed), []int{famCoalesceArray, famCoalesceArray, famCoalesceArray, famCoalesceArray, famCoalesceArray})
			if n := spans(t, p.src); n == 0 {
				t.Fatalf("no loop coalesced:\n%s", p.src)
			} else {
				t.Logf("%d span checks before loops", n)
			}
			checkGenerated(t, p.src, false)
		})
	}
	for _, seed := range []uint64{7, 8} {
		t.Run(fmt.Sprint("coalesceflat", seed), func(t *testing.T) {
			t.Parallel()
			p := generateProgram(familiesRand(seed), []int{famCoalesceFlat, famCoalesceFlat, famCoalesceFlat, famCoalesceFlat, famCoalesceFlat})
			if n := spans(t, p.src); n == 0 {
				t.Fatalf("no loop coalesced:\n%s", p.src)
			} else {
				t.Logf("%d span checks before loops", n)
			}
			checkGenerated(t, p.src, false)
		})
	}
}

// spans counts the span checks the pruned rewrite of program src makes
// before its loops.
func spans(t *testing.T, src string) int {
	t.Helper()
	dir, err := os.MkdirTemp("testdata", "gen-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Package(load(t, dir), Config{RTPath: "github.com/goanomaly/goanomaly/rt", FirstSite: 1})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, out := range res.Files {
		n += strings.Count(string(out), "."+rtnames.ReadSpan+"(") + strings.Count(string(out), "."+rtnames.WriteSpan+"(")
	}
	return n
}

// FuzzPruningLosesNoReport is TestPruningLosesNoReportGenerated's check on
// the program generateFamilies makes from the seed: go test -fuzz
// FuzzPruningLosesNoReport ./instrument/rewrite explores. Each input builds
// and runs a program twice (a few seconds); without -fuzz only the seed
// corpus runs, a few programs, as part of go test.
func FuzzPruningLosesNoReport(f *testing.F) {
	for _, seed := range []uint64{0, 1, 2} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		t.Parallel() // the seed corpus's programs at once; no effect when fuzzing
		p := generateFamilies(familiesRand(seed))
		t.Logf("functions: %s", strings.Join(p.funcs, ", "))
		checkGenerated(t, p.src, p.affineProof)
	})
}

// familiesRand is the random source generateFamilies draws from for seed.
func familiesRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 2)) }

// checkGenerated writes src as a main package in a fresh directory under
// testdata (inside the module, so it builds against rt), builds it pruned
// and conservatively, runs both with the locked protocol and requires the
// same reported site pairs (the generated programs run on one P, see oneP,
// so that the pairs do not depend on the schedule). The conservative build
// must report something (every generated program has a race); with
// wantPruned, the pruned build must also have proved some access
// independent.
func checkGenerated(t *testing.T, src string, wantPruned bool) {
	t.Helper()
	dir, err := os.MkdirTemp("testdata", "gen-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { forget(dir); os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got, pruned := reportsBothWays(t, dir, runEnv{opts: " protocol=locked"})
	t.Logf("%d reported pairs, %d accesses proved independent", len(got[1]), pruned)
	if len(got[1]) == 0 || wantPruned && pruned == 0 {
		t.Fatalf("generated program exercises nothing: %d reported pairs, %d independent accesses\n%s", len(got[1]), pruned, src)
	}
	if strings.Join(got[0], "\n") != strings.Join(got[1], "\n") {
		t.Errorf("pruned build reports\n%s\nconservative build reports\n%s\nonly the conservative build (a lost report):\n%s\nonly the pruned build:\n%s\nthe pruned plan's verdicts on their sites, where not checked:\n%s\nprogram:\n%s",
			strings.Join(got[0], "\n"), strings.Join(got[1], "\n"),
			strings.Join(minus(got[1], got[0]), "\n"), strings.Join(minus(got[0], got[1]), "\n"),
			strings.Join(unchecked(t, dir, append(minus(got[1], got[0]), minus(got[0], got[1])...)), "\n"), src)
	}
}

// unchecked lists the sites named in pairs whose verdict in the pruned
// rewrite of dir is not "checked", with the verdict and why: the proofs to
// suspect when the reports differ. (A verdict with a condition, "when it is
// apart from …", leaves the access checked in runs where a guard finds the
// condition false.)
func unchecked(t *testing.T, dir string, pairs []string) []string {
	t.Helper()
	res, err := Package(load(t, dir), Config{RTPath: "github.com/goanomaly/goanomaly/rt", FirstSite: 1})
	if err != nil {
		t.Fatal(err)
	}
	verdict := map[string]plan.Access{}
	for _, c := range res.Plan.Constructs {
		for _, a := range c.Accesses {
			verdict[a.Pos.String()] = a
		}
	}
	for _, a := range res.Plan.Called {
		verdict[a.Pos.String()] = a
	}
	var out []string
	seen := map[string]bool{}
	for _, p := range pairs {
		for _, site := range strings.Split(p, " ~ ") {
			if a, ok := verdict[site]; ok && a.Verdict != plan.Checked && !seen[site] {
				seen[site] = true
				out = append(out, fmt.Sprintf("%s %s: %s %s", site, a.What, a.Verdict, a.Why))
			}
		}
	}
	return out
}

// minus returns the elements of a not in b.
func minus(a, b []string) []string {
	in := map[string]bool{}
	for _, s := range b {
		in[s] = true
	}
	var out []string
	for _, s := range a {
		if !in[s] {
			out = append(out, s)
		}
	}
	return out
}
