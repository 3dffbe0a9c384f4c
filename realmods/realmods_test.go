package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// goanomalyOut is a goanomaly test -v run of a planted test: a note from
// the build, the planted race, a race elsewhere, and the closing count.
const goanomalyOut = `/tmp/x/parallel/slice.go:16:11: goanomaly: call through a function value: the callee runs unchecked — not checked
/tmp/x/parallel/slice.go:38:4: goanomaly: call through a function value: the callee runs unchecked — not checked
=== RUN   TestRealmodsCounter
==================
WARNING: DATA RACE (WRITE-WRITE)
Write of n at /tmp/x/parallel/realmods_test.go:27:3 by iteration 3 of parallel loop at /tmp/x/parallel/slice.go:14:2
Previous write of n at /tmp/x/parallel/realmods_test.go:27:3 by iteration 1 of parallel loop at /tmp/x/parallel/slice.go:14:2
==================
==================
WARNING: NONDETERMINISM (READ-WRITE)
Read of m at /tmp/x/parallel/other.go:3:3 by iteration 0 of parallel loop at /tmp/x/parallel/slice.go:14:2
Previous write of m at /tmp/x/parallel/other.go:4:3 by iteration 1 of parallel loop at /tmp/x/parallel/slice.go:14:2
==================
==================
WARNING: DATA RACE (WRITE-READ)
Read of k at /tmp/x/parallel/slice.go:20:3 by iteration 0 of parallel loop at /tmp/x/parallel/slice.go:14:2
Previous write of k at /tmp/x/parallel/slice.go:21:3 by iteration 1 of parallel loop at /tmp/x/parallel/slice.go:14:2
==================
--- PASS: TestRealmodsCounter (0.00s)
PASS
goanomaly: found 2 data race(s), 1 nondeterminism report(s)
FAIL	github.com/samber/lo/parallel	0.002s
`

// raceOut is go test -race's report of the same race.
const raceOut = `=== RUN   TestRealmodsCounter
==================
WARNING: DATA RACE
Read at 0x00c000012345 by goroutine 8:
  github.com/samber/lo/parallel_test.TestRealmodsCounter.func1()
      /tmp/x/parallel/realmods_test.go:27 +0x2e
Previous write at 0x00c000012345 by goroutine 7:
==================
    testing.go:1712: race detected during execution of test
--- FAIL: TestRealmodsCounter (0.00s)
FAIL
`

func TestParseReports(t *testing.T) {
	got := count(parseReports([]byte(goanomalyOut)), plantedFile)
	if want := (tally{races: 2, nondets: 1, planted: 1}); got != want {
		t.Errorf("goanomaly output: %+v, want %+v", got, want)
	}
	got = count(parseReports([]byte(raceOut)), plantedFile)
	if want := (tally{races: 1, planted: 1}); got != want {
		t.Errorf("-race output: %+v, want %+v", got, want)
	}
	got = count(parseReports([]byte("fatal error: concurrent map writes\n")), plantedFile)
	if want := (tally{maps: 1}); got != want {
		t.Errorf("concurrent map writes: %+v, want %+v", got, want)
	}
}

func TestNotes(t *testing.T) {
	got := notes([]byte(goanomalyOut))
	if len(got) != 1 || got[0] != "slice.go:16:11: call through a function value: the callee runs unchecked" {
		t.Errorf("notes: %q", got)
	}
}

func TestFailure(t *testing.T) {
	for _, c := range []struct {
		r    result
		want string
	}{
		{result{code: 0, out: []byte("panic: in a test that recovers\nok\n")}, ""},
		{result{code: 1, out: []byte(goanomalyOut)}, ""},
		{result{code: 1, out: []byte(raceOut)}, ""},
		{result{code: 1, out: []byte("fatal error: concurrent map writes\n")}, ""},
		{result{code: 1, out: []byte("# example.com/m\n/tmp/x/a.go:3:2: goanomaly: a note — not checked\n/tmp/x/a.go:9:1: undefined: min\nFAIL\texample.com/m [build failed]\n")},
			"FAIL\texample.com/m [build failed]: /tmp/x/a.go:9:1: undefined: min"},
		{result{code: 2, out: []byte("=== RUN   TestA\npanic: runtime error: index out of range\n")}, "panic: runtime error: index out of range"},
		{result{code: -1, cmd: "go test", timedOut: true}, "timed out: go test"},
	} {
		if got := failure(c.r); got != c.want {
			t.Errorf("failure(%q) = %q, want %q", c.r.out, got, c.want)
		}
	}
	if got := failedTests([]byte("--- FAIL: TestA (0.00s)\n    --- FAIL: TestA/sub (0.00s)\n--- PASS: TestB\n")); strings.Join(got, ",") != "TestA,TestA/sub" {
		t.Errorf("failedTests: %q", got)
	}
}

