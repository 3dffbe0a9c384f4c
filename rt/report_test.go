package rt

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"unsafe"
)

// racyLoop runs a 4-iteration loop in which every iteration writes a[0].
func racyLoop(e *testEnv, a *int64) {
	e.parallel(4, siteLoop, func(i int, t *Task) {
		t.Write(uintptr(unsafe.Pointer(a)), siteA)
	})
}

func TestReportText(t *testing.T) {
	registerTestSites()
	e := newEnv(t, "")
	var a int64
	racyLoop(e, &a)
	re := regexp.MustCompile(`^==================
WARNING: DATA RACE \(WRITE-WRITE\)
Write of a\[idx\[i\]\] at /abs/path/main.go:23:5 by iteration \d of parallel loop at /abs/path/main.go:18:2
(  \S+\(\)
      \S+:\d+
)+Previous write of a\[idx\[i\]\] at /abs/path/main.go:23:5 by iteration \d of parallel loop at /abs/path/main.go:18:2
==================
$`)
	if out := e.out.String(); !re.MatchString(out) {
		t.Fatalf("report text:\n%s", out)
	}
	e.out.Reset()
	if code := e.rep.finish(0); code != 66 {
		t.Errorf("exit status %d, want 66", code)
	}
	want := regexp.MustCompile(`^goanomaly: found 1 data race\(s\), 0 nondeterminism report\(s\)
  x[23] DATA RACE \(WRITE-WRITE\) main.go:23:5 <- main.go:23:5
$`)
	if out := e.out.String(); !want.MatchString(out) {
		t.Fatalf("closing lines:\n%s", out)
	}
}

// withoutStacks drops the stack lines of text reports (indented by two
// or six spaces; stack.go), which name this package's test functions.
func withoutStacks(out string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(out, "\n") {
		if !strings.HasPrefix(line, "  ") {
			b.WriteString(line)
		}
	}
	return b.String()
}

func TestReportBlocks(t *testing.T) {
	registerTestSites()
	e := newEnv(t, "")
	var x int64
	a := uintptr(unsafe.Pointer(&x))
	c := e.enter(2, siteSections)
	p := c.Task()
	c.Fork(-1).Write(a, siteX)
	p.Read(a, siteX)
	c.Fork(7)
	c.Join()
	want := "Read of x at /abs/path/main.go:31:3 by the parent of parallel sections at /abs/path/main.go:30:2\n" +
		"Previous write of x at /abs/path/main.go:31:3 by section 0 of parallel sections at /abs/path/main.go:30:2\n"
	if !strings.Contains(withoutStacks(e.out.String()), want) {
		t.Fatalf("got\n%s\nwant\n%s", e.out.String(), want)
	}
	e.out.Reset()
	c = e.enter(-1, sitePool)
	w := c.Fork(-1)
	w.Item()
	w.Write(a, siteX)
	w.EndItems()
	w.Read(a, siteA)
	c.Join()
	if !strings.Contains(withoutStacks(e.out.String()), "Read of a[idx[i]] at /abs/path/main.go:23:5 by the worker of worker pool at /abs/path/main.go:40:2\n"+
		"Previous write of x at /abs/path/main.go:31:3 by work item of worker pool") {
		t.Fatalf("pool report:\n%s", e.out.String())
	}
}

func TestReportNondeterminism(t *testing.T) {
	registerTestSites()
	e := newEnv(t, "")
	var mu, sum int64
	e.parallel(3, siteLoop, func(i int, t *Task) {
		t.Lock(uintptr(unsafe.Pointer(&mu)))
		t.Read(uintptr(unsafe.Pointer(&sum)), siteA)
		t.Write(uintptr(unsafe.Pointer(&sum)), siteA)
		t.Unlock(uintptr(unsafe.Pointer(&mu)))
	})
	if !strings.Contains(e.out.String(), "WARNING: NONDETERMINISM (") || strings.Contains(e.out.String(), "DATA RACE") {
		t.Fatalf("want only NONDETERMINISM:\n%s", e.out.String())
	}
	if code := e.rep.finish(0); code != 0 {
		t.Errorf("NONDETERMINISM without nondet=error: exit %d", code)
	}
	e2 := newEnv(t, "nondet=error exitcode=3")
	e2.parallel(2, siteLoop, func(i int, t *Task) {
		t.Lock(uintptr(unsafe.Pointer(&mu)))
		t.Write(uintptr(unsafe.Pointer(&sum)), siteA)
		t.Unlock(uintptr(unsafe.Pointer(&mu)))
	})
	if code := e2.rep.finish(0); code != 3 {
		t.Errorf("nondet=error exitcode=3: exit %d", code)
	}
	if code := e2.rep.finish(5); code != 5 {
		t.Errorf("Fini(5): exit %d", code)
	}
}

