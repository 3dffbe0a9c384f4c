package slicediff

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/goanomaly/goanomaly/cmd/goanomaly/cli"
)

// The test binary is also the goanomaly command (SLICEDIFF_GOANOMALY=1),
// so the builds need no goanomaly binary of their own.
func TestMain(m *testing.M) {
	if os.Getenv("SLICEDIFF_GOANOMALY") == "1" {
		os.Exit(cli.Command())
	}
	os.Exit(m.Run())
}

// buildFlags returns the two builds' goanomaly build flags: the checked
// build's (SLICEDIFF_BASE_FLAGS, default none) and the sliced one's
// (SLICEDIFF_FLAGS, default -slice; set it to validate the harness with
// another build, e.g. -conservative). A flag goanomaly does not know fails
// the build, and so the test.
func buildFlags() (base, sliced []string) {
	s, ok := os.LookupEnv("SLICEDIFF_FLAGS")
	if !ok {
		s = "-slice"
	}
	return strings.Fields(os.Getenv("SLICEDIFF_BASE_FLAGS")), strings.Fields(s)
}

// runOptions are GOANOMALY's options for every run: JSON reports into a
// file of their own (the sliced program may drop the program's own output,
// which is not compared), the exact per-location protocol, and the program's
// own exit status rather than 66 after a report.
const runOptions = "format=json protocol=locked exitcode=0"

// TestSliceDiff builds every program of every group checked and sliced,
// runs both builds of each program with one P and no asynchronous
// preemption (the same schedule for the same code), and fails on any
// difference in what they report. It also fails when a racy variant's
// checked build reports no DATA RACE, or a clean program's reports one.
func TestSliceDiff(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every kernel twice with goanomaly")
	}
	base, sliced := buildFlags()
	groups := suiteGroups()
	t.Run("soundfuzz", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		if keep := os.Getenv("SLICEDIFF_KEEP"); keep != "" {
			dir = keep // to rebuild a program that differs, goanomaly vet it, …
		}
		compareGroup(t, fuzzGroup(t, dir), base, sliced)
	})
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			compareGroup(t, g, base, sliced)
		})
	}
}

// compareGroup builds g both ways and compares each program's runs.
func compareGroup(t *testing.T, g group, base, sliced []string) {
	tmp := t.TempDir()
	baseBin, out, err := build(t, g, base, filepath.Join(tmp, "checked"))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	slicedBin, g := buildSome(t, g, sliced, filepath.Join(tmp, "sliced"))
	for i, p := range g.progs {
		log := func(build string, attempt int) string {
			return filepath.Join(tmp, fmt.Sprintf("log-%s-%d-%d", build, i, attempt))
		}
		wants := []outcome{run(t, baseBin, p, log("checked", 0))}
		gots := []outcome{run(t, slicedBin, p, log("sliced", 0))}
		want, got, same := match(wants, gots)
		// One P and no asynchronous preemption give one schedule, but
		// on a loaded machine sysmon still preempts a goroutine that has
		// run for 10 ms at its next call: the goroutines then run in
		// another order, and a location's report names other blocks or
		// another pair. Such a run is rare; run both builds again.
		for a := 1; !same && a < attempts; a++ {
			wants = append(wants, run(t, baseBin, p, log("checked", a)))
			gots = append(gots, run(t, slicedBin, p, log("sliced", a)))
			want, got, same = match(wants, gots)
		}
		note, noted := unchecked[p.name]
		switch {
		case p.want == someRaces && noted && want.races > 0:
			t.Errorf("%s %s: the checked build reports %d DATA RACE(s): the planted race is checked now, remove the program from unchecked", p.name, strings.Join(p.args, " "), want.races)
		case p.want == someRaces && noted:
			t.Logf("%s: the planted race is not checked (%s)", p.name, note)
		case p.want == someRaces && want.races == 0:
			t.Errorf("%s %s: the checked build reports no DATA RACE: the planted race is not found\n%s", p.name, strings.Join(p.args, " "), want.text())
		case p.want == noRaces && want.races > 0:
			t.Errorf("%s %s: the checked build of a race-free program reports %d DATA RACE(s)\n%s", p.name, strings.Join(p.args, " "), want.races, want.text())
		}
		if !same {
			t.Errorf("%s %s: goanomaly build %s and goanomaly build %s differ (on each of %d runs):\n%s-- checked build (%s) --\n%s-- sliced build (%s) --\n%s",
				p.name, strings.Join(p.args, " "), strings.Join(base, " "), strings.Join(sliced, " "), attempts,
				diff(want, got), strings.Join(base, " "), want.text(), strings.Join(sliced, " "), got.text())
		}
	}
}

