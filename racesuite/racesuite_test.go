package main

import (
	"testing"
)

func TestParseNotes(t *testing.T) {
	out := []byte(`# racetest
/tmp/racesuite-1/mop_test.go:12:3: goanomaly: go statement with a channel between children: unstructured construct — not checked
mop_test.go:40:2: goanomaly: instrument write a[idx[i]]
other.go:1:1: goanomaly: something — not checked
chan_test.go:7:9: goanomaly: worker pool — not checked
`)
	got := parseNotes(out, []string{"mop_test.go", "chan_test.go"})
	want := []note{
		{"mop_test.go", 12, 3, "go statement with a channel between children: unstructured construct — not checked"},
		{"chan_test.go", 7, 9, "worker pool — not checked"},
	}
	if len(got) != len(want) {
		t.Fatalf("parseNotes: got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("note %d: got %v, want %v", i, got[i], want[i])
		}
	}
	merged := mergeNotes(got, []note{{"mop_test.go", 12, 3, "again"}, {"mop_test.go", 13, 1, "new — not checked"}})
	if len(merged) != 3 {
		t.Errorf("mergeNotes: got %d notes, want 3: %v", len(merged), merged)
	}
}

func TestCountReports(t *testing.T) {
	out := []byte(`=== RUN   TestRaceX
{"kind":"WRITE-WRITE","class":"DATA RACE","sink":{"pos":"a.go:1:1"}}
{"kind":"READ-WRITE","class":"NONDETERMINISM","sink":{"pos":"a.go:2:1"}}
==================
WARNING: DATA RACE
Read at 0x00c0000182b8 by goroutine 9:
==================
--- PASS: TestRaceX (0.00s)
{"summary":{"data_races":1,"nondeterminism":1}}
`)
	oc := countReports(out)
	if oc.races != 2 || oc.nondets != 1 {
		t.Errorf("countReports: got %d races, %d nondet; want 2, 1", oc.races, oc.nondets)
	}
}

func TestTestStatus(t *testing.T) {
	for _, c := range []struct{ out, want string }{
		{"=== RUN   TestA\n--- SKIP: TestA (0.00s)\n", "skip"},
		{"=== RUN   TestA\n--- FAIL: TestA (0.00s)\n", "fail"},
		{"=== RUN   TestA\n--- PASS: TestAB (0.00s)\nfatal error: concurrent map writes\n", "crash"},
		{"=== RUN   TestA\npanic: test timed out after 1m0s\n", "timeout"},
	} {
		if got, _ := testStatus("TestA", []byte(c.out), nil, false); got != c.want {
			t.Errorf("testStatus(%q) = %s, want %s", c.out, got, c.want)
		}
	}
}

const suiteSrc = `package race_test

import "testing"

func helper() {
	go func() {}() // line 6
}

func indirect() { helper() }

func TestRaceA(t *testing.T) {
	indirect()
}

func TestNoRaceB(t *testing.T) {
	go func() {}() // line 16
}

func TestOther(t *testing.T) {}

func (x T) TestRaceMethod(t *testing.T) {}
`

func TestAttribute(t *testing.T) {
	s := &scratch{funcs: map[string]*funcDecl{}}
	if err := s.parse("a_test.go", []byte(suiteSrc)); err != nil {
		t.Fatal(err)
	}
	if len(s.tests) != 2 || s.tests[0].name != "TestRaceA" || !s.tests[0].race || s.tests[1].name != "TestNoRaceB" || s.tests[1].race {
		t.Fatalf("tests: got %+v", s.tests)
	}
	s.attribute([]note{{"a_test.go", 6, 2, "in helper"}, {"a_test.go", 16, 2, "in B"}, {"b_test.go", 6, 2, "other file"}})
	if n := s.tests[0].notes; len(n) != 1 || n[0] != "a_test.go:6:2: in helper" {
		t.Errorf("TestRaceA notes: %q", n)
	}
	if n := s.tests[1].notes; len(n) != 1 || n[0] != "a_test.go:16:2: in B" {
		t.Errorf("TestNoRaceB notes: %q", n)
	}
}

func TestLangVersion(t *testing.T) {
	for in, want := range map[string]string{"go1.26.8": "1.26", "go1.27rc1": "1.27", "devel +abc": "1.26"} {
		if got := langVersion(in); got != want {
			t.Errorf("langVersion(%q) = %q, want %q", in, got, want)
		}
	}
}
