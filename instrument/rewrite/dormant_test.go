package rewrite

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// dormantGolden are the testdata packages whose dormant rewrite has a
// golden file (<file>.dormant.golden): a plain loop, nested constructs,
// clones, calls through values, a guarded construct, a deferred join, an
// errgroup whose Wait's result is used, and sections.
var dormantGolden = []string{"dormant", "loop", "nested", "clones", "dynamic", "guarded", "deferwait", "errgroup", "sections"}

// TestGoldenDormant rewrites packages as a dormant build, compares the
// result with the .dormant.golden files, and runs the program built from it
// with checks off and with check=1: both print what the plain program
// prints, and with checks off nothing goes to standard error.
func TestGoldenDormant(t *testing.T) {
	t.Parallel()
	for _, name := range dormantGolden {
		dir := filepath.Join("testdata", "src", name)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res := rewritten(t, dir, Config{Dormant: true})
			work, overlay := goldenFiles(t, dir, res, ".dormant.golden")
			plain := run(t, dir, work, nil)
			exe := build(t, dir, work, overlay)
			for _, env := range []string{"", "check=1 exitcode=0", "sample=0.5 exitcode=0"} {
				var stdout, stderr bytes.Buffer
				cmd := exec.Command(exe)
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				cmd.Env = append(os.Environ(), "GOANOMALY="+env)
				if err := cmd.Run(); err != nil {
					t.Fatalf("GOANOMALY=%q: %v\n%s", env, err, stderr.String())
				}
				if stdout.String() != plain {
					t.Errorf("GOANOMALY=%q: dormant program printed\n%s\nplain program printed\n%s", env, stdout.String(), plain)
				}
				if env == "" && stderr.Len() > 0 {
					t.Errorf("checks off, the dormant program wrote to standard error:\n%s", stderr.String())
				}
			}
		})
	}
}

// TestDormantSameReports builds every testdata program checked and as a
// dormant binary: the dormant one reports the same site pairs with
// check=1, and nothing with checks off.
func TestDormantSameReports(t *testing.T) {
	t.Parallel()
	dirs, _ := filepath.Glob("testdata/src/*")
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			got := dormantReports(t, dir)
			if racyTestdata[filepath.Base(dir)] && len(got[0]) == 0 {
				t.Fatal("the checked build of a racy program reported nothing")
			}
		})
	}
}

// dormantReports builds the program in dir checked and dormant, runs them
// with args (the dormant one with check=1 and with check=0), fails t when
// the dormant binary's reports differ from the checked one's with check=1
// or it reports with check=0, and returns the three sets.
func dormantReports(t *testing.T, dir string, args ...string) [3][]string {
	t.Helper()
	var got [3][]string
	got[0] = buildReports(t, dir, Config{}, runEnv{}, args...)
	got[1], got[2] = dormantAgrees(t, dir, got[0], runEnv{}, args...)
	return got
}

// dormantAgrees builds the program in dir dormant, once, and runs it with
// check=1 and with check=0 (and env): it fails t unless the first reports
// the pairs checked (the checked build's) and the second nothing. The
// programs test (programs_soundness_test.go) calls it with its pruned
// build's pairs, so that each script's program is built three ways, not
// five.
func dormantAgrees(t *testing.T, dir string, checked []string, env runEnv, args ...string) (on, off []string) {
	t.Helper()
	work, overlay := writeRewrite(t, dir, Config{Dormant: true})
	exe := build(t, dir, work, overlay)
	on = runReports(t, exe, env.with(" check=1"), args...)
	off = runReports(t, exe, env.with(" check=0"), args...)
	if strings.Join(checked, "\n") != strings.Join(on, "\n") {
		t.Errorf("run %v: checked build reports\n%s\ndormant build with check=1 reports\n%s", args, strings.Join(checked, "\n"), strings.Join(on, "\n"))
	}
	if len(off) > 0 {
		t.Errorf("run %v: dormant build with checks off reports\n%s", args, strings.Join(off, "\n"))
	}
	return on, off
}

// buildReports rewrites the package in dir with cfg, builds it and returns
// the pairs its runs report with env.
func buildReports(t *testing.T, dir string, cfg Config, env runEnv, args ...string) []string {
	t.Helper()
	work, overlay := writeRewrite(t, dir, cfg)
	return reportedLocations(t, dir, work, overlay, env, args...)
}

// writeRewrite rewrites the package in dir with cfg (the runtime's path and
// the first site filled in) into a new work directory and returns it with
// the overlay that builds from it.
func writeRewrite(t *testing.T, dir string, cfg Config) (string, map[string]string) {
	t.Helper()
	return writeFiles(t, rewritten(t, dir, cfg))
}

// writeFiles writes the rewritten files of res into a new work directory
// and returns it with the overlay that builds from it.
func writeFiles(t *testing.T, res *Result) (string, map[string]string) {
	t.Helper()
	work := t.TempDir()
	overlay := map[string]string{}
	for name, src := range res.Files {
		p := filepath.Join(work, filepath.Base(name))
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
		overlay[name] = p
	}
	return work, overlay
}
