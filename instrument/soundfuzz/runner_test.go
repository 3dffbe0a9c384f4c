package soundfuzz

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/goanomaly/goanomaly/cmd/goanomaly/cli"
	"github.com/goanomaly/goanomaly/instrument/rewrite"
)

// The test binary is also the goanomaly command: run with
// SOUNDFUZZ_GOANOMALY=pruned it is cmd/goanomaly (the default rewriter);
// with =conservative the same command with rewrite.Config.Conservative and
// Elementwise set, which checks every shared access where it happens. No product code needs a switch for it.
func TestMain(m *testing.M) {
	switch os.Getenv("SOUNDFUZZ_GOANOMALY") {
	case "pruned":
		os.Exit(cli.Main(os.Args[1:], nil))
	case "conservative":
		os.Exit(cli.Main(os.Args[1:], func(pkgs []*packages.Package, test []bool, cfg rewrite.Config) ([]*rewrite.Result, error) {
			cfg.Conservative, cfg.Elementwise = true, true
			return rewrite.Packages(pkgs, test, cfg)
		}))
	}
	os.Exit(m.Run())
}

// modes are the two builds every program gets.
var modes = []string{"pruned", "conservative"}

const modPath = "fz"

// Result is one program's verdict under one build.
type Result struct {
	Prog    *Program
	Pkg     string
	Mode    string
	Verdict Verdict
	Outcome Outcome
	Err     string // the program did not run as it should (a generator bug)
}

// writeModule writes a module with programs progs (package p000, …) and a
// command cmd/fz that runs the one its argument names.
func writeModule(t testing.TB, dir string, progs []*Program, pkgs []string) {
	t.Helper()
	sum, err := os.ReadFile(filepath.Join("..", "..", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	var sumLines []string
	for _, l := range strings.Split(string(sum), "\n") {
		if strings.HasPrefix(l, "golang.org/x/sync ") {
			sumLines = append(sumLines, l)
		}
	}
	files := Module(modPath, progs, pkgs, syncVersion(t), strings.Join(sumLines, "\n")+"\n")
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// syncVersion is the golang.org/x/sync version goanomaly's own module
// requires (in the module cache, so the build needs no network).
func syncVersion(t testing.TB) string {
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`golang.org/x/sync (v\S+)`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod does not require golang.org/x/sync")
	}
	return string(m[1])
}

var noteRE = regexp.MustCompile(`^(\S+\.go):(\d+):(\d+): goanomaly: (.*)$`)

// runPrograms builds progs (with data for their names) in one module, once
// per mode, runs each program under each build, and judges the reports.
func runPrograms(t testing.TB, progs []*Program) []Result {
	t.Helper()
	dir := t.TempDir()
	if keep := os.Getenv("SOUNDFUZZ_KEEP"); keep != "" {
		dir = keep // to look at the module, goanomaly vet it, …
	}
	pkgs := make([]string, len(progs))
	for i := range progs {
		pkgs[i] = fmt.Sprintf("p%03d", i)
	}
	writeModule(t, dir, progs, pkgs)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var results []Result
	for _, mode := range modes {
		exe := filepath.Join(dir, "fz-"+mode)
		cmd := exec.Command(self, "build", "-o", exe, "./cmd/fz")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "SOUNDFUZZ_GOANOMALY="+mode, "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("goanomaly build (%s): %v\n%s\n%s", mode, err, out, sources(progs))
		}
		notes := parseNotes(dir, out)
		for i, p := range progs {
			res := Result{Prog: p, Pkg: pkgs[i], Mode: mode}
			res.Outcome.Notes = notes[p.Truth.File]
			races, err := runOne(dir, exe, mode, pkgs[i])
			if err != nil {
				res.Err = err.Error()
			}
			res.Outcome.Races = races
			res.Verdict = Judge(p.Truth, res.Outcome)
			results = append(results, res)
		}
	}
	return results
}

func sources(progs []*Program) string {
	var b strings.Builder
	for _, p := range progs {
		fmt.Fprintf(&b, "-- %s (%s) --\n%s", p.Truth.File, p.Family, p.Source)
	}
	return b.String()
}

// parseNotes returns the build's notes by file, relative to the module.
func parseNotes(dir string, out []byte) map[string][]Note {
	notes := map[string][]Note{}
	for _, line := range strings.Split(string(out), "\n") {
		m := noteRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		file := m[1]
		if rel, err := filepath.Rel(dir, file); err == nil && filepath.IsAbs(file) {
			file = rel
		}
		file = filepath.ToSlash(strings.TrimPrefix(file, "./"))
		n, _ := strconv.Atoi(m[2])
		notes[file] = append(notes[file], Note{File: file, Line: n, Text: m[4]})
	}
	return notes
}

// runOne runs program pkg of exe and returns its DATA RACE pairs. Runs are
// deterministic: one P, no asynchronous preemption, reports to a file.
func runOne(dir, exe, mode, pkg string) ([]string, error) {
	logBase := filepath.Join(dir, "log-"+mode+"-"+pkg)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, pkg)
	cmd.Env = append(os.Environ(), "GOANOMALY=format=json protocol=locked exitcode=0 log_path="+logBase,
		"GODEBUG=asyncpreemptoff=1", "GOMAXPROCS=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	runErr := cmd.Run()
	var races []string
	if cmd.Process != nil {
		log, err := os.ReadFile(fmt.Sprintf("%s.%d", logBase, cmd.Process.Pid))
		if err == nil {
			set := map[string]bool{}
			sc := bufio.NewScanner(bytes.NewReader(log))
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var r struct {
					Class        string
					Sink, Source struct{ Pos string }
				}
				if json.Unmarshal(sc.Bytes(), &r) != nil || r.Sink.Pos == "" || r.Class != "DATA RACE" {
					continue
				}
				set[PairKey(relPos(dir, r.Sink.Pos), relPos(dir, r.Source.Pos))] = true
			}
			for p := range set {
				races = append(races, p)
			}
			sort.Strings(races)
		}
	}
	if runErr != nil {
		return races, fmt.Errorf("run %s: %v\n%s", pkg, runErr, stderr.Bytes())
	}
	return races, nil
}

func relPos(dir, pos string) string {
	if rel, err := filepath.Rel(dir, pos); err == nil && filepath.IsAbs(pos) {
		return filepath.ToSlash(rel)
	}
	return pos
}

// describe is a failure's report: family, build, what went wrong, the
// notes, the reports and the program.
func (r Result) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "family %s, %s build of %s:\n", r.Prog.Family, r.Mode, r.Prog.Truth.File)
	if r.Err != "" {
		fmt.Fprintf(&b, "  run failed: %s\n", r.Err)
	}
	for _, p := range r.Verdict.Problems {
		fmt.Fprintf(&b, "  %s\n", p)
	}
	for _, n := range r.Outcome.Notes {
		fmt.Fprintf(&b, "  note %s:%d: %s\n", n.File, n.Line, n.Text)
	}
	for _, race := range r.Outcome.Races {
		fmt.Fprintf(&b, "  reported %s\n", race)
	}
	fmt.Fprintf(&b, "%s", r.Prog.Source)
	return b.String()
}

func (r Result) failed() bool { return r.Err != "" || len(r.Verdict.Problems) > 0 }
