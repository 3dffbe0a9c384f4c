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
	for _, name := range dormantGolden {
		dir := filepath.Join("testdata", "src", name)
		t.Run(name, func(t *testing.T) {
			abs, _ := filepath.Abs(dir)
			pkg := load(t, dir)
			res, err := Package(pkg, Config{RTPath: "github.com/goanomaly/goanomaly/rt", FirstSite: 1, Dormant: true})
			if err != nil {
				t.Fatal(err)
			}
			overlay := map[string]string{}
			work := t.TempDir()
			for file, src := range res.Files {
				copyPath := filepath.Join(work, filepath.Base(file))
				if err := os.WriteFile(copyPath, src, 0o644); err != nil {
					t.Fatal(err)
				}
				overlay[file] = copyPath
				shown := strings.ReplaceAll(string(src), abs, "$DIR")
				golden := filepath.Join(dir, filepath.Base(file)+".dormant.golden")
				if *update {
					if err := os.WriteFile(golden, []byte(shown), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, _ := os.ReadFile(golden)
				if string(want) != shown {
					t.Errorf("%s: dormant rewrite differs from %s (go test -update to accept):\n%s", file, golden, shown)
				}
			}
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
	dirs, _ := filepath.Glob("testdata/src/*")
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			got := dormantReports(t, dir)
			if racyTestdata[filepath.Base(dir)] && len(got[0]) == 0 {
				t.Fatal("the checked build of a racy program reported nothing")
			}
		})
	}
}

// TestDormantSameReportsPrograms is TestDormantSameReports over the
// examples and the programs of the race_*, sound_implicit_* and
// sound_pool_* testscripts, run with their scripts' arguments on one
// thread.
func TestDormantSameReportsPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every script's program three ways")
	}
	t.Setenv("GOMAXPROCS", "1")
	for _, dir := range []string{"../../examples/search/racy", "../../examples/fem/racy"} {
		t.Run(strings.TrimPrefix(dir, "../../"), func(t *testing.T) {
			if got := dormantReports(t, dir); len(got[0]) == 0 {
				t.Fatal("the checked build of a racy example reported nothing")
			}
		})
	}
	forScriptPrograms(t, func(t *testing.T, dir string, runs []scriptRun) {
		for _, r := range runs {
			dormantReports(t, dir, r.args...)
		}
	})
}

// dormantReports builds the program in dir checked and dormant, runs them
// with args (the dormant one with check=1 and with check=0), fails t when
// the dormant binary's reports differ from the checked one's with check=1
// or it reports with check=0, and returns the three sets.
func dormantReports(t *testing.T, dir string, args ...string) [3][]string {
	t.Helper()
	pkg := load(t, dir)
	var got [3][]string
	for k, dormant := range []bool{false, true, true} {
		res, err := Package(pkg, Config{RTPath: "github.com/goanomaly/goanomaly/rt", FirstSite: 1, Dormant: dormant})
		if err != nil {
			t.Fatal(err)
		}
		work := t.TempDir()
		overlay := map[string]string{}
		for name, src := range res.Files {
			p := filepath.Join(work, filepath.Base(name))
			if err := os.WriteFile(p, src, 0o644); err != nil {
				t.Fatal(err)
			}
			overlay[name] = p
		}
		more := []string{"", " check=1", " check=0"}[k]
		got[k] = reportedLocationsWith(t, dir, work, overlay, more, args...)
	}
	if strings.Join(got[0], "\n") != strings.Join(got[1], "\n") {
		t.Errorf("run %v: checked build reports\n%s\ndormant build with check=1 reports\n%s", args, strings.Join(got[0], "\n"), strings.Join(got[1], "\n"))
	}
	if len(got[2]) > 0 {
		t.Errorf("run %v: dormant build with checks off reports\n%s", args, strings.Join(got[2], "\n"))
	}
	return got
}
