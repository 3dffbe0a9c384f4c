package main

import (
	"math"
	"regexp"
	"strings"
	"testing"
)

// benchOut is a goanomaly-built test binary's output under -test.bench with
// GOANOMALY=summary=1: a note, results with and without -benchmem, a
// sub-benchmark, a line that only looks like one, and the summary.
const benchOut = `goos: linux
goarch: amd64
pkg: github.com/disintegration/imaging
cpu: Intel(R) Xeon(R) Processor
BenchmarkBlur-2      	       6	  38486208 ns/op	 2019922 B/op	      25 allocs/op
BenchmarkResize/Up_Linear_JPEG-2           	       1	3340088167 ns/op	168285552 B/op	   25140 allocs/op
BenchmarkForEach/0   	 7000000	       163.5 ns/op
BenchmarkPool/startup_and_teardown-16 	  200	      6887 ns/op	     216 B/op	       2 allocs/op
Benchmark results follow 12 ns/op
PASS
goanomaly: summary: 12 tree(s), 12 construct(s), 1612 block(s), 189143636 check(s); 0 data race(s), 0 nondeterminism; WRITE-WRITE 0, WRITE-READ 0, READ-WRITE 0; 0 address(es) untracked, 0 tree(s) out of tags
`

func TestParseBench(t *testing.T) {
	got := parseBench([]byte(benchOut))
	want := []benchLine{
		{"BenchmarkBlur", 38486208, 2019922},
		{"BenchmarkResize/Up_Linear_JPEG", 3340088167, 168285552},
		{"BenchmarkForEach/0", 163.5, -1},
		{"BenchmarkPool/startup_and_teardown", 6887, 216},
	}
	if len(got) != len(want) {
		t.Fatalf("parseBench: %d lines %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if n := parseChecks([]byte(benchOut)); n != 189143636 {
		t.Errorf("parseChecks = %d, want 189143636", n)
	}
	if n := parseChecks([]byte("PASS\n")); n != -1 {
		t.Errorf("parseChecks without a summary = %d, want -1", n)
	}
}

func TestMedian(t *testing.T) {
	if got := median([]float64{3, 1, 2}); got != 2 {
		t.Errorf("median of 3 = %v", got)
	}
	if got := median([]float64{4, 1, 3, 2}); got != 2 {
		t.Errorf("median of 4 = %v, want the lower middle", got)
	}
	if got := median(nil); !math.IsNaN(got) {
		t.Errorf("median of none = %v, want NaN", got)
	}
}

func TestBenchTable(t *testing.T) {
	blur := &benchStats{}
	blur.ns[plainBuild] = []float64{40e6, 38e6, 39e6}
	blur.ns[goanomalyBuild] = []float64{2e9, 1.9e9, 2.1e9}
	blur.ns[raceBuild] = []float64{390e6, 400e6, 410e6}
	blur.bytes[plainBuild] = []float64{2019922, 2019922, 2019922}
	blur.bytes[goanomalyBuild] = []float64{58080664, 58080664, 58080664}
	each := &benchStats{} // no -race build, no -benchmem
	each.ns[plainBuild] = []float64{100, 100, 100}
	each.ns[goanomalyBuild] = []float64{110, 120, 115}
	tb := &benchTable{
		header: []string{"load average (1, 5, 15 min) before: 7.71 8.10 6.51; after: 8.00 8.00 7.00"},
		results: []*benchResult{
			{module: "imaging@v1.6.2", set: benchSet{".", "^BenchmarkBlur$"}, names: []string{"BenchmarkBlur"},
				runs: map[string]*benchStats{"BenchmarkBlur": blur}, checks: []int64{191586836, -1}},
			{module: "conc@v0.3.0", set: benchSet{"./iter", "^BenchmarkForEach$"}, names: []string{"BenchmarkForEach/0"},
				runs: map[string]*benchStats{"BenchmarkForEach/0": each}, notes: []string{"race build failed: a | b"}},
			{module: "lo@v1.53.0", notes: []string{"no benchmark of its parallel code shipped"}},
		},
	}
	md := tb.markdown()
	for _, want := range []string{
		"load average (1, 5, 15 min) before: 7.71 8.10 6.51; after: 8.00 8.00 7.00\n\n",
		"| module | package | benchmark | plain ns/op | goanomaly ns/op | goanomaly/plain | race ns/op | race/plain | plain B/op | goanomaly B/op | race B/op |",
		"| --- | --- | --- | ---: |",
		"| imaging@v1.6.2 | . | Blur | 39000000 | 2000000000 | 51.28 | 400000000 | 10.26 | 2019922 | 58080664 | - |",
		"| conc@v0.3.0 | ./iter | ForEach/0 | 100 | 115 | 1.15 | - | - | - | - | - |",
		"| lo@v1.53.0 | - | - | - |",
		"geometric mean goanomaly/plain 7.68 over 2 benchmark(s), race/plain 10.26 over 1",
		"- imaging@v1.6.2 .: goanomaly checks per round: 191586836, no summary",
		"- conc@v0.3.0 ./iter: race build failed: a | b",
		"- lo@v1.53.0 -: no benchmark of its parallel code shipped",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	txt := tb.text()
	for _, want := range []string{
		"module          package  benchmark",
		"imaging@v1.6.2  .        Blur       ",
		"     51.28",
	} {
		if !strings.Contains(txt, want) {
			t.Errorf("text lacks %q:\n%s", want, txt)
		}
	}
}

func TestLibraryNotes(t *testing.T) {
	got := libraryNotes([]string{"pool.go:148:16: worker calls a function", "pool_test.go:1:2: a test's construct"})
	if len(got) != 1 || got[0] != "pool.go:148:16: worker calls a function" {
		t.Errorf("libraryNotes = %q", got)
	}
}

// TestBenchSets checks the benchmark sets' regexps compile as go test
// splits them (by "/", one per level) and name packages of the module's
// pristine list or its root, so a typo shows here and not only on the
// network run.
func TestBenchSets(t *testing.T) {
	for _, m := range modules {
		for _, s := range m.benches {
			if !strings.HasPrefix(s.pkg, ".") {
				t.Errorf("%s: package %q is not relative", m.name, s.pkg)
			}
			for _, part := range strings.Split(s.re, "/") {
				if _, err := regexp.Compile(part); err != nil {
					t.Errorf("%s %s: %v", m.name, s.pkg, err)
				}
				if !strings.HasPrefix(part, "^") || !strings.HasSuffix(part, "$") {
					t.Errorf("%s %s: -bench level %q is not anchored", m.name, s.pkg, part)
				}
			}
		}
	}
}

func TestShortNotes(t *testing.T) {
	ns := []string{"a", "b", "c", "d", "e", "f"}
	if got := strings.Join(shortNotes(ns, 4), "; "); got != "a; b; c; d; 2 more note(s)" {
		t.Errorf("shortNotes = %q", got)
	}
	if got := shortNotes(ns[:2], 4); len(got) != 2 {
		t.Errorf("shortNotes of 2 = %q", got)
	}
}