func TestOrderedOKMasksNondeterminismOnly(t *testing.T) {
	registerTestSites()
	e := newEnv(t, "")
	var mu, sum int64
	body := func(locked bool) func(int, *Task) {
		return func(i int, t *Task) {
			if locked {
				t.Lock(uintptr(unsafe.Pointer(&mu)))
			}
			t.Write(uintptr(unsafe.Pointer(&sum)), siteSum)
			if locked {
				t.Unlock(uintptr(unsafe.Pointer(&mu)))
			}
		}
	}
	e.parallel(2, siteLoop, body(true))
	if e.out.Len() != 0 {
		t.Fatalf("ordered-ok NONDETERMINISM printed:\n%s", e.out.String())
	}
	e.parallel(2, siteLoop, body(false))
	if !strings.Contains(e.out.String(), "DATA RACE") {
		t.Fatalf("ordered-ok must not mask a DATA RACE:\n%s", e.out.String())
	}
}

func TestAtomics(t *testing.T) {
	for _, opts := range []string{"", "atomics=1"} {
		e := newEnv(t, opts)
		var n int64
		a := uintptr(unsafe.Pointer(&n))
		e.parallel(3, siteLoop, func(i int, t *Task) { t.AtomicWrite(a, siteA); t.AtomicRead(a, siteA) })
		var races, nondets int
		for _, r := range e.reports() {
			if r.class == dataRace {
				races++
			} else {
				nondets++
			}
		}
		if races != 0 || (opts == "") != (nondets == 0) {
			t.Errorf("%q: %d data races, %d nondeterminism", opts, races, nondets)
		}
		e.parallel(2, siteLoop, func(i int, t *Task) {
			if i == 0 {
				t.AtomicWrite(a, siteA)
			} else {
				t.Read(a, siteA)
			}
		})
		if r := e.reports(); len(r) == 0 || r[len(r)-1].class != dataRace {
			t.Errorf("%q: atomic vs plain is not a DATA RACE: %v", opts, r)
		}
	}
}

