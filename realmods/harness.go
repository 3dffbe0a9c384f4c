package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// row is one line of the table.
type row struct {
	module string // name@version
	label  string // the case: "counter", "clean", "pristine", "run ."
	kind   rowKind
	runs   int      // goanomaly runs made
	hits   int      // runs with the planted race reported (racy) or any DATA RACE (clean, pristine)
	race   string   // -race: "found", "missed", "silent", "REPORTED", "" (not run)
	pass   string   // pristine: "pass", "FAIL (…)" under goanomaly and go test
	notes  []string // failures, reports elsewhere, goanomaly's notes
	dur    time.Duration
}

type rowKind int

const (
	racyRow     rowKind = iota // a planted race: found k/runs
	cleanRow                   // a clean variant: silent k/runs
	pristineRow                // the module's own tests
	errorRow                   // the module could not be prepared
)

// env is the environment of every command: no workspace around the
// scratch copies, and goanomaly's and the race detector's default reports.
var env = []string{"GOWORK=off", "GOANOMALY=", "GORACE="}

// harness runs the selected modules and returns the table's rows.
func harness(ctx context.Context, o *options) ([]row, error) {
	td, err := testdataDir()
	if err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "realmods-")
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
	var rows []row
	for _, m := range modules {
		if slices.Contains(o.mods, m.name) {
			rows = append(rows, runModule(ctx, o, tool, td, work, m)...)
		}
	}
	if slices.Contains(o.mods, userModule.name) {
		rows = append(rows, runUser(ctx, o, tool, td, work)...)
	}
	return rows, nil
}

// goanomalyTool returns -goanomaly, or builds ./cmd/goanomaly of the
// repository into work.
func goanomalyTool(ctx context.Context, o *options, work string) (string, error) {
	if o.goanomaly != "" {
		return filepath.Abs(o.goanomaly)
	}
	gomod := goEnv("GOMOD")
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not in the goanomaly module (run from its root, or pass -goanomaly)")
	}
	bin := filepath.Join(work, "bin", "goanomaly")
	if r := runCmd(ctx, o, filepath.Dir(gomod), nil, "go", "build", "-o", bin, "./cmd/goanomaly"); r.code != 0 {
		return "", fmt.Errorf("building ./cmd/goanomaly: %s\n%s", r.cmd, r.out)
	}
	return bin, nil
}

// runModule prepares one module's copy and runs its pristine tests and its
// planted cases.
func runModule(ctx context.Context, o *options, tool, td, work string, m module) []row {
	d, err := download(ctx, o, work, m.path, m.version)
	if err != nil {
		return []row{{module: m.name + "@" + m.version, label: "download", kind: errorRow, notes: []string{err.Error()}}}
	}
	name := m.name + "@" + d.Version
	dir := filepath.Join(work, name)
	before, _ := treeDigest(d.Dir)
	if err := copyTree(d.Dir, dir); err != nil {
		return []row{{module: name, label: "copy", kind: errorRow, notes: []string{err.Error()}}}
	}
	var rows []row
	if o.pristine {
		rows = append(rows, runPristine(ctx, o, tool, dir, name, m.pristine))
	}
	if err := copyTree(filepath.Join(td, m.name), dir); err != nil {
		return append(rows, row{module: name, label: "planted files", kind: errorRow, notes: []string{err.Error()}})
	}
	for _, c := range m.cases {
		if o.run.MatchString(m.name + " " + c.label) {
			rows = append(rows, runPlanted(ctx, o, tool, dir, name, c))
		}
	}
	if after, _ := treeDigest(d.Dir); after != before && len(rows) > 0 {
		rows[len(rows)-1].notes = append(rows[len(rows)-1].notes, "THE MODULE CACHE CHANGED: "+d.Dir)
	}
	return rows
}

// runPristine runs the packages' own tests under goanomaly test and go test.
func runPristine(ctx context.Context, o *options, tool, dir, name string, pkgs []string) row {
	rw := row{module: name, label: "pristine", kind: pristineRow, runs: 1, notes: []string{"go test " + strings.Join(pkgs, " ")}}
	args := append([]string{"test", "-count=1", "-v", "-timeout=" + o.timeout.String()}, pkgs...)
	checked := runCmd(ctx, o, dir, env, tool, args...)
	plain := runCmd(ctx, o, dir, env, "go", args...)
	rw.dur = checked.dur + plain.dur
	t := count(parseReports(checked.out), "")
	if t.races > 0 {
		rw.hits = 1
		rw.notes = append(rw.notes, fmt.Sprintf("%d DATA RACE report(s) under goanomaly", t.races))
	}
	if t.nondets > 0 {
		rw.notes = append(rw.notes, fmt.Sprintf("%d NONDETERMINISM report(s) under goanomaly", t.nondets))
	}
	rw.pass = passed(checked) + " / " + passed(plain)
	if f := failure(checked); f != "" {
		rw.notes = append(rw.notes, "goanomaly: "+f)
	}
	if f := failure(plain); f != "" {
		rw.notes = append(rw.notes, "go test: "+f)
	}
	for _, m := range noTestFiles.FindAllSubmatch(plain.out, -1) {
		rw.notes = append(rw.notes, string(m[1])+": no test files")
	}
	rw.notes = append(rw.notes, notes(checked.out)...)
	return rw
}

var noTestFiles = regexp.MustCompile(`(?m)^\?\s+(\S+)\s+\[no test files\]`)

