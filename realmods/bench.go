package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// The -bench mode measures what issue 11 targets on real modules: their
// own benchmarks (benchSet), run three ways on the pristine copy: plain
// go test, goanomaly test (pruned, the default build) and go test -race.
// Each build's test binary is compiled once (go test -c), so the rounds
// time the benchmarks and not the rewrite or the compiler; the rounds
// alternate the order of the builds, and the table takes each benchmark's
// median over the rounds.

// build is one of the three ways a benchmark runs.
type build int

const (
	plainBuild build = iota
	goanomalyBuild
	raceBuild
	nBuilds
)

func (b build) String() string { return [...]string{"plain", "goanomaly", "race"}[b] }

// benchResult is what the benchmarks of one benchSet gave: samples per
// benchmark and build, and what goanomaly's build and runs said of it.
type benchResult struct {
	module string // name@version
	set    benchSet
	names  []string               // the benchmarks, in the order of their first output
	runs   map[string]*benchStats // by benchmark name
	checks []int64                // goanomaly: checks per round, from GOANOMALY=summary=1 (-1: no summary)
	notes  []string               // failures, goanomaly's notes
}

// benchStats are one benchmark's samples, per build.
type benchStats struct {
	ns    [nBuilds][]float64 // ns/op, one per round
	bytes [nBuilds][]float64 // B/op, one per round (none when the output has no B/op)
}

// benchHarness runs the benchmarks of the selected modules.
func benchHarness(ctx context.Context, o *options) ([]*benchResult, error) {
	work, err := os.MkdirTemp("", "realmods-bench-")
	if err != nil {
		return nil, err
	}
	if o.work {
		fmt.Fprintf(os.Stderr, "realmods: WORK=%s\n", work)
		o.logs = filepath.Join(work, "logs")
		if err := os.Mkdir(o.logs, 0o755); err != nil {
			return nil, err
		}
	} else {
		defer os.RemoveAll(work)
	}
	tool, err := goanomalyTool(ctx, o, work)
	if err != nil {
		return nil, err
	}
	var res []*benchResult
	for _, m := range modules {
		if !slices.Contains(o.mods, m.name) {
			continue
		}
		if len(m.benches) == 0 {
			res = append(res, &benchResult{module: m.name + "@" + m.version, notes: []string{"no benchmark of its parallel code shipped"}})
			continue
		}
		d, err := download(ctx, o, work, m.path, m.version)
		if err != nil {
			res = append(res, &benchResult{module: m.name + "@" + m.version, notes: []string{err.Error()}})
			continue
		}
		name := m.name + "@" + d.Version
		dir := filepath.Join(work, name)
		before, _ := treeDigest(d.Dir)
		if err := copyTree(d.Dir, dir); err != nil {
			res = append(res, &benchResult{module: name, notes: []string{err.Error()}})
			continue
		}
		for _, s := range m.benches {
			if o.run.MatchString(m.name + " " + s.pkg) {
				res = append(res, runBenchSet(ctx, o, tool, dir, name, s))
			}
		}
		if after, _ := treeDigest(d.Dir); after != before && len(res) > 0 {
			res[len(res)-1].notes = append(res[len(res)-1].notes, "THE MODULE CACHE CHANGED: "+d.Dir)
		}
	}
	return res, nil
}

