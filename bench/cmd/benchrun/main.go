// Command benchrun measures goanomaly's end-to-end overhead on the kernels
// in bench/ and its suites (bench/polybench/…): it builds each kernel four
// ways — plain go build, goanomaly build, goanomaly build -conservative
// (every shared access checked), go build -race — runs the builds
// interleaved -rounds times, and prints per kernel the median wall time and
// peak RSS of each, their ratios to the plain build (and the conservative
// build's to -race's), and the number of run-time checks the goanomaly
// builds executed (from their GOANOMALY=summary=1 line; "-" if they printed
// none), with a geometric mean per suite. Three more builds on request:
// dormant (goanomaly build -dormant, run with GOANOMALY unset: what a
// production binary that can be checked later costs), sample (the same
// binary with GOANOMALY=sample=0.01) and sliced (goanomaly build -slice, a
// post-mortem rerun that computes only what the report depends on; its
// output, dropped, is not compared). And hb (goanomaly build -hb: the code
// outside constructs checked by happens-before, issue 13), with its ratios
// to -race's as for the conservative build.
//
// Usage, from the repository root:
//
//	go run ./bench/cmd/benchrun [-rounds 5] [-kernels regexp] [-builds plain,goanomaly,conservative,race]
//		[-goanomaly path] [-timeout 1m] [-budget 14m] [-json file] [-v]
//	go run ./bench/cmd/benchrun -from file.json [-kernels regexp]
//
// -from measures nothing: it prints the table of the runs a -json file
// holds.
//
// A kernel is a directory under bench/ holding a main.go (not cmd/ and not
// testdata/), named by its path below bench/: "jacobi", "polybench/gemm";
// -kernels matches that name, so "-kernels polybench2d" selects one suite
// ("-kernels '^polybench/'" the flat one; "polybench" matches both).
// A goanomaly that refuses -conservative (older than the flag) loses that
// column, with a message, and the other builds are measured.
//
// Runs are interleaved round by round, so when the budget runs out every
// kernel has had the same number of rounds, give or take one. A build that
// exceeds -timeout is shown as ">timeout" and not run again.
//
// Every variant's stdout (the kernel's checksum) must be the same; a
// difference, or a report from the goanomaly build of these race-free
// kernels, is printed after the table and makes the exit status 1.
package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// options are the command-line flags.
type options struct {
	rounds    int
	kernels   *regexp.Regexp
	goanomaly string
	builds    map[string]bool
	timeout   time.Duration
	budget    time.Duration
	json      string
	from      string
	verbose   bool
}

func main() {
	var o options
	var kernels string
	flag.IntVar(&o.rounds, "rounds", 5, "runs of each build of each kernel")
	flag.StringVar(&kernels, "kernels", "", "only kernels matching this regexp")
	flag.StringVar(&o.goanomaly, "goanomaly", "", "goanomaly binary (default: build ./cmd/goanomaly; if that fails, measure without it)")
	builds := flag.String("builds", "plain,goanomaly,conservative,race", "builds to measure (plain is always measured)")
	flag.DurationVar(&o.timeout, "timeout", time.Minute, "time limit per run; a build that exceeds it is not run again")
	flag.DurationVar(&o.budget, "budget", 14*time.Minute, "time limit for the whole run, builds included; runs that would exceed it are skipped")
	flag.StringVar(&o.json, "json", "", "also write every measurement to this file as JSON")
	flag.StringVar(&o.from, "from", "", "measure nothing: print the table of the runs a -json file holds")
	flag.BoolVar(&o.verbose, "v", false, "print each run on stderr")
	flag.Parse()
	o.builds = map[string]bool{"plain": true}
	for _, b := range strings.Split(*builds, ",") {
		switch b = strings.TrimSpace(b); b {
		case "plain", "goanomaly", "conservative", "race", "dormant", "sample", "sliced", "hb":
			o.builds[b] = true
		case "":
		default:
			fatalf("-builds: unknown build %q (want plain, goanomaly, conservative, race, dormant, sample, sliced, hb)", b)
		}
	}
	var err error
	if o.kernels, err = regexp.Compile(kernels); err != nil {
		fatalf("-kernels: %v", err)
	}
	run := benchrun
	if o.from != "" {
		run = reprint
	}
	status, err := run(&o)
	if err != nil {
		fatalf("%v", err)
	}
	os.Exit(status)
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "benchrun: "+format+"\n", args...)
	os.Exit(2)
}

