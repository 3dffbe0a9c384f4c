package rewrite

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestPruningLosesNoReport is the soundness guard: every testdata program
// is built twice, with the static stage's pruning (read-only and independent
// accesses not checked) and conservatively (every shared access checked),
// and both builds, run on the same input, must report the same locations
// (the set of sink and source sites of their reports, in either order).
func TestPruningLosesNoReport(t *testing.T) {
	t.Parallel()
	dirs, _ := filepath.Glob("testdata/src/*")
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			got, _ := reportsBothWays(t, dir, runEnv{})
			if racyTestdata[filepath.Base(dir)] && len(got[1]) == 0 {
				t.Fatal("the conservative build of a racy program reported nothing")
			}
			if silentTestdata[filepath.Base(dir)] && len(got[0])+len(got[1]) > 0 {
				t.Errorf("a program that shares nothing reported\n%s\n%s", strings.Join(got[0], "\n"), strings.Join(got[1], "\n"))
			}
			if strings.Join(got[0], "\n") != strings.Join(got[1], "\n") {
				t.Errorf("pruned build reports\n%s\nconservative build reports\n%s", strings.Join(got[0], "\n"), strings.Join(got[1], "\n"))
			}
		})
	}
}

// reportsBothWays rewrites the package in dir pruned and conservatively,
// builds and runs both (with env), and returns the site pairs each
// reported and how many accesses the pruned build proved independent.
func reportsBothWays(t *testing.T, dir string, env runEnv, args ...string) (got [2][]string, independent int) {
	t.Helper()
	for k, conservative := range []bool{false, true} {
		res := rewritten(t, dir, Config{Conservative: conservative, Elementwise: conservative})
		work, overlay := writeFiles(t, res)
		if !conservative {
			for _, c := range res.Plan.Constructs {
				independent += c.Count("independent")
			}
		}
		got[k] = reportedLocations(t, dir, work, overlay, env, args...)
	}
	return got, independent
}

// racyTestdata are the testdata programs with a planted race, so the guard
// compares non-empty report sets.
var racyTestdata = map[string]bool{"loop": true, "rows2d": true, "pruned": true, "callback": true, "coalescedstride": true, "rangeexpr": true, "review10stride": true, "review10keys": true, "rangecoalesced": true, "rangestruct": true, "review11typeset": true, "review11rangetemp": true, "rangearray": true, "rangenest": true, "ctxclone": true, "freshout": true, "itemwrites": true}

// silentTestdata are testdata programs whose goroutines share nothing
// (written to catch a false report), so both builds must report nothing,
// not only the same.
var silentTestdata = map[string]bool{"review11fresh": true}

// reportedLocations builds and runs the checked program 3 times with args
// and env and returns the sorted set of conflicting site pairs it
// reported. A run may exit non-zero (a program that panics on purpose);
// its reports count.
func reportedLocations(t *testing.T, dir, work string, overlay map[string]string, env runEnv, args ...string) []string {
	t.Helper()
	return runReports(t, build(t, dir, work, overlay), env, args...)
}

// runEnv is what a test adds to the runs of its programs: GOANOMALY
// options and environment variables. It is passed down, not set in the
// test's own environment (t.Setenv), so that the tests can run in
// parallel.
type runEnv struct {
	opts string   // more GOANOMALY options, each after a space
	vars []string // more variables, "NAME=value"
}

// with is env with more GOANOMALY options.
func (env runEnv) with(opts string) runEnv {
	env.opts += opts
	return env
}

// runReports runs the checked program exe 3 times and returns the sorted
// set of site pairs it reported.
func runReports(t *testing.T, exe string, env runEnv, args ...string) []string {
	t.Helper()
	work := t.TempDir()
	set := map[string]bool{}
	for run := range 3 {
		// Reports go to a file, not a pipe: a write to a full pipe blocks
		// until the test reads it, and a goroutine blocked there hands the
		// one P to another, which changes the pairs the run names.
		errFile, err := os.Create(filepath.Join(work, fmt.Sprintf("stderr%d", run)))
		if err != nil {
			t.Fatal(err)
		}
		defer errFile.Close()
		cmd := exec.Command(exe, args...)
		cmd.Stderr = errFile
		opts := "format=json exitcode=0" + env.opts
		if p := os.Getenv("GOANOMALY_TEST_PROTOCOL"); p != "" && !strings.Contains(env.opts, " protocol=") {
			opts += " protocol=" + p
		}
		// No asynchronous preemption: on one P the goroutines then switch
		// only where they block, so the pairs a run names depend on the
		// program, not on how loaded the machine is.
		cmd.Env = append(append(os.Environ(), env.vars...), "GOANOMALY="+opts, "GODEBUG=asyncpreemptoff=1")
		if err := cmd.Run(); err != nil {
			if _, exited := err.(*exec.ExitError); !exited {
				t.Fatal(err)
			}
		}
		stderr, err := os.ReadFile(errFile.Name())
		if err != nil {
			t.Fatal(err)
		}
		addPairs(set, stderr)
	}
	return sortedPairs(set)
}

// addPairs adds to set the site pairs of the JSON reports in stderr,
// each as "a ~ b" with a <= b.
func addPairs(set map[string]bool, stderr []byte) {
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	for sc.Scan() {
		var r struct {
			Sink, Source struct{ Pos string }
		}
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.Sink.Pos == "" {
			continue
		}
		pair := []string{r.Sink.Pos, r.Source.Pos}
		sort.Strings(pair)
		set[strings.Join(pair, " ~ ")] = true
	}
}

// sortedPairs returns the pairs of set, sorted.
func sortedPairs(set map[string]bool) []string {
	var out []string
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