// attempts is how many times each build of a program runs before their
// reports count as different.
const attempts = 5

// match returns a checked and a sliced outcome that are the same, and
// true, if there are; else the first of each and false.
func match(wants, gots []outcome) (want, got outcome, same bool) {
	for _, w := range wants {
		for _, g := range gots {
			if diff(w, g) == "" {
				return w, g, true
			}
		}
	}
	return wants[0], gots[0], false
}

// build runs goanomaly build flags -o out/<g.out> g.pkgs... in g.dir and
// returns the directory the binaries are in, or the build's error and
// output.
func build(t *testing.T, g group, flags []string, out string) (bin string, output []byte, err error) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	o := filepath.Join(out, filepath.FromSlash(g.out))
	if strings.HasSuffix(g.out, "/") {
		o += string(filepath.Separator)
	}
	args := append(append([]string{"build"}, flags...), "-o", o)
	cmd := exec.Command(self, append(args, g.pkgs...)...)
	cmd.Dir = g.dir
	cmd.Env = append(append(os.Environ(), "SLICEDIFF_GOANOMALY=1"), g.env...)
	start := time.Now()
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", b, fmt.Errorf("goanomaly %s (in %s): %v", strings.Join(args, " "), g.dir, err)
	}
	t.Logf("goanomaly %s: %d package(s) in %v", strings.Join(args[:len(args)-2], " "), len(g.pkgs), time.Since(start).Round(time.Millisecond))
	return filepath.Join(out, "bin"), nil, nil
}

// buildSome builds g like build; when packages do not compile, each
// program of theirs fails with the compiler's errors, and the rest of g
// is built again and returned, so that one broken package does not hide
// the other programs' comparisons.
func buildSome(t *testing.T, g group, flags []string, out string) (string, group) {
	for {
		bin, output, err := build(t, g, flags, out)
		if err == nil {
			return bin, g
		}
		broken := compileErrors(output)
		h := g.without(broken)
		if len(broken) == 0 || len(h.progs) == len(g.progs) {
			t.Fatalf("%v\n%s", err, output)
		}
		for _, p := range g.progs {
			if msg, ok := broken[p.pkg]; ok {
				t.Errorf("%s: goanomaly build %s does not compile it:\n%s", p.name, strings.Join(flags, " "), msg)
			}
		}
		if len(h.progs) == 0 {
			return bin, h
		}
		g = h
	}
}

// compileErrors returns the go command's errors in output by package
// (the lines after each "# import/path" line).
func compileErrors(output []byte) map[string]string {
	broken := map[string]string{}
	pkg := ""
	for _, line := range strings.Split(string(output), "\n") {
		if rest, ok := strings.CutPrefix(line, "# "); ok {
			pkg = strings.Fields(rest + " ")[0]
			broken[pkg] += ""
			continue
		}
		if pkg != "" && line != "" {
			broken[pkg] += line + "\n"
		}
	}
	return broken
}

// outcome is what one run reported.
type outcome struct {
	reports []string // each report's JSON, keys sorted, in sorted order
	summary string   // the compared part of the closing summary (summaryKeys)
	races   int
	status  string // the exit status, or how the run failed
}

