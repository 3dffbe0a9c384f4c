package rewrite

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestPruningLosesNoReportPrograms is the soundness guard over the programs
// users see: the examples and the programs of the race_* (and sound_pool_*)
// testscripts, and of the reviewers' sound_review_*, sound_review2_* and sound_review3_* ones, each
// built pruned and conservatively and run with the arguments its script
// gives it, one thread (so both builds meet their accesses in one order),
// must report the same pairs of sites; and built dormant, with check=1 the
// pruned build's pairs and with check=0 none (dormantAgrees). Scripts whose
// program spans several packages are left to the testscripts themselves.
func TestPruningLosesNoReportPrograms(t *testing.T) {
	t.Parallel()
	oneThread := runEnv{vars: []string{"GOMAXPROCS=1"}}
	for _, dir := range []string{"../../examples/search/racy", "../../examples/search/clean", "../../examples/fem/racy", "../../examples/fem/clean"} {
		t.Run(strings.TrimPrefix(dir, "../../"), func(t *testing.T) {
			t.Parallel()
			got, _ := reportsBothWays(t, dir, oneThread)
			if strings.HasSuffix(dir, "racy") && len(got[1]) == 0 {
				t.Fatal("the conservative build of a racy example reported nothing")
			}
			same(t, got)
			dormantAgrees(t, dir, got[0], oneThread)
		})
	}
	forScriptPrograms(t, func(t *testing.T, dir string, runs []scriptRun) {
		for _, r := range runs {
			got, _ := reportsBothWays(t, dir, oneThread, r.args...)
			if r.racy && len(got[1]) == 0 {
				t.Errorf("run %v: the script expects a race, the conservative build reported nothing", r.args)
			}
			same(t, got)
			dormantAgrees(t, dir, got[0], oneThread, r.args...)
		}
	})
}

// forScriptPrograms calls f, in a subtest per script, with a directory
// holding the program of each race_*, sound_implicit_* and sound_pool_*
// testscript of one package, and the script's goanomaly run commands. The
// subtests run in parallel.
func forScriptPrograms(t *testing.T, f func(t *testing.T, dir string, runs []scriptRun)) {
	scripts, _ := filepath.Glob("../../testscripts/race_*.txtar")
	implicit, _ := filepath.Glob("../../testscripts/sound_implicit_*.txtar") // implicit accesses: each case pruned and conservative
	scripts = append(scripts, implicit...)
	pools, _ := filepath.Glob("../../testscripts/sound_pool_*.txtar") // worker-owned memory: the same decisions both ways
	scripts = append(scripts, pools...)
	review, _ := filepath.Glob("../../testscripts/sound_review_*.txtar") // reviewers' adversarial programs: differential by construction
	scripts = append(scripts, review...)
	review2, _ := filepath.Glob("../../testscripts/sound_review2_*.txtar") // the second review's (issue 11: cyclic rows, stepped indices, the exact test, guard paths)
	scripts = append(scripts, review2...)
	review3, _ := filepath.Glob("../../testscripts/sound_review3_*.txtar") // the third's (issue 11: guards narrowed to what a construct touches)
	scripts = append(scripts, review3...)
	for _, script := range scripts {
		ar, err := txtar.ParseFile(script)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(script), ".txtar")
		runs := scriptRuns(string(ar.Comment))
		if len(runs) == 0 || !onePackage(ar) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir, err := os.MkdirTemp("testdata", "script-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { forget(dir); os.RemoveAll(dir) })
			for _, f := range ar.Files {
				if strings.HasSuffix(f.Name, ".go") {
					if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			f(t, dir, runs)
		})
	}
}

// scriptRun is one `goanomaly run .` of a script: its arguments, and
// whether the script expects a race (a failing run in a script that looks
// for DATA RACE reports, or the race exit status).
type scriptRun struct {
	args []string
	racy bool
}

// scriptRuns returns the script's `goanomaly run .` commands.
func scriptRuns(script string) []scriptRun {
	var out []scriptRun
	re := regexp.MustCompile(`(?m)^(! |exitcode \d+ )?goanomaly run \.((?: \w+)*)\s*$`)
	for _, m := range re.FindAllStringSubmatch(script, -1) {
		racy := m[1] == "exitcode 66 " || m[1] == "! " && strings.Contains(script, "DATA RACE")
		out = append(out, scriptRun{args: strings.Fields(m[2]), racy: racy})
	}
	return out
}

// onePackage reports whether the archive holds one package main of Go
// files at its top level, importing nothing from its own module.
func onePackage(ar *txtar.Archive) bool {
	module := ""
	for _, f := range ar.Files {
		if f.Name == "go.mod" {
			if m := regexp.MustCompile(`(?m)^module (\S+)`).FindSubmatch(f.Data); m != nil {
				module = string(m[1])
			}
		}
	}
	for _, f := range ar.Files {
		if strings.Contains(f.Name, "/") && strings.HasSuffix(f.Name, ".go") {
			return false
		}
		if strings.HasSuffix(f.Name, ".go") && module != "" && strings.Contains(string(f.Data), `"`+module+`/`) {
			return false
		}
	}
	return true
}

func same(t *testing.T, got [2][]string) {
	t.Helper()
	if strings.Join(got[0], "\n") != strings.Join(got[1], "\n") {
		t.Errorf("pruned build reports\n%s\nconservative build reports\n%s", strings.Join(got[0], "\n"), strings.Join(got[1], "\n"))
	}
}
