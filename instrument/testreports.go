package instrument

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/goanomaly/goanomaly/instrument/gocmd"
)

// goanomaly test shows every report of every checked test binary. In
// package-list mode (go test ./...) the go command prints a passing
// package's output only with -v or -json, so a NONDETERMINISM report (which
// does not fail the test) vanished. goanomaly test therefore runs the test
// binaries with GOANOMALY's report_dir set to a directory of its work
// directory, where the runtime copies what it prints and, at the end, a
// summary (rt/reportdir.go). After go test, goanomaly prints the reports of
// the binaries whose output go test hid, then a table: per package, the
// reports by class and kind and the constructs and checks run.
//
// The report directory is new in each run and is part of GOANOMALY, which
// the checked binaries read, so go test never answers for them from its
// test cache: a cached result would show no report.

// testRecord is the <pid>.json a checked test binary writes in report_dir.
type testRecord struct {
	Pid, Ppid      int
	Dir            string
	Status         int
	Stderr         bool
	DataRaces      int            `json:"data_races"`
	Nondeterminism int            `json:"nondeterminism"`
	ByKind         map[string]int `json:"by_kind"`
	Trees          int64
	Constructs     int64
	Checks         int64
	Untracked      int64
	Exhausted      int64 `json:"exhausted_trees"`
	Ended          *bool // false: the binary ends without rt.Fini (it runs examples), Status is what Fini would have chosen

	pkg      string // the package the binary tests
	out      []byte // what the runtime printed on stderr
	children int    // processes the binary started that reported too
}

// setReportDir makes the test binaries write their reports into the work
// directory; it returns the directory, or "" when it cannot.
func (s *session) setReportDir() string {
	if c, _ := s.opts.Line.Flag("c"); s.opts.Line.Cmd != "test" || !s.changed || c == "true" {
		return "" // nothing checked, or go test -c: nothing runs
	}
	dir := filepath.Join(s.wd.Dir, "reports")
	if strings.ContainsAny(dir, " \t\n") { // GOANOMALY is a space-separated list
		fmt.Fprintf(s.opts.Stderr, "goanomaly: the work directory %q has a space in its path: the reports of passing packages cannot be collected\n", s.wd.Dir)
		return ""
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		fmt.Fprintf(s.opts.Stderr, "goanomaly: %v: the reports of passing packages cannot be collected\n", err)
		return ""
	}
	opts := strings.TrimSpace(gocmd.Getenv(s.env, "GOANOMALY") + " report_dir=" + dir)
	s.env = append(append([]string(nil), s.env...), "GOANOMALY="+opts)
	return dir
}

// showTestReports prints, after go test, the reports go test hid and the
// summary table. It returns whether a binary that ends without rt.Fini
// (one that runs examples, see testmain.go) found what would have failed
// it: go test saw it pass, so goanomaly test fails it.
func (s *session) showTestReports(dir string) (failed bool) {
	recs := s.readTestRecords(dir)
	if len(recs) == 0 {
		return false
	}
	w := s.opts.Stdout
	if j, _ := s.opts.Line.Flag("json"); j == "true" {
		w = s.opts.Stderr // go test -json's output stays one JSON stream
	}
	if s.outputHidden() {
		for _, r := range recs {
			if (r.Status == 0 || r.unended()) && r.Stderr && len(r.out) > 0 {
				fmt.Fprintf(w, "# %s (passed: go test does not show the output of passing packages)\n", r.pkg)
				w.Write(r.out)
			}
		}
	}
	if !s.opts.Line.Quiet {
		writeSummary(w, recs)
	}
	for _, r := range recs {
		if r.unended() && r.Status != 0 {
			fmt.Fprintf(w, "FAIL\t%s: goanomaly: the test binary found %d data race(s) and, as it runs examples, ends without goanomaly's TestMain: go test saw it pass\n", r.pkg, r.DataRaces)
			failed = true
		}
	}
	return failed
}

