package main

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseChecks(t *testing.T) {
	for in, want := range map[string]int64{
		"goanomaly: summary: 1 tree(s), 2 construct(s), 30 block(s), 12345 check(s); 0 data race(s)\n": 12345,
		`{"summary":{"checks":77,"data_races":0}}` + "\n":                                              77,
		"checksum 12 checks\n": -1, // not a summary line
		"":                     -1,
	} {
		if got := parseChecks(in); got != want {
			t.Errorf("parseChecks(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestMedian(t *testing.T) {
	if got := median([]time.Duration{3, 1, 2}); got != 2 {
		t.Errorf("median of 3 = %v", got)
	}
	if got := median([]int64{4, 1, 3, 2}); got != 2 {
		t.Errorf("median of 4 = %v", got)
	}
	if got := median([]int64(nil)); got != 0 {
		t.Errorf("median of none = %v", got)
	}
}

func TestFindKernels(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{
		"bench/jacobi/main.go",
		"bench/cmd/benchrun/main.go",
		"bench/polybench/gemm/main.go",
		"bench/polybench/jacobi-2d/main.go",
		"bench/polybench/testdata/gemm/main.go",
		"bench/polybench/README.md",
		"bench/README.md",
	} {
		writeFile(t, filepath.Join(root, f), "package main\n")
	}
	for re, want := range map[string][]string{
		"":          {"jacobi", "polybench/gemm", "polybench/jacobi-2d"},
		"polybench": {"polybench/gemm", "polybench/jacobi-2d"},
		"jacobi":    {"jacobi", "polybench/jacobi-2d"},
	} {
		got, err := findKernels(root, regexp.MustCompile(re))
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("findKernels(%q) = %q, %v; want %q", re, got, err, want)
		}
	}
	if _, err := findKernels(root, regexp.MustCompile("nothing")); err == nil {
		t.Errorf("findKernels matching nothing: no error")
	}
}

// stubTool writes a goanomaly stand-in that refuses -conservative as the
// flag package does and otherwise "builds" by creating its -o file.
func stubTool(t *testing.T) string {
	if runtime.GOOS == "windows" {
		t.Skip("the stub is a shell script")
	}
	stub := filepath.Join(t.TempDir(), "goanomaly")
	writeFile(t, stub, `#!/bin/sh
for a in "$@"; do
	if [ "$a" = -conservative ]; then
		echo "goanomaly build: flag provided but not defined: -conservative" >&2
		echo "usage: goanomaly build [-o output] [build flags] [packages]" >&2
		exit 2
	fi
	if [ "$a" = -fail ]; then
		echo "main.go:3:1: syntax error" >&2
		exit 1
	fi
done
while [ "$1" != -o ]; do shift; done
: > "$2"
`)
	if err := os.Chmod(stub, 0o755); err != nil {
		t.Fatal(err)
	}
	return stub
}

func TestRunBuildRefusedFlag(t *testing.T) {
	stub, dir := stubTool(t), t.TempDir()
	out := filepath.Join(dir, "k")
	err := runBuild(dir, buildArgs("conservative", stub, out, "./bench/k"))
	var refused *refusedFlag
	if !errors.As(err, &refused) || refused.flag != "-conservative" ||
		!strings.Contains(err.Error(), "does not accept -conservative (goanomaly build: flag provided but not defined: -conservative)") {
		t.Errorf("conservative build with a goanomaly without the flag: %v, want a refusedFlag", err)
	}
	if err := runBuild(dir, []string{stub, "build", "-fail", "-o", out, "./bench/k"}); err == nil || errors.As(err, &refused) {
		t.Errorf("failed build: %v, want an error other than refusedFlag", err)
	}
	if err := runBuild(dir, buildArgs("goanomaly", stub, out, "./bench/k")); err != nil {
		t.Errorf("goanomaly build: %v", err)
	}
}

// TestBuildAllWithoutConservative: a goanomaly that refuses -conservative
// costs the conservative column only; the other builds are made.
func TestBuildAllWithoutConservative(t *testing.T) {
	stub, root := stubTool(t), t.TempDir()
	writeFile(t, filepath.Join(root, "go.mod"), "module example.com/k\n\ngo 1.22\n")
	writeFile(t, filepath.Join(root, "bench/k/main.go"), "package main\n\nfunc main() {}\n")
	o := &options{goanomaly: stub, builds: map[string]bool{"plain": true, "goanomaly": true, "conservative": true}}
	vs, err := buildAll(o, root, t.TempDir(), []string{"k"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range vs {
		names = append(names, v.name)
		if _, err := os.Stat(filepath.Join(v.dir, "k")); err != nil {
			t.Errorf("%s: %v", v.name, err)
		}
	}
	if want := []string{"plain", "goanomaly"}; !slices.Equal(names, want) {
		t.Errorf("built %q, want %q", names, want)
	}
}

func TestPrintSuites(t *testing.T) {
	s := time.Second
	tab := &table{variants: []string{"plain", "goanomaly", "conservative", "race"}, rounds: 1}
	add := func(k string, plain, ga, cons, race time.Duration) {
		tab.rows = append(tab.rows, row{kernel: k, checks: map[string]int64{"conservative": 7}, cells: map[string]cell{
			"plain": {wall: plain, rss: 10 << 20, runs: 1}, "goanomaly": {wall: ga, rss: 10 << 20, runs: 1},
			"conservative": {wall: cons, rss: 40 << 20, runs: 1}, "race": {wall: race, rss: 20 << 20, runs: 1},
		}})
	}
	add("jacobi", s, s, 4*s, 2*s)
	add("polybench/gemm", s, 4*s, 8*s, 16*s)
	add("polybench/lu", s, s, 2*s, 4*s)
	var b strings.Builder
	tab.print(&b)
	out := b.String()
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^ *kernel +plain s +goanomaly s +× +conservative s +× +race s +× +cons/race +plain MB .* checks +cons checks$`),
		regexp.MustCompile(`(?m)^ *jacobi +1\.000 +1\.000 +1\.00 +4\.000 +4\.00 +2\.000 +2\.00 +2\.00 +10\.0 .* 2\.00 +- +7$`),
		regexp.MustCompile(`(?m)^ *geomean bench +1\.00 +4\.00 +2\.00 +2\.00 `),
		regexp.MustCompile(`(?m)^ *geomean polybench +2\.00 +4\.00 +8\.00 +0\.50 `),
		regexp.MustCompile(`(?m)^ *geomean all +1\.59 +4\.00 +5\.04 +0\.79 `),
	} {
		if !want.MatchString(out) {
			t.Errorf("table does not match %s:\n%s", want, out)
		}
	}
	if strings.Index(out, "geomean bench") > strings.Index(out, "polybench/gemm") {
		t.Errorf("bench's geomean is not before the polybench rows:\n%s", out)
	}
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
}

func TestBoundRatio(t *testing.T) {
	for _, c := range []struct {
		aCut, bCut bool
		mark       string
		nan        bool
	}{{false, false, "", false}, {true, false, ">", false}, {false, true, "<", false}, {true, true, "", true}} {
		q, mark := boundRatio(6, 3, c.aCut, c.bCut)
		if mark != c.mark || math.IsNaN(q) != c.nan || !c.nan && q != 2 {
			t.Errorf("boundRatio(6, 3, %v, %v) = %v, %q", c.aCut, c.bCut, q, mark)
		}
	}
	for marks, want := range map[string]string{"": "", ">>": ">", "<<": "<", "><": "~"} {
		if got := meanBound(strings.Split(marks, "")); got != want {
			t.Errorf("meanBound(%q) = %q, want %q", marks, got, want)
		}
	}
}

// TestSlicedOutputNotCompared: the sliced build prints nothing of the
// kernel's output (it is dropped), which is no problem; any other build
// whose output differs is one.
func TestSlicedOutputNotCompared(t *testing.T) {
	tab := &table{}
	out := ""
	tab.check(run{Kernel: "k", Variant: "plain", Stdout: "sum 42\n"}, &out)
	tab.check(run{Kernel: "k", Variant: "sliced", Stdout: ""}, &out)
	if len(tab.problems) != 0 {
		t.Errorf("sliced run without output: problems %q", tab.problems)
	}
	tab.check(run{Kernel: "k", Variant: "goanomaly", Stdout: "sum 41\n"}, &out)
	if len(tab.problems) != 1 {
		t.Errorf("goanomaly run with another output: problems %q, want one", tab.problems)
	}
}

// TestHBBuild: the hb build is goanomaly build -hb, built with the
// goanomaly binary, and its table has ratios to plain and to -race.
func TestHBBuild(t *testing.T) {
	if got, want := buildArgs("hb", "ga", "out", "./bench/k"), []string{"ga", "build", "-hb", "-o", "out", "./bench/k"}; !slices.Equal(got, want) {
		t.Errorf("buildArgs(hb) = %q, want %q", got, want)
	}
	stub, root := stubTool(t), t.TempDir()
	writeFile(t, filepath.Join(root, "go.mod"), "module example.com/k\n\ngo 1.22\n")
	writeFile(t, filepath.Join(root, "bench/k/main.go"), "package main\n\nfunc main() {}\n")
	o := &options{goanomaly: stub, builds: map[string]bool{"plain": true, "hb": true}}
	vs, err := buildAll(o, root, t.TempDir(), []string{"k"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || vs[1].name != "hb" || !slices.Equal(vs[1].env, []string{"GOANOMALY=summary=1"}) {
		t.Errorf("built %+v, want plain and hb", vs)
	}

	s := time.Second
	tab := &table{variants: []string{"plain", "hb", "race"}, rounds: 1, rows: []row{{kernel: "unstructured/cache", checks: map[string]int64{}, cells: map[string]cell{
		"plain": {wall: s, rss: 10 << 20, runs: 1}, "hb": {wall: 3 * s, rss: 20 << 20, runs: 1}, "race": {wall: 6 * s, rss: 80 << 20, runs: 1},
	}}}}
	var b strings.Builder
	tab.print(&b)
	out := b.String()
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^ *kernel +plain s +hb s +× +race s +× +hb/race +plain MB +hb MB +× +race MB +× +hb/race *$`),
		regexp.MustCompile(`(?m)^ *unstructured/cache +1\.000 +3\.000 +3\.00 +6\.000 +6\.00 +0\.50 +10\.0 +20\.0 +2\.00 +80\.0 +8\.00 +0\.25 *$`),
	} {
		if !want.MatchString(out) {
			t.Errorf("table does not match %s:\n%s", want, out)
		}
	}
}
