// Command benchrun measures goanomaly's end-to-end overhead on the kernels
// in bench/: it builds each kernel three ways — plain go build, goanomaly
// build, go build -race — runs the builds interleaved -rounds times, and
// prints per kernel the median wall time and peak RSS of each, their ratios
// to the plain build, and the number of run-time checks the goanomaly build
// executed (from its GOANOMALY=summary=1 line; "-" if it printed none).
//
// Usage, from the repository root:
//
//	go run ./bench/cmd/benchrun [-rounds 5] [-kernels regexp] [-builds plain,goanomaly,race]
//		[-goanomaly path] [-timeout 1m] [-budget 14m] [-json file] [-v]
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
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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
	verbose   bool
}

func main() {
	var o options
	var kernels string
	flag.IntVar(&o.rounds, "rounds", 5, "runs of each build of each kernel")
	flag.StringVar(&kernels, "kernels", "", "only kernels matching this regexp")
	flag.StringVar(&o.goanomaly, "goanomaly", "", "goanomaly binary (default: build ./cmd/goanomaly; if that fails, measure without it)")
	builds := flag.String("builds", "plain,goanomaly,race", "builds to measure (plain is always measured)")
	flag.DurationVar(&o.timeout, "timeout", time.Minute, "time limit per run; a build that exceeds it is not run again")
	flag.DurationVar(&o.budget, "budget", 14*time.Minute, "time limit for the whole run, builds included; runs that would exceed it are skipped")
	flag.StringVar(&o.json, "json", "", "also write every measurement to this file as JSON")
	flag.BoolVar(&o.verbose, "v", false, "print each run on stderr")
	flag.Parse()
	o.builds = map[string]bool{"plain": true}
	for _, b := range strings.Split(*builds, ",") {
		switch b = strings.TrimSpace(b); b {
		case "plain", "goanomaly", "race":
			o.builds[b] = true
		case "":
		default:
			fatalf("-builds: unknown build %q (want plain, goanomaly, race)", b)
		}
	}
	var err error
	if o.kernels, err = regexp.Compile(kernels); err != nil {
		fatalf("-kernels: %v", err)
	}
	status, err := benchrun(&o)
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

// findKernels returns the kernels: the directories of bench/ holding a
// main.go, other than cmd.
func findKernels(root string, re *regexp.Regexp) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(root, "bench"))
	if err != nil {
		return nil, err
	}
	var ks []string
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "cmd" || !re.MatchString(e.Name()) {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, "bench", e.Name(), "main.go")); err == nil {
			ks = append(ks, e.Name())
		}
	}
	if len(ks) == 0 {
		return nil, fmt.Errorf("no kernels in %s match %q", filepath.Join(root, "bench"), re)
	}
	return ks, nil
}
