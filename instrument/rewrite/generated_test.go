package rewrite

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPruningLosesNoReportGenerated is the soundness guard over generated
// programs: each has parallel loops over slices made in the function, whose
// goroutines read and write elements at random affine subscripts k*i+d (one
// form per loop in some loops, so the independence proof applies, mixed
// forms in others) and through an index array. Built pruned and
// conservatively and run with the locked protocol (which reports the
// conflicting pairs exactly), both must report the same pairs of sites.
func TestPruningLosesNoReportGenerated(t *testing.T) {
	for seed := range uint64(3) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			dir, err := os.MkdirTemp("testdata", "gen-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			src := generateLoops(rand.New(rand.NewPCG(seed, 1)), 12)
			if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Setenv("GOANOMALY_TEST_PROTOCOL", "locked")
			got, pruned := reportsBothWays(t, dir)
			if len(got[1]) == 0 || pruned == 0 {
				t.Fatalf("generated program exercises nothing: %d reported pairs, %d independent accesses\n%s", len(got[1]), pruned, src)
			}
			if strings.Join(got[0], "\n") != strings.Join(got[1], "\n") {
				t.Errorf("pruned build reports\n%s\nconservative build reports\n%s\nprogram:\n%s", strings.Join(got[0], "\n"), strings.Join(got[1], "\n"), src)
			}
		})
	}
}

// generateLoops writes a main package with n functions, each one parallel
// loop of 10 iterations over a fresh slice of 40 elements.
func generateLoops(r *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteString("package main\n\nimport \"sync\"\n\nvar sink int\n\n")
	// Reads add into sink2, a variable of each goroutine: declared in the body.
	for f := range n {
		fmt.Fprintf(&b, "func f%d() {\n\ta := make([]int, 40)\n\tidx := []int{", f)
		for i := range 10 {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprint(&b, r.IntN(40))
		}
		b.WriteString("}\n\t_ = idx\n\tvar wg sync.WaitGroup\n\tfor i := range 10 {\n\t\twg.Go(func() {\n\t\t\tsink2 := 0\n")
		oneForm := r.IntN(2) == 0
		k, d := 1+r.IntN(3), r.IntN(4)
		for range 1 + r.IntN(3) {
			if !oneForm {
				k, d = 1+r.IntN(3), r.IntN(4)
			}
			sub := fmt.Sprintf("%d*i+%d", k, d)
			if !oneForm && r.IntN(4) == 0 {
				sub = "idx[i]"
			}
			switch r.IntN(3) {
			case 0:
				fmt.Fprintf(&b, "\t\t\ta[%s] = i\n", sub)
			case 1:
				fmt.Fprintf(&b, "\t\t\tsink2 += a[%s]\n", sub)
			default:
				fmt.Fprintf(&b, "\t\t\ta[%s]++\n", sub)
			}
		}
		b.WriteString("\t\t\t_ = sink2\n\t\t})\n\t}\n\twg.Wait()\n\tsink += a[0]\n}\n\n")
	}
	b.WriteString("func main() {\n")
	for f := range n {
		fmt.Fprintf(&b, "\tf%d()\n", f)
	}
	b.WriteString("}\n")
	return b.String()
}