// unended reports whether r was written by a binary that ends without
// rt.Fini: its status is the one Fini would have chosen, not its own.
func (r *testRecord) unended() bool { return r.Ended != nil && !*r.Ended }

// outputHidden reports whether go test hides the output of a passing
// package, as cmd/go/internal/test decides: in package-list mode, unless it
// streams the output (-bench, -fuzz) or shows passing tests' (-v, -list,
// -json).
func (s *session) outputHidden() bool {
	flag := func(name string) string { v, _ := s.opts.Line.Flag(name); return v }
	v := flag("v")
	return len(s.opts.Line.Patterns) > 0 && flag("bench") == "" && flag("fuzz") == "" &&
		v != "true" && v != "test2json" && flag("list") == "" && flag("json") != "true"
}

// readTestRecords reads the binaries' records, sorted by package. A
// process started by another process that also wrote one (a test that
// re-executes its binary) counts with its parent; its output went to the
// parent, not to go test.
func (s *session) readTestRecords(dir string) []*testRecord {
	names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	byPid := map[int]*testRecord{}
	for _, name := range names {
		b, err := os.ReadFile(name)
		var r testRecord
		if err != nil || json.Unmarshal(b, &r) != nil {
			s.debugf("%s: unreadable test record: %v", name, err)
			continue
		}
		r.out, _ = os.ReadFile(strings.TrimSuffix(name, ".json") + ".out")
		r.pkg = s.packageIn(r.Dir)
		byPid[r.Pid] = &r
	}
	var recs []*testRecord
	for _, r := range byPid {
		if p := byPid[r.Ppid]; p != nil {
			p.add(r)
			continue
		}
		recs = append(recs, r)
	}
	sort.Slice(recs, func(i, j int) bool {
		return recs[i].pkg < recs[j].pkg || recs[i].pkg == recs[j].pkg && recs[i].Pid < recs[j].Pid
	})
	return recs
}

// add counts child's reports and checks with r's.
func (r *testRecord) add(child *testRecord) {
	r.children++
	r.DataRaces += child.DataRaces
	r.Nondeterminism += child.Nondeterminism
	for k, n := range child.ByKind {
		if r.ByKind == nil {
			r.ByKind = map[string]int{}
		}
		r.ByKind[k] += n
	}
	r.Trees += child.Trees
	r.Constructs += child.Constructs
	r.Checks += child.Checks
	r.Untracked += child.Untracked
	r.Exhausted += child.Exhausted
}

// packageIn returns the path of the package in directory dir (go test runs
// a package's test binary there), or dir if none of the command line's is.
func (s *session) packageIn(dir string) string {
	for _, p := range s.roots {
		if len(p.GoFiles) > 0 && filepath.Dir(p.GoFiles[0]) == dir {
			return strings.TrimSuffix(p.PkgPath, "_test")
		}
	}
	return dir
}

// writeSummary prints one line per checked test binary.
func writeSummary(w io.Writer, recs []*testRecord) {
	fmt.Fprintln(w, "goanomaly: summary of the checked test binaries")
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "package\tstatus\tdata races\tnondeterminism\tWRITE-WRITE\tWRITE-READ\tREAD-WRITE\tconstructs run\tchecks\tuntracked")
	for _, r := range recs {
		status := "ok"
		switch {
		case r.unended() && r.Status != 0:
			status = "FAIL"
		case r.unended():
			status = "-" // its own status is go test's to show
		case r.Status != 0:
			status = "exit " + strconv.Itoa(r.Status)
		}
		pkg := r.pkg
		if r.children > 0 {
			pkg += fmt.Sprintf(" (+%d child process(es))", r.children)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", pkg, status, r.DataRaces, r.Nondeterminism,
			r.ByKind["WRITE-WRITE"], r.ByKind["WRITE-READ"], r.ByKind["READ-WRITE"], r.Constructs, r.Checks, r.Untracked)
	}
	tw.Flush()
}
