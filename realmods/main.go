// Command realmods is the acceptance harness of issue 10 on real modules:
// for each of github.com/disintegration/imaging, github.com/samber/lo
// (parallel), github.com/sourcegraph/conc, github.com/anthonynsimon/bild and
// gonum.org/v1/gonum (integrate/quad; blas/gonum pristine), it
//
//  1. downloads the module with go mod download -json (the module proxy must
//     be reachable) and copies it, writable, into a scratch directory: the
//     module cache is only read, and the harness checks that it stays so;
//  2. pristine: runs the tests of the module's packages with parallel code
//     under goanomaly test and under plain go test, and records whether they
//     pass and whether any DATA RACE was reported (none may be);
//  3. planted: copies testdata/<module>/… into the copy, tests that plant a
//     race in a callback of the module's parallel API (a shared counter, a
//     write to a neighbouring row, an append to a shared slice, a shared map
//     write) and a clean variant, and runs each -runs times under goanomaly
//     test -run '^Test$', counting the runs where a DATA RACE names the
//     planted file (and, for the clean variant, runs with any DATA RACE),
//     and once under go test -race for comparison;
//  4. user module: copies testdata/louser, a module of its own that requires
//     lo and calls parallel.Map with a racy callback, and runs goanomaly run .
//     (and ./clean, the clean variant) as a user would, nothing rewritten by
//     hand; the user's tree must be the same afterwards.
//
// It prints a table and, with -o, writes it as Markdown.
//
// Usage (from the repository root; make realmods does this):
//
//	go run ./realmods [-goanomaly path] [-mods imaging,lo,…] [-runs 3] [-race=false] [-pristine=false] [-run regexp] [-timeout 10m] [-o report.md] [-v] [-work]
//
// With -bench it measures instead (issue 11's "real modules' benchmarks"):
// the modules' own benchmarks of their parallel code (module.benches: none
// is ours; lo's release ships none) run on the pristine copy three ways,
// from test binaries built once each: go test -c, goanomaly test -c (the
// default, pruned build) and go test -race -c. It runs -count rounds, each
// build's binary once per round with -test.benchtime, in an order that
// rotates from round to round, and prints each benchmark's median ns/op
// and B/op per build, the ratios goanomaly/plain and race/plain, their
// geometric means, the checks goanomaly made (GOANOMALY=summary=1) and the
// machine's load before and after; -run selects "module package" pairs:
//
//	go run ./realmods -bench [-goanomaly path] [-mods imaging,bild,…] [-run 'bild ./effect'] [-count 3] [-benchtime 200ms] [-race=false] [-o bench.md]
//
// A benchmark whose op takes longer than -benchtime runs once per round.
//
// The exit status is 1 if goanomaly reported a data race in a clean variant
// or a pristine module, 2 if the harness itself failed (no goanomaly) or a
// module could not be prepared (no module proxy: an ERROR row says why).
// Missed planted races do not change the exit status: the table is the
// measurement.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"
)

// options are the command-line flags.
type options struct {
	goanomaly string         // the goanomaly binary; "" builds ./cmd/goanomaly
	mods      []string       // the modules to run (names of modules and userModule)
	runs      int            // goanomaly runs per planted test
	race      bool           // also run each planted test under go test -race
	pristine  bool           // run the modules' own tests
	timeout   time.Duration  // per command
	output    string         // Markdown table file
	verbose   bool           // print each command
	work      bool           // keep the scratch directory
	run       *regexp.Regexp // only the cases whose "module case" matches
	logs      string         // with -work: each command's output goes to a file here
	logged    int            // files in logs
	bench     bool           // measure the modules' benchmarks instead
	benchtime string         // -bench: -test.benchtime of each run
	count     int            // -bench: rounds
}

func main() {
	var o options
	var mods string
	flag.StringVar(&o.goanomaly, "goanomaly", "", "path to the goanomaly binary (default: build ./cmd/goanomaly into the scratch directory)")
	flag.StringVar(&mods, "mods", strings.Join(allNames(), ","), "comma-separated modules to run")
	flag.IntVar(&o.runs, "runs", 3, "goanomaly runs per planted test")
	flag.BoolVar(&o.race, "race", true, "also run each planted test once under go test -race")
	flag.BoolVar(&o.pristine, "pristine", true, "run the modules' own tests under goanomaly test and go test")
	flag.DurationVar(&o.timeout, "timeout", 10*time.Minute, "time limit per command")
	flag.StringVar(&o.output, "o", "", "also write the table as Markdown to this file")
	flag.BoolVar(&o.verbose, "v", false, "print each command")
	run := flag.String("run", "", "only the planted cases whose \"module case\" matches this regexp (\"lo.*counter\", \"clean\"); with -bench, the benchmark sets whose \"module package\" matches (\"bild ./effect\")")
	flag.BoolVar(&o.bench, "bench", false, "measure the modules' own benchmarks plain, under goanomaly and under -race instead of testing")
	flag.StringVar(&o.benchtime, "benchtime", "200ms", "with -bench: -test.benchtime of each run")
	flag.IntVar(&o.count, "count", 3, "with -bench: rounds (medians are taken over them)")
	flag.BoolVar(&o.work, "work", false, "print the scratch directory and keep it, with each command's output in its logs directory")
	flag.Parse()
	if flag.NArg() != 0 || o.runs < 1 || o.count < 1 {
		fmt.Fprintln(os.Stderr, "usage: realmods [flags]; see go doc ./realmods")
		os.Exit(2)
	}
	for _, m := range strings.Split(mods, ",") {
		if m = strings.TrimSpace(m); !slices.Contains(allNames(), m) {
			fatalf("-mods: unknown module %q (known: %s)", m, strings.Join(allNames(), ", "))
		}
		o.mods = append(o.mods, strings.TrimSpace(m))
	}
	var err error
	if o.run, err = regexp.Compile(*run); err != nil {
		fatalf("-run: %v", err)
	}
	if o.bench {
		benchMain(&o)
		return
	}
	rows, err := harness(context.Background(), &o)
	if err != nil {
		fatalf("%v", err)
	}
	t := &table{rows: rows, runs: o.runs}
	t.text(os.Stdout)
	if o.output != "" {
		if err := os.WriteFile(o.output, []byte(t.markdown()), 0o644); err != nil {
			fatalf("%v", err)
		}
	}
	switch {
	case t.falseReports() > 0:
		os.Exit(1)
	case t.errors() > 0:
		os.Exit(2)
	}
}

// allNames are the names -mods accepts, in the order they run.
func allNames() []string {
	var names []string
	for _, m := range modules {
		names = append(names, m.name)
	}
	return append(names, userModule.name)
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "realmods: "+format+"\n", args...)
	os.Exit(2)
}