// benchrun builds, runs and reports; it returns the exit status.
func benchrun(o *options) (int, error) {
	start := time.Now()
	root, err := moduleRoot()
	if err != nil {
		return 0, err
	}
	kernels, err := findKernels(root, o.kernels)
	if err != nil {
		return 0, err
	}
	work, err := os.MkdirTemp("", "benchrun-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(work)
	variants, err := buildAll(o, root, work, kernels)
	if err != nil {
		return 0, err
	}
	fmt.Fprintf(os.Stderr, "benchrun: built in %v; running %d kernel(s) × %d build(s) × %d round(s)\n",
		time.Since(start).Round(time.Second), len(kernels), len(variants), o.rounds)
	runs := measureAll(o, kernels, variants, start.Add(o.budget))
	t := summarize(kernels, variants, runs, o.rounds)
	t.print(os.Stdout)
	fmt.Printf("\n%d round(s), %s, total time %v\n", o.rounds, describeHost(), time.Since(start).Round(time.Second))
	if o.json != "" {
		data, err := json.MarshalIndent(runs, "", "  ")
		if err != nil {
			return 0, err
		}
		if err := os.WriteFile(o.json, data, 0o666); err != nil {
			return 0, err
		}
	}
	if t.failed {
		return 1, nil
	}
	return 0, nil
}

// reprint prints the table of the runs in the -json file o.from, for the
// kernels matching -kernels.
func reprint(o *options) (int, error) {
	data, err := os.ReadFile(o.from)
	if err != nil {
		return 0, err
	}
	var runs []run
	if err := json.Unmarshal(data, &runs); err != nil {
		return 0, fmt.Errorf("%s: %v", o.from, err)
	}
	var kernels []string
	var variants []variant
	rounds := 0
	for _, r := range runs {
		if !o.kernels.MatchString(r.Kernel) {
			continue
		}
		if !slices.Contains(kernels, r.Kernel) {
			kernels = append(kernels, r.Kernel)
		}
		if !slices.ContainsFunc(variants, func(v variant) bool { return v.name == r.Variant }) {
			variants = append(variants, variant{name: r.Variant})
		}
		rounds = max(rounds, r.Round+1)
	}
	slices.SortStableFunc(variants, func(a, b variant) int { return cmp.Compare(buildOrder(a.name), buildOrder(b.name)) })
	t := summarize(kernels, variants, runs, rounds)
	t.print(os.Stdout)
	if t.failed {
		return 1, nil
	}
	return 0, nil
}

// buildOrder places a build's columns: plain first, as measured.
func buildOrder(name string) int {
	return slices.Index([]string{"plain", "goanomaly", "conservative", "race", "dormant", "sample", "sliced", "hb"}, name)
}

// findKernels returns the kernels matching re: the directories under
// bench/ holding a main.go, other than bench/cmd and testdata (the racy
// variants live there), named by their slash path below bench/, ordered by
// suite and name.
func findKernels(root string, re *regexp.Regexp) ([]string, error) {
	dir := filepath.Join(root, "bench")
	var ks []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		k := filepath.ToSlash(rel)
		switch {
		case k == "cmd" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && k != ".":
			return filepath.SkipDir
		case k == "." || !re.MatchString(k):
			return nil
		}
		if _, err := os.Stat(filepath.Join(path, "main.go")); err == nil {
			ks = append(ks, k)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(ks) == 0 {
		return nil, fmt.Errorf("no kernels in %s match %q", dir, re)
	}
	slices.SortFunc(ks, func(a, b string) int {
		return cmp.Or(cmp.Compare(suite(a), suite(b)), cmp.Compare(a, b))
	})
	return ks, nil
}

// suite is the set a kernel belongs to: the first directory of a nested
// kernel ("polybench" for "polybench/gemm"), "bench" for bench/'s own.
func suite(kernel string) string {
	if s, _, ok := strings.Cut(kernel, "/"); ok {
		return s
	}
	return "bench"
}
