package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// outcome is what one run of one test showed.
type outcome struct {
	races   int    // distinct DATA RACE reports
	nondets int    // distinct NONDETERMINISM reports
	status  string // pass, fail, skip, timeout, crash
	detail  string // for crash: the first panic or fatal error line
}

// result is a test's outcome under goanomaly and, with -race, under -race.
type result struct {
	checked outcome
	race    *outcome
}

// runAll runs each test in its own process, o.jobs at a time.
func runAll(o *options, b *binaries, tests []*testFunc) []result {
	results := make([]result, len(tests))
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(o.jobs, 1) {
		wg.Go(func() {
			for i := range work {
				results[i] = runOne(o, b, tests[i].name)
			}
		})
	}
	for i := range tests {
		work <- i
	}
	close(work)
	wg.Wait()
	return results
}

// runOne runs test name under goanomaly and, with -race, under -race.
func runOne(o *options, b *binaries, name string) result {
	var r result
	r.checked = runTest(o, b.checked, name, checkedEnv())
	if b.race != "" {
		out := runTest(o, b.race, name, raceEnv())
		r.race = &out
	}
	return r
}

// checkedEnv is the environment of a goanomaly-checked test: reports as JSON
// lines on stderr, in the same stream as the test's -test.v output.
func checkedEnv() []string {
	return append(environ("GOANOMALY", "GORACE"), "GOANOMALY=format=json")
}

// raceEnv is the environment of a -race test, as the Go tree's harness
// (runtime/race/race_test.go) sets it.
func raceEnv() []string {
	return append(environ("GORACE", "GOMAXPROCS", "GODEBUG"),
		"GOMAXPROCS=1", "GORACE=suppress_equal_stacks=0 suppress_equal_addresses=0")
}

// environ returns the environment without the given variables.
func environ(drop ...string) []string {
	var env []string
next:
	for _, kv := range os.Environ() {
		for _, d := range drop {
			if strings.HasPrefix(kv, d+"=") {
				continue next
			}
		}
		env = append(env, kv)
	}
	return env
}

// runTest runs one test of binary (all tests of the package's init if name
// is "") and counts the reports printed after its "=== RUN" line: reports
// before it come from the package's initialization (regression_test.go has
// a race in a package-level variable's initializer) and belong to no test.
func runTest(o *options, binary, name string, env []string) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), o.timeout+o.timeout/2)
	defer cancel()
	pattern := "^$"
	if name != "" {
		pattern = "^" + regexp.QuoteMeta(name) + "$"
	}
	cmd := exec.CommandContext(ctx, binary, "-test.run", pattern, "-test.v", "-test.count=1", "-test.timeout="+o.timeout.String())
	cmd.Dir = filepath.Dir(binary)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out // one pipe: the order of reports and test lines is kept
	err := cmd.Run()
	if name == "" {
		return countReports(out.Bytes())
	}
	_, after, _ := bytes.Cut(out.Bytes(), []byte("=== RUN   "+name+"\n"))
	oc := countReports(after)
	oc.status, oc.detail = testStatus(name, out.Bytes(), err, ctx.Err() != nil)
	return oc
}

// countReports counts the reports in out: goanomaly's JSON lines
// ({"class": "DATA RACE", …}) and text reports of goanomaly or of the race
// detector ("WARNING: DATA RACE"). The runtime's own "fatal error:
// concurrent map …" counts as a race, as in the Go tree's harness.
func countReports(out []byte) outcome {
	var oc outcome
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "{"):
			var v struct {
				Class string `json:"class"`
			}
			if json.Unmarshal([]byte(line), &v) != nil {
				continue
			}
			switch v.Class {
			case "DATA RACE":
				oc.races++
			case "NONDETERMINISM":
				oc.nondets++
			}
		case strings.Contains(line, "WARNING: DATA RACE"), strings.HasPrefix(line, "fatal error: concurrent map"):
			oc.races++
		case strings.Contains(line, "WARNING: NONDETERMINISM"):
			oc.nondets++
		}
	}
	return oc
}

// testStatus reads the test's fate from its -test.v output.
func testStatus(name string, out []byte, err error, timedOut bool) (status, detail string) {
	if m := regexp.MustCompile(`(?m)^--- (PASS|FAIL|SKIP): ` + regexp.QuoteMeta(name) + ` `).FindSubmatch(out); m != nil {
		return strings.ToLower(string(m[1])), ""
	}
	if timedOut || bytes.Contains(out, []byte("panic: test timed out")) {
		return "timeout", ""
	}
	if m := regexp.MustCompile(`(?m)^(panic: .*|fatal error: .*)$`).Find(out); m != nil {
		detail = string(m)
	} else {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			detail = exit.String()
		} else if err != nil {
			detail = err.Error()
		}
	}
	return "crash", detail
}
