// Package examples holds goanomaly's example programs; this test checks
// the promise that a checked binary prints exactly what the plain one does.
package examples

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestCheckedStdoutEqualsPlain builds goanomaly, then runs every example
// plain (go run) and checked (goanomaly run): standard output must be the
// same, the racy versions must report a data race (exit 66) and the clean
// ones must exit 0 with nothing on stderr.
func TestCheckedStdoutEqualsPlain(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every example twice")
	}
	tool := filepath.Join(t.TempDir(), "goanomaly")
	if out, err := exec.Command("go", "build", "-o", tool, "../cmd/goanomaly").CombinedOutput(); err != nil {
		t.Fatalf("building goanomaly: %v\n%s", err, out)
	}
	dirs, _ := filepath.Glob("*/*")
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		if b := filepath.Base(dir); b != "clean" && b != "racy" {
			continue // not a program: regression/testdata, a suite's scripts
		}
		t.Run(dir, func(t *testing.T) {
			if filepath.Base(dir) == "racy" {
				// A racy program's output is the schedule's: on several
				// threads its lost updates change what it prints, run to
				// run. On one thread both builds compute the same; goanomaly
				// still reports the race, which is independent of the
				// schedule.
				t.Setenv("GOMAXPROCS", "1")
			}
			plain, _, code := run(t, "go", "run", "./"+dir)
			if code != 0 {
				t.Fatalf("go run ./%s: exit status %d", dir, code)
			}
			checked, stderr, code := run(t, tool, "run", "./"+dir)
			if checked != plain {
				t.Errorf("checked stdout:\n%s\nplain stdout:\n%s", checked, plain)
			}
			racy := filepath.Base(dir) == "racy"
			switch {
			case racy && (code != 66 || !bytes.Contains([]byte(stderr), []byte("WARNING: DATA RACE"))):
				t.Errorf("racy example: exit status %d, stderr:\n%s", code, stderr)
			case !racy && (code != 0 || stderr != ""):
				t.Errorf("clean example: exit status %d, stderr:\n%s", code, stderr)
			}
		})
	}
}

func run(t *testing.T, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out.String(), errb.String(), code
}