// runBenchSet builds the package's test binary three ways and runs its
// benchmarks o.count rounds, the builds in a rotating order.
func runBenchSet(ctx context.Context, o *options, tool, dir, name string, s benchSet) *benchResult {
	br := &benchResult{module: name, set: s, runs: map[string]*benchStats{}}
	bins := filepath.Join(dir, ".realmods-bin", strings.NewReplacer("/", "_", ".", "_").Replace(s.pkg))
	var built [nBuilds]string
	for b := range nBuilds {
		if b == raceBuild && !o.race {
			continue
		}
		bin := filepath.Join(bins, b.String()+".test")
		var r result
		switch b {
		case plainBuild:
			r = runCmd(ctx, o, dir, env, "go", "test", "-c", "-o", bin, s.pkg)
		case goanomalyBuild:
			r = runCmd(ctx, o, dir, env, tool, "test", "-c", "-o", bin, s.pkg)
			br.notes = append(br.notes, libraryNotes(notes(r.out))...)
		case raceBuild:
			r = runCmd(ctx, o, dir, env, "go", "test", "-race", "-c", "-o", bin, s.pkg)
		}
		if r.code != 0 {
			br.note(fmt.Sprintf("%s build failed: %s", b, firstLines(r.out, 3)))
			continue
		}
		built[b] = bin
	}
	pkgDir := filepath.Join(dir, s.pkg) // a test binary runs in its package's directory
	for round := range o.count {
		for i := range nBuilds {
			b := (build(round) + i) % nBuilds
			if built[b] == "" {
				continue
			}
			e := env
			if b == goanomalyBuild {
				e = append(slices.Clip(env), "GOANOMALY=summary=1")
			}
			r := runCmd(ctx, o, pkgDir, e, built[b], "-test.run", "^$", "-test.bench", s.re,
				"-test.benchtime", o.benchtime, "-test.benchmem", "-test.count", "1", "-test.timeout", o.timeout.String())
			if f := failure(r); f != "" || r.code != 0 {
				br.note(fmt.Sprintf("%s round %d: exit %d %s", b, round+1, r.code, f))
			}
			lines := parseBench(r.out)
			if len(lines) == 0 {
				br.note(fmt.Sprintf("%s: no benchmark matched %s", b, s.re))
			}
			for _, l := range lines {
				st := br.runs[l.name]
				if st == nil {
					st = new(benchStats)
					br.runs[l.name] = st
					br.names = append(br.names, l.name)
				}
				st.ns[b] = append(st.ns[b], l.ns)
				if l.bytes >= 0 {
					st.bytes[b] = append(st.bytes[b], l.bytes)
				}
			}
			if b == goanomalyBuild {
				br.checks = append(br.checks, parseChecks(r.out))
			}
		}
	}
	return br
}

// libraryNotes are the notes on the module's code, not on its tests: the
// constructs of the tests' own goroutines do not run in the benchmarks.
func libraryNotes(ns []string) []string {
	var lib []string
	for _, n := range ns {
		if file, _, _ := strings.Cut(n, ":"); !strings.HasSuffix(file, "_test.go") {
			lib = append(lib, n)
		}
	}
	return lib
}

// note adds a note once.
func (br *benchResult) note(s string) {
	if !slices.Contains(br.notes, s) {
		br.notes = append(br.notes, s)
	}
}

// firstLines is the first n lines of out, joined by " / ".
func firstLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, " / ")
}

// benchMain runs -bench: the table with the machine, the command and the
// load before and after (the machine may be shared: the load says how far
// the numbers can be trusted), printed and, with -o, written as Markdown.
func benchMain(o *options) {
	start := time.Now()
	load := loadAvg()
	res, err := benchHarness(context.Background(), o)
	if err != nil {
		fatalf("%v", err)
	}
	t := &benchTable{results: res, header: []string{
		fmt.Sprintf("%s, %s %s/%s, %d CPU(s), GOMAXPROCS %d; %d round(s) of -test.benchtime %s, medians; %s",
			start.UTC().Format("2006-01-02 15:04 UTC"), goEnv("GOVERSION"), runtime.GOOS, runtime.GOARCH,
			runtime.NumCPU(), runtime.GOMAXPROCS(0), o.count, o.benchtime, time.Since(start).Round(time.Second)),
		"load average (1, 5, 15 min) before: " + load + "; after: " + loadAvg(),
		"command: realmods " + strings.Join(os.Args[1:], " "),
	}}
	fmt.Print(t.text())
	if o.output != "" {
		if err := os.WriteFile(o.output, []byte(t.markdown()), 0o644); err != nil {
			fatalf("%v", err)
		}
	}
}

// loadAvg is the first three fields of /proc/loadavg, "unknown" elsewhere.
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}
