package rewrite

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// load type-checks the package in dir.
func load(t *testing.T, dir string) *packages.Package {
	t.Helper()
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("testdata has errors")
	}
	return pkgs[0]
}

// TestGolden rewrites each package under testdata/src, compares the result
// with its .golden files (paths shown relative to testdata), then builds the
// rewritten program and checks that it prints what the original prints.
func TestGolden(t *testing.T) {
	t.Parallel()
	dirs, _ := filepath.Glob("testdata/src/*")
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			res := rewritten(t, dir, Config{})
			if len(res.Files) == 0 {
				t.Fatal("nothing rewritten")
			}
			work, overlay := goldenFiles(t, dir, res, ".golden")
			plain := run(t, dir, work, nil)
			checked := run(t, dir, work, overlay)
			if plain != checked {
				t.Errorf("checked program printed\n%s\nplain program printed\n%s", checked, plain)
			}
		})
	}
}

// run builds the main package in dir (with overlay, if any) and returns its
// standard output.
func run(t *testing.T, dir, work string, overlay map[string]string) string {
	t.Helper()
	exe := build(t, dir, work, overlay)
	var stdout bytes.Buffer
	cmd := exec.Command(exe)
	cmd.Stdout = &stdout
	cmd.Env = append(os.Environ(), "GOANOMALY=exitcode=0")
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v", exe, err)
	}
	return stdout.String()
}

// goldenFiles writes the rewritten files of res into a new work directory
// and compares each with its golden file beside the source (suffix
// ".golden" or ".dormant.golden"; -update rewrites them), the package's
// directory shown as $DIR. It returns the work directory and the overlay
// that builds from it.
func goldenFiles(t *testing.T, dir string, res *Result, suffix string) (string, map[string]string) {
	t.Helper()
	abs, _ := filepath.Abs(dir)
	overlay := map[string]string{}
	work := t.TempDir()
	for name, src := range res.Files {
		copyPath := filepath.Join(work, filepath.Base(name))
		if err := os.WriteFile(copyPath, src, 0o644); err != nil {
			t.Fatal(err)
		}
		overlay[name] = copyPath
		shown := strings.ReplaceAll(string(src), abs, "$DIR")
		golden := filepath.Join(dir, filepath.Base(name)+suffix)
		if *update {
			if err := os.WriteFile(golden, []byte(shown), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, _ := os.ReadFile(golden)
		if string(want) != shown {
			t.Errorf("%s: rewrite differs from %s (go test -update to accept):\n%s", name, golden, shown)
		}
	}
	return work, overlay
}
