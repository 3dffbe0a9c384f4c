package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// verdict is what a run showed about one test, most significant first.
type verdict int

const (
	reported   verdict = iota // a DATA RACE report
	nondetOnly                // only NONDETERMINISM reports
	missed                    // no report, the test ran
	skippedRun                // no report, the test called t.Skip
	crashed                   // no report, the test crashed or timed out
	nVerdicts
)

var verdictNames = [nVerdicts]string{"DATA RACE", "NONDET only", "no report", "t.Skip", "crashed"}

func verdictOf(oc outcome) verdict {
	switch {
	case oc.races > 0:
		return reported
	case oc.nondets > 0:
		return nondetOnly
	case oc.status == "skip":
		return skippedRun
	case oc.status == "crash", oc.status == "timeout":
		return crashed
	}
	return missed
}

// row counts the tests of one kind (TestRace* or TestNoRace*).
type row struct {
	total, noted int
	by           [nVerdicts]int
	notedMissed  int // no report and noted unstructured
}

// table is the classified suite.
type table struct {
	tests        []*testFunc
	results      []result
	checked      [2]row // [0]: TestRace*, [1]: TestNoRace*
	race         [2]row
	hasRace      bool
	initChecked  outcome  // reports before any test ran (package initialization)
	initRace     *outcome // the same under -race
	falseReports []string // TestNoRace* with a DATA RACE from goanomaly
	crashes      []string
}

// classify counts the results.
func classify(tests []*testFunc, results []result) *table {
	t := &table{tests: tests, results: results}
	for i, tf := range tests {
		k := 0
		if !tf.race {
			k = 1
		}
		r := results[i]
		v := verdictOf(r.checked)
		count(&t.checked[k], v, len(tf.notes) > 0)
		if v == reported && !tf.race {
			t.falseReports = append(t.falseReports, tf.name)
		}
		if r.checked.status == "crash" || r.checked.status == "timeout" {
			t.crashes = append(t.crashes, fmt.Sprintf("%s: %s %s", tf.name, r.checked.status, r.checked.detail))
		}
		if r.race != nil {
			t.hasRace = true
			count(&t.race[k], verdictOf(*r.race), false)
		}
	}
	return t
}

func count(r *row, v verdict, noted bool) {
	r.total++
	r.by[v]++
	if noted {
		r.noted++
		if v == missed {
			r.notedMissed++
		}
	}
}

// print writes the table, and with verbose one line per test.
func (t *table) print(w io.Writer, s *scratch, b *binaries, verbose bool) {
	fmt.Fprintf(w, "racesuite: %d tests from %d files of %s (%s)\n", len(t.tests), len(s.files), s.src, s.goVersion)
	fmt.Fprintf(w, "built with: %s\n", b.tool)
	for _, f := range sortedKeys(skipped) {
		fmt.Fprintf(w, "skipped %s: %s\n", f, skipped[f])
	}
	for _, a := range adaptations {
		if a.why != "" {
			fmt.Fprintf(w, "adapted %s: %s\n", a.file, a.why)
		}
	}
	fmt.Fprintf(w, "reports during package initialization (no test): goanomaly %d", t.initChecked.races)
	if t.initRace != nil {
		fmt.Fprintf(w, ", -race %d", t.initRace.races)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "goanomaly\ttests\t%s\tnoted unstructured\t\n", strings.Join(verdictNames[:], "\t"))
	printRows(tw, t.checked, true)
	if t.hasRace {
		fmt.Fprintf(tw, "go test -race\t\t\t\t\t\t\t\t\n")
		printRows(tw, t.race, false)
	}
	tw.Flush()
	fmt.Fprintln(w)

	rc, nc := t.checked[0], t.checked[1]
	ran := rc.total - rc.by[skippedRun] - rc.by[crashed]
	fmt.Fprintf(w, "TestRace*: goanomaly reported %d of %d that ran (%s); %d missed, %d of them noted unstructured\n",
		rc.by[reported], ran, percent(rc.by[reported], ran), rc.by[missed]+rc.by[nondetOnly], rc.notedMissed)
	if t.hasRace {
		rr := t.race[0]
		fmt.Fprintf(w, "TestRace*: go test -race reported %d of %d\n", rr.by[reported], rr.total-rr.by[skippedRun])
	}
	fmt.Fprintf(w, "TestNoRace*: goanomaly falsely reported %d of %d", len(t.falseReports), nc.total)
	if len(t.falseReports) > 0 {
		fmt.Fprintf(w, ": %s", strings.Join(t.falseReports, ", "))
	}
	fmt.Fprintln(w)
	for _, c := range t.crashes {
		fmt.Fprintf(w, "crashed: %s\n", c)
	}
	if verbose {
		fmt.Fprintln(w)
		t.printTests(w)
	}
}

func printRows(tw io.Writer, rows [2]row, notes bool) {
	for k, name := range []string{"TestRace*", "TestNoRace*"} {
		r := rows[k]
		fmt.Fprintf(tw, "%s\t%d", name, r.total)
		for _, n := range r.by {
			fmt.Fprintf(tw, "\t%d", n)
		}
		if notes {
			fmt.Fprintf(tw, "\t%d\t\n", r.noted)
		} else {
			fmt.Fprintf(tw, "\t-\t\n")
		}
	}
}

// printTests writes one line per test, and its notes.
func (t *table) printTests(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "test\tposition\tgoanomaly\tstatus\t")
	if t.hasRace {
		fmt.Fprintf(tw, "-race\t")
	}
	fmt.Fprintf(tw, "notes\n")
	cols := 5
	if t.hasRace {
		cols++
	}
	for i, tf := range t.tests {
		r := t.results[i]
		fmt.Fprintf(tw, "%s\t%s:%d\t%s\t%s\t", tf.name, tf.file, tf.start, describe(tf, r.checked), r.checked.status)
		if r.race != nil {
			fmt.Fprintf(tw, "%s\t", describe(tf, *r.race))
		}
		fmt.Fprintf(tw, "%d\n", len(tf.notes))
		for _, n := range tf.notes { // in the notes column, so the columns stay aligned
			fmt.Fprintf(tw, "%s%s\n", strings.Repeat("\t", cols-1), n)
		}
	}
	tw.Flush()
}

// describe says what an outcome means for the test: ok (reported a race
// where one is expected, or nothing where none is), FALSE report, missed.
func describe(tf *testFunc, oc outcome) string {
	v := verdictOf(oc)
	switch {
	case v == skippedRun || v == crashed:
		return verdictNames[v]
	case tf.race && v == reported:
		return fmt.Sprintf("ok (%d reports)", oc.races)
	case tf.race:
		return "missed"
	case v == reported:
		return fmt.Sprintf("FALSE (%d reports)", oc.races)
	case v == nondetOnly:
		return fmt.Sprintf("ok (%d nondet)", oc.nondets)
	}
	return "ok"
}

func percent(n, d int) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(d))
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
