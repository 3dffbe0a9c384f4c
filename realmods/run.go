package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// result is one command's run.
type result struct {
	cmd      string // as printed in -v and in errors
	out      []byte // standard output and error, interleaved
	code     int    // exit status; -1 when it did not start or was killed
	timedOut bool
	dur      time.Duration
}

// runCmd runs name args in dir with env added to the environment, within
// o.timeout.
func runCmd(ctx context.Context, o *options, dir string, env []string, name string, args ...string) result {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 10 * time.Second // a test binary left behind by a killed go test
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	r := result{cmd: strings.Join(append([]string{name}, args...), " ")}
	if o.verbose {
		fmt.Fprintf(os.Stderr, "realmods: (cd %s && %s)\n", dir, r.cmd)
	}
	start := time.Now()
	err := cmd.Run()
	r.dur, r.out, r.timedOut = time.Since(start), out.Bytes(), ctx.Err() != nil
	if o.logs != "" {
		o.logged++
		log := filepath.Join(o.logs, fmt.Sprintf("%03d.log", o.logged))
		if os.WriteFile(log, append([]byte("(cd "+dir+" && "+r.cmd+")\n"), r.out...), 0o644) == nil && o.verbose {
			fmt.Fprintf(os.Stderr, "realmods: output in %s\n", log)
		}
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && !r.timedOut:
		r.code = exit.ExitCode()
	default:
		r.code = -1
		r.out = append(r.out, []byte("\nrealmods: "+err.Error()+"\n")...)
	}
	return r
}

// report is one DATA RACE or NONDETERMINISM report, in goanomaly's text
// form or the race detector's: the lines between two "==================".
type report struct {
	class string // "DATA RACE" or "NONDETERMINISM"
	text  string
}

// parseReports returns the reports in out, and the Go runtime's "fatal
// error: concurrent map writes" (class mapFatal): the race detector's own
// harness counts that as the race found, but under goanomaly it is the race
// crashing the program, not goanomaly finding it.
func parseReports(out []byte) []report {
	var reps []report
	var cur *strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "==================":
			if cur != nil {
				reps = append(reps, newReport(cur.String()))
				cur = nil
			} else {
				cur = new(strings.Builder)
			}
		case cur != nil:
			cur.WriteString(line + "\n")
		case strings.HasPrefix(line, "fatal error: concurrent map"):
			reps = append(reps, report{class: mapFatal, text: line + "\n"})
		}
	}
	return reps
}

func newReport(text string) report {
	r := report{text: text}
	switch first, _, _ := strings.Cut(strings.TrimSpace(text), "\n"); {
	case strings.HasPrefix(first, "WARNING: DATA RACE"):
		r.class = "DATA RACE"
	case strings.HasPrefix(first, "WARNING: NONDETERMINISM"):
		r.class = "NONDETERMINISM"
	}
	return r
}

// mapFatal is the class of the runtime's concurrent map fatal error.
const mapFatal = "fatal error: concurrent map"

// tally counts a run's reports: races and nondets in all, planted, the
// data races that name the planted file (the race the test plants, not one
// elsewhere), and maps, the runtime's concurrent map fatal errors.
type tally struct{ races, nondets, planted, maps int }

func count(reps []report, file string) tally {
	var t tally
	for _, r := range reps {
		switch r.class {
		case "DATA RACE":
			t.races++
			if file != "" && strings.Contains(r.text, file) {
				t.planted++
			}
		case "NONDETERMINISM":
			t.nondets++
		case mapFatal:
			t.maps++
		}
	}
	return t
}

// failure is the reason a run went wrong, "" when it ran: a build failure
// (with the first compiler error), a crash, a timeout. A run that exits 0
// did not go wrong; nor does a failing test: the race detector and
// goanomaly fail the test they find a race in.
func failure(r result) string {
	switch {
	case r.timedOut:
		return "timed out: " + r.cmd
	case r.code == 0:
		return ""
	case r.code == -1:
		return "did not run: " + r.cmd
	}
	if m := buildFailed.Find(r.out); m != nil {
		msg := strings.TrimSpace(string(m))
		for _, e := range compileError.FindAll(r.out, -1) {
			if !bytes.Contains(e, []byte(": goanomaly: ")) {
				return msg + ": " + strings.TrimSpace(string(e))
			}
		}
		return msg
	}
	for _, m := range crash.FindAll(r.out, -1) {
		if !bytes.Contains(m, []byte("concurrent map")) && !bytes.HasPrefix(m, []byte("goanomaly: found")) {
			return strings.TrimSpace(string(m))
		}
	}
	return ""
}

var (
	buildFailed  = regexp.MustCompile(`(?m)^.*\[(build|setup) failed\]\s*$`)
	compileError = regexp.MustCompile(`(?m)^\S+\.go:\d+(:\d+)?: .*$`)
	// a panic, the runtime's fatal errors (but a concurrent map write is
	// the race itself, counted by parseReports), goanomaly's own errors
	// (but not its closing count of reports)
	crash = regexp.MustCompile(`(?m)^(panic|fatal error|goanomaly): .*$`)
)

// failedTests lists the tests go test -v marked as failed.
func failedTests(out []byte) []string {
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`).FindAllSubmatch(out, -1) {
		names = append(names, string(m[1]))
	}
	return names
}

// notes returns goanomaly's notes on what it left unchecked, one per
// distinct message with the first position that has it ("slice.go:16:11:
// call through a function value: the callee runs unchecked").
func notes(out []byte) []string {
	seen := map[string]bool{}
	var ns []string
	for _, m := range notePattern.FindAllSubmatch(out, -1) {
		msg := strings.TrimSuffix(string(m[2]), " — not checked")
		if !seen[msg] {
			seen[msg] = true
			ns = append(ns, string(m[1])+": "+msg)
		}
	}
	return ns
}

var notePattern = regexp.MustCompile(`(?m)^(?:.*[/\\])?([^/\\\s:]+\.go:\d+:\d+): goanomaly: (.*(?:not checked|unstructured).*?)\r?$`)

// goEnv is go env name, "" when the go command cannot say.
func goEnv(name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
