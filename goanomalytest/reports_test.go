package goanomalytest

import (
	"strings"
	"testing"
)

// racyOut is what "goanomaly run ." printed, stdout and stderr, for a
// parallel loop whose iteration i writes a[i+1] and reads a[i] (line 17),
// and sets last under a mutex (line 19), in a module at /ws: the one race
// reported in both orders by different iterations, the lock-ordered write
// as NONDETERMINISM, and the summary.
const racyOut = `9 true
{"kind":"WRITE-READ","class":"DATA RACE","sink":{"pos":"/ws/main.go:17:13","what":"a[i]","block":"iteration 1 of parallel loop at /ws/main.go:13:2"},"source":{"pos":"/ws/main.go:17:4","what":"a[i + 1]","block":"iteration 0 of parallel loop at /ws/main.go:13:2"},"construct":"parallel loop at /ws/main.go:13:2"}
{"kind":"WRITE-WRITE","class":"NONDETERMINISM","sink":{"pos":"/ws/main.go:19:4","what":"last","block":"iteration 7 of parallel loop at /ws/main.go:13:2"},"source":{"pos":"/ws/main.go:19:4","what":"last","block":"iteration 0 of parallel loop at /ws/main.go:13:2"},"construct":"parallel loop at /ws/main.go:13:2"}
{"kind":"READ-WRITE","class":"DATA RACE","sink":{"pos":"/ws/main.go:17:4","what":"a[i + 1]","block":"iteration 6 of parallel loop at /ws/main.go:13:2"},"source":{"pos":"/ws/main.go:17:13","what":"a[i]","block":"iteration 7 of parallel loop at /ws/main.go:13:2"},"construct":"parallel loop at /ws/main.go:13:2"}
{"summary":{"blocks":19,"by_kind":{"READ-WRITE":1,"WRITE-READ":1,"WRITE-WRITE":1},"checks":32,"constructs":1,"data_races":2,"exhausted_trees":0,"nondeterminism":1,"reports":[],"trees":1,"untracked":0}}
`

// testJSONOut is a report as go test -json shows it, in an output event.
const testJSONOut = `{"Time":"2026-11-26T17:00:00Z","Action":"start","Package":"example.com/m/lock"}
{"Time":"2026-11-26T17:00:01Z","Action":"output","Package":"example.com/m/lock","Output":"{\"kind\":\"WRITE-WRITE\",\"class\":\"NONDETERMINISM\",\"sink\":{\"pos\":\"/ws/lock/lock.go:17:4\",\"what\":\"last\",\"block\":\"b\"},\"source\":{\"pos\":\"/ws/lock/lock.go:17:4\",\"what\":\"last\",\"block\":\"b\"},\"construct\":\"c\"}\n"}
`