func TestTable(t *testing.T) {
	tb := &table{runs: 3, rows: []row{
		{module: "lo@v1.53.0", label: "pristine", kind: pristineRow, runs: 1, pass: "pass / pass", dur: time.Second},
		{module: "lo@v1.53.0", label: "parallel.Map counter", kind: racyRow, runs: 3, hits: 3, race: "found"},
		{module: "lo@v1.53.0", label: "parallel.Map map", kind: racyRow, runs: 3, hits: 1, race: "found", notes: []string{"a | b"}},
		{module: "lo@v1.53.0", label: "parallel.Map clean", kind: cleanRow, runs: 3, hits: 0, race: "silent"},
		{module: "bild@v0.14.0", label: "download", kind: errorRow, notes: []string{"proxy"}},
	}}
	md := tb.markdown()
	for _, want := range []string{
		"| module | case | goanomaly found | -race found | clean silent | pristine pass (goanomaly / go test) | time | notes |",
		"| lo@v1.53.0 | pristine | - | - | - | pass / pass, no race | 1s |  |",
		"| lo@v1.53.0 | parallel.Map counter | 3/3 | found | - | - | 0s |  |",
		`| lo@v1.53.0 | parallel.Map map | 1/3 | found | - | - | 0s | a \| b |`,
		"| lo@v1.53.0 | parallel.Map clean | - | silent | 3/3 | - | 0s |  |",
		"| bild@v0.14.0 | download | ERROR | - | - | - | 0s | proxy |",
		"planted races found by goanomaly on all 3 runs: 1 of 2 (on at least one: 2); by go test -race: 2 of 2",
		"clean variants silent on every run: 1 of 1; pristine modules passing under goanomaly with no data race: 1 of 1",
		"modules that could not be prepared: 1",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if n := tb.errors(); n != 1 {
		t.Errorf("errors = %d, want 1", n)
	}
	if n := tb.falseReports(); n != 0 {
		t.Errorf("falseReports = %d, want 0", n)
	}
	tb.rows[3].hits = 1
	if n := tb.falseReports(); n != 1 {
		t.Errorf("falseReports = %d after a clean variant reported, want 1", n)
	}
}

// TestPlantedFiles checks that every case names a test that its module's
// testdata defines, in the package directory the case runs, and that every
// planted test is some case's: a renamed test would otherwise be measured
// as "did not run" only on the network run.
func TestPlantedFiles(t *testing.T) {
	defined := map[string]bool{} // "module pkg Test"
	for _, m := range modules {
		files, _ := filepath.Glob(filepath.Join("testdata", m.name, "*", "*", plantedFile))
		more, _ := filepath.Glob(filepath.Join("testdata", m.name, "*", plantedFile))
		files = append(append(files, more...), filepath.Join("testdata", m.name, plantedFile))
		for _, f := range files {
			src, err := os.ReadFile(f)
			if os.IsNotExist(err) {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), f, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			pkg, _ := filepath.Rel(filepath.Join("testdata", m.name), filepath.Dir(f))
			for _, d := range file.Decls {
				if name := declName(d); strings.HasPrefix(name, "TestRealmods") {
					defined[m.name+" ./"+filepath.ToSlash(pkg)+" "+name] = true
				}
			}
		}
		for _, c := range m.cases {
			key := m.name + " ./" + strings.TrimPrefix(c.pkg, "./") + " " + c.test
			if !defined[key] {
				t.Errorf("%s: case %q runs %s in %s, which testdata does not define", m.name, c.label, c.test, c.pkg)
			}
			delete(defined, key)
		}
	}
	for k := range defined {
		t.Errorf("planted test %s is no module's case", k)
	}
	for _, f := range []string{"go.mod", "go.sum", "main.go", "clean/main.go"} {
		if _, err := os.Stat(filepath.Join("testdata", userModule.name, f)); err != nil {
			t.Error(err)
		}
	}
}

// declName is the name of a function declaration, "" for anything else.
func declName(d ast.Decl) string {
	if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
		return fd.Name.Name
	}
	return ""
}