// summaryKeys are the summary fields compared: the counts of distinct
// reports and each distinct pair. How often a pair occurred is not: in a
// pool whose parent feeds the items (gesummv's racy variant), which
// worker takes which item depends on when the parent's sends hand over
// the one P, and on a loaded machine a slow write to stderr hands it over
// elsewhere too (the counts of the racy gesummv's pairs then differed, 201
// against 145, with the same 22 pairs). The run's statistics (checks,
// blocks, …) are not compared either: they are not reports.
var summaryKeys = []string{"data_races", "nondeterminism", "reports", "by_kind"}

// run runs p's executable of bin and returns what it reported. One P, no
// asynchronous preemption and no garbage collector: which pairs of a racy
// location are recorded depends on how the blocks that touch it
// interleave, and with the collector on, its stops (more frequent in the
// unsliced build, which allocates more) switched goroutines mid-block, so
// the two builds met gesummv's shared accumulators in different orders.
func run(t *testing.T, bin string, p program, logBase string) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, p.exe), p.args...)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1", "GODEBUG=asyncpreemptoff=1", "GOGC=off", "GOANOMALY="+runOptions+" log_path="+logBase)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	err := cmd.Run()
	var o outcome
	switch e := err.(type) {
	case nil:
		o.status = "exit status 0"
	case *exec.ExitError:
		o.status = e.String()
		if e.ExitCode() != 0 || ctx.Err() != nil {
			o.status += fmt.Sprintf(" (%v); stderr:\n%s", ctx.Err(), stderr.Bytes())
		}
	default:
		t.Fatalf("%s: %v", p.name, err)
	}
	log, err := os.ReadFile(fmt.Sprintf("%s.%d", logBase, cmd.Process.Pid))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s: a report line that is not JSON: %v\n%s", p.name, err, sc.Bytes())
		}
		if s, ok := m["summary"].(map[string]any); ok {
			kept := map[string]any{}
			for _, k := range summaryKeys {
				kept[k] = s[k]
			}
			if rs, ok := kept["reports"].([]any); ok {
				for _, r := range rs {
					if m, ok := r.(map[string]any); ok {
						delete(m, "count") // how often a pair recurs: see summaryKeys
					}
				}
				sort.Slice(rs, func(i, j int) bool { return canonical(rs[i]) < canonical(rs[j]) })
			}
			o.summary = canonical(kept)
			continue
		}
		if m["class"] == "DATA RACE" {
			o.races++
		}
		o.reports = append(o.reports, canonical(m))
	}
	sort.Strings(o.reports)
	return o
}

// canonical is v's JSON with object keys sorted.
func canonical(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// text is the outcome as the failure message shows it.
func (o outcome) text() string {
	var b strings.Builder
	for _, r := range o.reports {
		fmt.Fprintf(&b, "%s\n", r)
	}
	fmt.Fprintf(&b, "summary %s\n%s\n", o.summary, o.status)
	return b.String()
}

// diff lists the reports only one outcome has, and the summaries and exit
// statuses where they differ; "" when the outcomes are the same.
func diff(want, got outcome) string {
	var b strings.Builder
	count := func(xs []string) map[string]int {
		m := map[string]int{}
		for _, x := range xs {
			m[x]++
		}
		return m
	}
	w, g := count(want.reports), count(got.reports)
	for _, r := range want.reports {
		if w[r] > g[r] { // a report printed more often counts as only checked's
			fmt.Fprintf(&b, "  only checked: %s (%d time(s), sliced %d)\n", r, w[r], g[r])
			g[r] = w[r]
		}
	}
	for _, r := range got.reports {
		if g[r] > w[r] {
			fmt.Fprintf(&b, "  only sliced:  %s (%d time(s), checked %d)\n", r, g[r], w[r])
			w[r] = g[r]
		}
	}
	if want.summary != got.summary {
		fmt.Fprintf(&b, "  summary checked: %s\n  summary sliced:  %s\n", want.summary, got.summary)
	}
	if want.status != got.status {
		fmt.Fprintf(&b, "  status checked: %s\n  status sliced:  %s\n", want.status, got.status)
	}
	return b.String()
}