// passed says how a go test run ended: pass, or FAIL with the failed tests.
func passed(r result) string {
	if r.code == 0 {
		return "pass"
	}
	if names := failedTests(r.out); len(names) > 0 {
		if len(names) > 3 {
			names = append(names[:3], "…")
		}
		return "FAIL (" + strings.Join(names, ", ") + ")"
	}
	return "FAIL"
}

// runPlanted runs one planted test o.runs times under goanomaly test and
// once under go test -race.
func runPlanted(ctx context.Context, o *options, tool, dir, name string, c planted) row {
	args := []string{"test", "-count=1", "-v", "-timeout=" + o.timeout.String(), "-run", "^" + c.test + "$", c.pkg}
	m := measure{
		row:     row{module: name, label: c.label, kind: racyRow},
		dir:     dir,
		checked: append([]string{tool}, args...),
		race:    append([]string{"go", "test", "-race"}, args[1:]...),
		file:    plantedFile,
		test:    c.test,
	}
	if c.clean {
		m.kind = cleanRow
	}
	return m.run(ctx, o)
}

// measure is one case: a command run o.runs times under goanomaly and once
// under the race detector.
type measure struct {
	row
	dir     string
	checked []string // the goanomaly command
	race    []string // the race detector's
	file    string   // a report names it when it is the planted race's
	test    string   // the test that must have run, "" for a program
}

func (m *measure) run(ctx context.Context, o *options) row {
	for range o.runs {
		r := runCmd(ctx, o, m.dir, env, m.checked[0], m.checked[1:]...)
		m.runs++
		m.dur += r.dur
		m.tallyRun(r, m.file)
		if f := failure(r); f != "" {
			m.note("goanomaly: " + f)
		}
		if m.test != "" && !strings.Contains(string(r.out), "=== RUN   "+m.test) && failure(r) == "" {
			m.note(m.test + " did not run")
		}
		if m.runs == 1 {
			ns := notes(r.out)
			if len(ns) == 0 && m.kind == racyRow {
				ns = []string{"no goanomaly note"}
			}
			m.notes = append(m.notes, ns...)
		}
	}
	if o.race {
		r := runCmd(ctx, o, m.dir, env, m.race[0], m.race[1:]...)
		m.dur += r.dur
		m.row.race = raceVerdict(m.kind, count(parseReports(r.out), m.file))
		if f := failure(r); f != "" && !strings.Contains(string(r.out), "race detected during execution of test") {
			m.note("-race: " + f)
		}
	}
	return m.row
}

// tallyRun counts one goanomaly run: a hit is the planted race reported
// (racy) or any data race reported (clean). Data races elsewhere in a racy
// run are noted: they are not the planted one.
func (rw *row) tallyRun(r result, file string) {
	t := count(parseReports(r.out), file)
	switch {
	case rw.kind == cleanRow && t.races > 0:
		rw.hits++
	case rw.kind != cleanRow && t.planted > 0:
		rw.hits++
	}
	if rw.kind != cleanRow && t.races > t.planted {
		rw.note(fmt.Sprintf("%d DATA RACE report(s) not naming %s", t.races-t.planted, file))
	}
	if t.nondets > 0 {
		rw.note(fmt.Sprintf("NONDETERMINISM reported (%d)", t.nondets))
	}
	if t.maps > 0 {
		rw.note("the Go runtime crashed the test: fatal error: concurrent map writes")
	}
}

// runUser copies the user module and runs its racy and clean programs
// with goanomaly run, as a user would: nothing in it is rewritten by hand,
// and its tree must be unchanged afterwards.
func runUser(ctx context.Context, o *options, tool, td, work string) []row {
	name := userModule.name
	dir := filepath.Join(work, name)
	if err := copyTree(filepath.Join(td, name), dir); err != nil {
		return []row{{module: name, label: "copy", kind: errorRow, notes: []string{err.Error()}}}
	}
	before, _ := treeDigest(dir)
	var rows []row
	for _, c := range []struct {
		pkg, file string
		kind      rowKind
	}{
		{userModule.racy, name + "/main.go", racyRow},
		{userModule.clean, name + "/clean/main.go", cleanRow},
	} {
		label := "goanomaly run " + c.pkg
		if !o.run.MatchString(name + " " + label) {
			continue
		}
		m := measure{
			row:     row{module: name, label: label, kind: c.kind},
			dir:     dir,
			checked: []string{tool, "run", c.pkg},
			race:    []string{"go", "run", "-race", c.pkg},
			file:    c.file,
		}
		rows = append(rows, m.run(ctx, o))
	}
	if after, _ := treeDigest(dir); after != before && len(rows) > 0 {
		rows[0].notes = append(rows[0].notes, "THE USER'S TREE CHANGED")
	}
	return rows
}

// note adds a note once.
func (rw *row) note(s string) {
	if !slices.Contains(rw.notes, s) {
		rw.notes = append(rw.notes, s)
	}
}

// raceVerdict is the -race column: whether the race detector reported the
// planted race, or for a clean variant whether it stayed silent.
func raceVerdict(k rowKind, t tally) string {
	switch {
	case k == cleanRow && t.races == 0:
		return "silent"
	case k == cleanRow:
		return "REPORTED"
	case t.planted > 0:
		return "found"
	case t.maps > 0:
		return "found (fatal error: concurrent map)"
	}
	return "missed"
}
