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

// TestVetTool builds the goanomaly command and runs it as go vet's vet tool
// on a module with a definite conflict: main hands the go command's
// protocol (-V=full, -flags, unit.cfg) to the analyzer, and go vet fails
// with the conflict and its position. The same binary still runs goanomaly
// commands.
func TestVetTool(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "goanomaly")
	goCmd(t, ".", "build", "-o", exe, ".")
	mod := filepath.Join(dir, "m")
	writeModule(t, mod)

	out, err := run(mod, "go", "vet", "-vettool="+exe, "./...")
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("go vet -vettool: %v, want exit status 1\n%s", err, out)
	}
	want := "main.go:13:4: definite conflict: write of a[i + 1] in iteration i and read of a[i] at line 13 in iteration i+1"
	if !strings.Contains(out, want) {
		t.Errorf("go vet -vettool printed\n%s\nwant a line with %q", out, want)
	}

	if out, err := run(mod, exe, "version"); err != nil || !strings.HasPrefix(out, "goanomaly version ") {
		t.Errorf("goanomaly version: %v\n%s", err, out)
	}
}

// writeModule writes a module whose main has a parallel loop with a
// definite conflict at main.go:13:4.
func writeModule(t *testing.T, dir string) {
	t.Helper()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.25\n",
		"main.go": `package main

import "sync"

func main() {
	n := 8
	a := make([]int, n+1)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a[i+1] = a[i]
		}()
	}
	wg.Wait()
	println(a[n])
}
`,
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// goCmd runs the go command in dir and fails the test if it fails.
func goCmd(t *testing.T, dir string, args ...string) {
	t.Helper()
	if out, err := run(dir, "go", args...); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
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
