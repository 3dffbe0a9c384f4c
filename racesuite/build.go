package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// binaries are the built test binaries and what the build said.
type binaries struct {
	dir     string // the scratch directory
	tool    string // how the checked binary was built, for the table
	checked string // the test binary built by goanomaly (or plain, with -plain)
	race    string // the test binary built with -race, with -race
	notes   []note // unstructured-construct notes from the build and vet
}

// note is one position goanomaly noted as outside its model.
type note struct {
	file      string // base name
	line, col int
	msg       string
}

func (n note) String() string { return fmt.Sprintf("%s:%d:%d: %s", n.file, n.line, n.col, n.msg) }

// build builds the test binaries in the scratch directory.
func build(o *options, s *scratch) (*binaries, error) {
	b := &binaries{dir: s.dir, checked: filepath.Join(s.dir, "checked.test")}
	if o.plain {
		b.tool = "go test -c (plain: -plain)"
		if out, err := command(s.dir, "go", "test", "-c", "-o", b.checked, ".").CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go test -c: %v\n%s", err, out)
		}
	} else {
		tool, err := goanomalyTool(o, s.dir)
		if err != nil {
			return nil, err
		}
		args := []string{"test", "-c", "-o", b.checked, "."}
		if o.hb {
			args = append([]string{"test", "-hb"}, args[1:]...)
		}
		b.tool = tool + " " + strings.Join(args[:len(args)-3], " ")
		out, err := command(s.dir, tool, args...).CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("goanomaly test -c: %v\n%s", err, out)
		}
		b.notes = parseNotes(out, s.files)
		if o.vet {
			vet := []string{"vet", "."}
			if o.hb {
				vet = []string{"vet", "-hb", "."}
			}
			out, _ := command(s.dir, tool, vet...).CombinedOutput() // vet exits 1 when it finds something
			b.notes = mergeNotes(b.notes, parseNotes(out, s.files))
		}
	}
	if o.race {
		b.race = filepath.Join(s.dir, "race.test")
		if out, err := command(s.dir, "go", "test", "-race", "-c", "-o", b.race, ".").CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go test -race -c: %v\n%s", err, out)
		}
	}
	return b, nil
}

// goanomalyTool returns the goanomaly binary: -goanomaly, or one built from
// ./cmd/goanomaly of the module racesuite runs in, into work.
func goanomalyTool(o *options, work string) (string, error) {
	if o.goanomaly != "" {
		return filepath.Abs(o.goanomaly)
	}
	gomod, err := goEnv("GOMOD")
	if err != nil || gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not in the goanomaly module (run from its root, or pass -goanomaly)")
	}
	root := filepath.Dir(gomod)
	bin := filepath.Join(work, "bin", "goanomaly")
	if out, err := command(root, "go", "build", "-o", bin, "./cmd/goanomaly").CombinedOutput(); err != nil {
		return "", fmt.Errorf("building ./cmd/goanomaly: %v\n%s(pass -goanomaly, or -plain to test the harness)", err, out)
	}
	return bin, nil
}

// command is exec.Command in dir.
func command(dir, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	return cmd
}

// notePattern matches "path/file.go:line:col: message".
var notePattern = regexp.MustCompile(`(?m)^(?:.*[/\\])?([^/\\\s:]+\.go):(\d+):(\d+): (.*?)\r?$`)

// parseNotes returns the lines of out that note a construct of one of files
// as unstructured or not checked.
func parseNotes(out []byte, files []string) []note {
	known := map[string]bool{}
	for _, f := range files {
		known[f] = true
	}
	var notes []note
	for _, m := range notePattern.FindAllSubmatch(out, -1) {
		msg := string(m[4])
		if !known[string(m[1])] || !isNote(msg) {
			continue
		}
		line, _ := strconv.Atoi(string(m[2]))
		col, _ := strconv.Atoi(string(m[3]))
		notes = append(notes, note{string(m[1]), line, col, strings.TrimPrefix(msg, "goanomaly: ")})
	}
	return notes
}

// isNote says whether a diagnostic is a note about something not checked
// (plan.Note prints "… — not checked").
func isNote(msg string) bool {
	return strings.Contains(msg, "not checked") || strings.Contains(msg, "unstructured")
}

// mergeNotes appends the notes of b not already in a (by position).
func mergeNotes(a, b []note) []note {
	seen := map[string]bool{}
	for _, n := range a {
		seen[fmt.Sprint(n.file, n.line, n.col)] = true
	}
	for _, n := range b {
		if k := fmt.Sprint(n.file, n.line, n.col); !seen[k] {
			seen[k] = true
			a = append(a, n)
		}
	}
	return a
}