func TestParseOutput(t *testing.T) {
	out, err := parseOutput([]byte(racyOut))
	if err != nil || !out.seen {
		t.Fatalf("parseOutput: %+v, %v", out, err)
	}
	var got []string
	for _, c := range out.conflicts {
		got = append(got, c.class+": "+c.format("/ws"))
	}
	want := []string{
		"DATA RACE: write of a[i + 1] at main.go:17:4 and read of a[i] at main.go:17:13", // both orders, once
		"NONDETERMINISM: write of last at main.go:19:4 and write of last at main.go:19:4",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("conflicts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	out, err = parseOutput([]byte(testJSONOut))
	if err != nil || len(out.conflicts) != 1 || out.conflicts[0].a.pos != "/ws/lock/lock.go:17:4" {
		t.Errorf("go test -json output: %+v, %v", out, err)
	}

	// A report after output the program left without a newline.
	out, err = parseOutput([]byte("progress: 3/4" + strings.TrimPrefix(racyOut, "9 true\n")))
	if err != nil || len(out.conflicts) != 2 {
		t.Errorf("a report after the program's unended line: %+v, %v", out, err)
	}

	if _, err := parseOutput([]byte(racyOut[:300])); err == nil || !strings.Contains(err.Error(), "cannot read goanomaly's report") {
		t.Errorf("a cut report: %v, want an error", err)
	}
}

// TestCheck runs the assertions over racyOut. A failure says what was
// expected and what was reported, with positions relative to $WORK.
func TestCheck(t *testing.T) {
	out, err := parseOutput([]byte(racyOut))
	if err != nil {
		t.Fatal(err)
	}
	const race = "\n\twrite of a[i + 1] at main.go:17:4 and read of a[i] at main.go:17:13"
	tests := []struct {
		class string
		neg   bool
		args  string
		work  string
		err   string // "" for success
	}{
		{dataRace, false, "1", "/ws", ""},
		{dataRace, true, "0", "/ws", ""},
		{dataRace, false, "0", "/ws", "reported 1 data race, want 0:" + race},
		{dataRace, true, "1", "/ws", "reported 1 data race, want any other number:" + race},
		{nondet, false, "1", "/ws", ""},
		{nondet, false, "0", "/ws", "reported 1 nondeterminism report, want 0:\n\twrite of last at main.go:19:4 and write of last at main.go:19:4"},

		// Either order of the sites, with the kind in the same order.
		{dataRace, false, "main.go:17 main.go:17 WRITE-READ", "/ws", ""},
		{dataRace, false, "main.go:17:4 main.go:17:13 WRITE-READ", "/ws", ""},
		{dataRace, false, "main.go:17:13 main.go:17:4 READ-WRITE", "/ws", ""},
		{dataRace, false, "main.go:17:13 main.go:17:4 WRITE-READ", "/ws",
			"no data race between a write at main.go:17:13 and a read at main.go:17:4; reported 1 data race:" + race},
		{dataRace, false, "main.go:17 main.go:17 WRITE-WRITE", "/ws",
			"no data race between a write at main.go:17 and a write at main.go:17; reported 1 data race:" + race},
		{dataRace, true, "main.go:17 main.go:17 WRITE-WRITE", "/ws", ""},
		{dataRace, true, "main.go:17 main.go:17 READ-WRITE", "/ws",
			"unexpected data race between a read at main.go:17 and a write at main.go:17: reported write of a[i + 1] at main.go:17:4 and read of a[i] at main.go:17:13"},
		{dataRace, false, "main.go:19 main.go:19 WRITE-WRITE", "/ws",
			"no data race between a write at main.go:19 and a write at main.go:19; reported 1 data race:" + race},
		{nondet, false, "main.go:19 main.go:19 WRITE-WRITE", "/ws", ""},

		// A file is its base name or its path relative to $WORK.
		{dataRace, false, "ws/main.go:17 main.go:17 WRITE-READ", "/", ""},
		{dataRace, false, "x/main.go:17 main.go:17 WRITE-READ", "/",
			"no data race between a write at x/main.go:17 and a read at main.go:17; reported 1 data race:\n\twrite of a[i + 1] at ws/main.go:17:4 and read of a[i] at ws/main.go:17:13"},

		// Usage.
		{dataRace, false, "x", "/ws", `"x": want a count`},
		{dataRace, false, "main.go:17 main.go:17 write-read", "/ws", `"write-read": want WRITE-WRITE, WRITE-READ or READ-WRITE`},
		{dataRace, false, "main.go main.go:17 WRITE-READ", "/ws", `"main.go": want file:line or file:line:col`},
	}
	for _, tt := range tests {
		err := check(out, tt.class, strings.Fields(tt.args), tt.neg, tt.work)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.err {
			t.Errorf("check(%s, neg=%v, %s):\n got %q\nwant %q", tt.class, tt.neg, tt.args, got, tt.err)
		}
	}
}

// TestCheckNoOutput: with no goanomaly JSON in the output (a plain run, or
// text reports), every assertion fails, negated or not: "races 0" must not
// pass on a run that was not checked.
func TestCheckNoOutput(t *testing.T) {
	out, err := parseOutput([]byte("9 true\nWARNING: DATA RACE (WRITE-READ)\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, neg := range []bool{false, true} {
		err := check(out, dataRace, []string{"0"}, neg, "/ws")
		if err == nil || !strings.Contains(err.Error(), "printed no goanomaly JSON report or summary") {
			t.Errorf("neg=%v: %v, want an error", neg, err)
		}
	}
}

func TestSplitPos(t *testing.T) {
	tests := []struct {
		pos       string
		file      string
		line, col int
	}{
		{"/ws/main.go:17:4", "/ws/main.go", 17, 4},
		{"main.go:17", "main.go", 17, 0},
		{`C:\ws\main.go:3:9`, `C:\ws\main.go`, 3, 9},
		{"main.go", "main.go", 0, 0},
	}
	for _, tt := range tests {
		file, line, col := splitPos(tt.pos)
		if file != tt.file || line != tt.line || col != tt.col {
			t.Errorf("splitPos(%q) = %q, %d, %d, want %q, %d, %d", tt.pos, file, line, col, tt.file, tt.line, tt.col)
		}
	}
}