func TestReportJSON(t *testing.T) {
	registerTestSites()
	e := newEnv(t, "format=json summary=1")
	var a int64
	racyLoop(e, &a)
	e.rep.finish(0)
	lines := strings.Split(strings.TrimSpace(e.out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want a report and a summary line, got:\n%s", e.out.String())
	}
	var r struct {
		Kind, Class, Construct string
		Sink, Source           struct{ Pos, What, Block string }
	}
	if err := json.Unmarshal([]byte(lines[0]), &r); err != nil {
		t.Fatal(err)
	}
	if r.Kind != "WRITE-WRITE" || r.Class != "DATA RACE" || r.Sink.Pos != "/abs/path/main.go:23:5" ||
		r.Sink.What != "a[idx[i]]" || !strings.HasPrefix(r.Source.Block, "iteration ") ||
		r.Construct != "parallel loop at /abs/path/main.go:18:2" {
		t.Errorf("report: %+v", r)
	}
	var s struct{ Summary map[string]any }
	if err := json.Unmarshal([]byte(lines[1]), &s); err != nil || s.Summary["data_races"] != 1.0 {
		t.Errorf("summary line %s: %v", lines[1], err)
	}
}

func TestSummaryAndHalt(t *testing.T) {
	e := newEnv(t, "summary=1 halt_on_error=1 exitcode=9")
	var a int64
	racyLoop(e, &a)
	if len(e.exit) == 0 || e.exit[0] != 9 {
		t.Fatalf("halt_on_error: exits %v", e.exit)
	}
	e.rep.finish(0)
	if !regexp.MustCompile(`goanomaly: summary: 1 tree\(s\), 1 construct\(s\), 11 block\(s\), 4 check\(s\); 1 data race`).MatchString(e.out.String()) {
		t.Fatalf("summary:\n%s", e.out.String())
	}
}

func TestLogPath(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t, "log_path="+dir+"/report")
	e.rep.out = nil // as in a program: opened on first use
	var a int64
	racyLoop(e, &a)
	b, err := os.ReadFile(dir + "/report." + itoa(os.Getpid()))
	if err != nil || !bytes.Contains(b, []byte("WARNING: DATA RACE")) {
		t.Fatalf("log file: %v\n%s", err, b)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestParseOptions(t *testing.T) {
	var warn bytes.Buffer
	c := parseOptions("log_path=/tmp/x halt_on_error=1 exitcode=7 format=json protocol=locked nondet=error atomics=1 summary=1 max_shadow=10 recent=9 bogus=1 exitcode=x recent=-1", &warn)
	want := config{logPath: "/tmp/x", halt: true, exitcode: 7, json: true, locked: true, nondetErr: true, atomics: true, summary: true, maxCells: 10, check: -1, sample: -1, recent: 9}
	if c != want {
		t.Errorf("got %+v\nwant %+v", c, want)
	}
	if w := warn.String(); !strings.Contains(w, `unknown option "bogus"`) || !strings.Contains(w, "exitcode=x") || !strings.Contains(w, "recent=-1") {
		t.Errorf("warnings: %s", w)
	}
	if c := parseOptions("", &warn); c.exitcode != 66 || c.json || c.locked || c.recent != recentMin {
		t.Errorf("defaults: %+v", c)
	}
}

func TestUnknownSite(t *testing.T) {
	e := newEnv(t, "")
	var a int64
	e.parallel(2, 500000, func(i int, t *Task) { t.Write(uintptr(unsafe.Pointer(&a)), 400000) })
	if !strings.Contains(e.out.String(), "Write of unknown site 400000 by iteration") ||
		!strings.Contains(e.out.String(), "of unknown site 500000") {
		t.Fatalf("got:\n%s", e.out.String())
	}
}

// TestReportOncePerPairEitherOrder: one write site and one read site in
// conflict are one report whichever access came first, and so are two
// write sites. The two orders here are met on two locations, one after the
// other; on one location, two checks that interleave each meet the other's
// access, and which report (or both) came out was the schedule's
// (slice_review_recover: "found 2 data race(s)", once in about 1,500 runs
// on 4 threads).
func TestReportOncePerPairEitherOrder(t *testing.T) {
	registerTestSites()
	for _, reader := range []bool{true, false} {
		e := newEnv(t, "")
		var x, y int64
		ax, ay := uintptr(unsafe.Pointer(&x)), uintptr(unsafe.Pointer(&y))
		c := e.enter(2, siteLoop)
		t0, t1 := c.Fork(0), c.Fork(1)
		second := func(a uintptr) {
			if reader {
				t1.Read(a, siteA)
			} else {
				t1.Write(a, siteA)
			}
		}
		t0.Write(ax, siteX) // x: the write of X first
		second(ax)
		second(ay) // y: the access at A first
		t0.Write(ay, siteX)
		c.Join()
		if n := len(e.reports()); n != 2 {
			t.Fatalf("reader %v: the checks found %d conflicts, want 2 (one per location)", reader, n)
		}
		if n := strings.Count(e.out.String(), "WARNING: DATA RACE"); n != 1 {
			t.Errorf("reader %v: %d reports, want 1:\n%s", reader, n, e.out.String())
		}
		e.out.Reset()
		e.rep.finish(0)
		if !strings.Contains(e.out.String(), "goanomaly: found 1 data race(s), 0 nondeterminism report(s)\n  x2 DATA RACE") {
			t.Errorf("reader %v: closing lines:\n%s", reader, e.out.String())
		}
	}
}
