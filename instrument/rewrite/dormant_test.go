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
var dormantGolden = []string{"loop", "nested", "clones", "dynamic", "guarded", "deferwait", "errgroup", "sections"}

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
