package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const conflict = `package main

import "sync"

func main() {
	n := 8
	a := make([]int, n+1)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { a[i+1] = a[i] })
	}
	wg.Wait()
	println(a[n])
}
`

// TestGoanomalyVet builds goanomaly-vet and runs it as go vet's vet tool and
// alone on a module with a definite conflict: both fail and print the
// conflict with its position (go vet with status 1, the standalone checker
// with its status for diagnostics, 3); -decisions adds the construct.
func TestGoanomalyVet(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "goanomaly-vet")
	if out, err := run(".", "go", "build", "-o", exe, "."); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	mod := filepath.Join(dir, "m")
	if err := os.MkdirAll(mod, 0o777); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.25\n",
		"main.go": conflict,
	} {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}

	const found = "main.go:10:18: definite conflict: write of a[i + 1] in iteration i and read of a[i] at line 10 in iteration i+1"
	const construct = "main.go:9:2: parallel loop of 1 goroutine start(s), joined at line 12"
	for _, tt := range []struct {
		args     []string
		status   int
		want     []string
		unwanted string
	}{
		{[]string{"go", "vet", "-vettool=" + exe, "./..."}, 1, []string{found}, construct},
		{[]string{exe, "./..."}, 3, []string{found}, construct},
		{[]string{exe, "-decisions", "./..."}, 3, []string{found, construct}, ""},
	} {
		out, err := run(mod, tt.args[0], tt.args[1:]...)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != tt.status {
			t.Errorf("%q: %v, want exit status %d\n%s", tt.args, err, tt.status, out)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%q printed\n%s\nwant a line with %q", tt.args, out, w)
			}
		}
		if tt.unwanted != "" && strings.Contains(out, tt.unwanted) {
			t.Errorf("%q printed\n%s\nwhich should not have %q without -decisions", tt.args, out, tt.unwanted)
		}
	}
}

// run runs prog in dir, outside any workspace, and returns its combined
// output.
func run(dir, prog string, args ...string) (string, error) {
	cmd := exec.Command(prog, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	return buf.String(), err
}
