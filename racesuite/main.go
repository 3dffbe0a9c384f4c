// Command racesuite runs the Go race detector's own test suite
// ($GOROOT/src/runtime/race/testdata) under goanomaly and counts, per test,
// whether goanomaly reported a data race: TestRace* tests it reported and
// missed, TestNoRace* tests it reported falsely, and tests whose constructs
// the static stage noted as outside its model (unstructured).
//
// Usage (from the repository root; make racesuite does this):
//
//	go run ./racesuite [-goanomaly path] [-hb] [-v] [-race] [-run regexp] [-j n]
//
// The tests are copied into a scratch module (see scratch.go for the files
// skipped or adapted, and why), built once with goanomaly test -c, and each
// test runs in its own process (-test.run '^Name$' -test.v), -j at a time,
// with GOANOMALY=format=json; the reports printed after the test's "=== RUN"
// line are the test's (those before it come from package initialization). A test's pass/fail status is not what is counted (the suite expects
// -race to fail racy tests): only whether goanomaly reported. With -race, the
// same tests also run under go test -race, the way the Go tree's own harness
// runs them, for comparison.
//
// The exit status is 1 if goanomaly reported a DATA RACE in any TestNoRace*
// test, 2 if the harness itself failed.
package main

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"time"
)

// options are the command-line flags.
type options struct {
	goanomaly string         // the goanomaly binary; "" builds ./cmd/goanomaly
	plain     bool           // build with go test -c instead (to test the harness)
	race      bool           // also run every test under go test -race
	vet       bool           // also collect notes from goanomaly vet
	verbose   bool           // one line per test
	run       *regexp.Regexp // only tests matching this
	jobs      int            // tests run at once
	timeout   time.Duration  // per test
	work      bool           // keep the scratch directory and print it
	hb        bool           // build with goanomaly test -hb (happens-before outside constructs)
}

func main() {
	var o options
	var run string
	flag.StringVar(&o.goanomaly, "goanomaly", "", "path to the goanomaly binary (default: build ./cmd/goanomaly into a temp dir)")
	flag.BoolVar(&o.plain, "plain", false, "build the tests with plain go test -c instead of goanomaly (tests the harness)")
	flag.BoolVar(&o.race, "race", false, "also run each test under go test -race, for comparison")
	flag.BoolVar(&o.vet, "vet", true, "also collect unstructured-construct notes from goanomaly vet")
	flag.BoolVar(&o.verbose, "v", false, "print one line per test")
	flag.StringVar(&run, "run", "", "run only tests matching this regexp")
	flag.IntVar(&o.jobs, "j", runtime.NumCPU(), "tests run at once")
	flag.DurationVar(&o.timeout, "timeout", time.Minute, "time limit per test")
	flag.BoolVar(&o.work, "work", false, "print the scratch directory and keep it")
	flag.BoolVar(&o.hb, "hb", false, "build with goanomaly test -hb: also check the code outside constructs by happens-before")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: racesuite [flags]; see go doc ./racesuite")
		os.Exit(2)
	}
	var err error
	if o.run, err = regexp.Compile(run); err != nil {
		fatalf("-run: %v", err)
	}
	status, err := suite(&o)
	if err != nil {
		fatalf("%v", err)
	}
	os.Exit(status)
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "racesuite: "+format+"\n", args...)
	os.Exit(2)
}

// suite prepares, builds and runs the suite and prints the table. It
// returns the exit status.
func suite(o *options) (int, error) {
	dir, err := os.MkdirTemp("", "racesuite-")
	if err != nil {
		return 0, err
	}
	if o.work {
		fmt.Fprintf(os.Stderr, "racesuite: WORK=%s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	s, err := newScratch(dir)
	if err != nil {
		return 0, err
	}
	tests := s.matching(o.run)
	b, err := build(o, s)
	if err != nil {
		return 0, err
	}
	s.attribute(b.notes)
	results := runAll(o, b, tests)
	t := classify(tests, results)
	t.initChecked = runTest(o, b.checked, "", checkedEnv())
	if b.race != "" {
		r := runTest(o, b.race, "", raceEnv())
		t.initRace = &r
	}
	t.print(os.Stdout, s, b, o.verbose)
	if len(t.falseReports) > 0 {
		return 1, nil
	}
	return 0, nil
}
