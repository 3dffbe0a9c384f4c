package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// table is the harness's result.
type table struct {
	rows []row
	runs int
}

var header = []string{"module", "case", "goanomaly found", "-race found", "clean silent", "pristine pass (goanomaly / go test)", "time", "notes"}

// cells are a row's columns; "-" where a column does not apply.
func (t *table) cells(r row) []string {
	found, silent, pass, race := "-", "-", "-", r.race
	if race == "" {
		race = "-"
	}
	switch r.kind {
	case racyRow:
		found = fmt.Sprintf("%d/%d", r.hits, r.runs)
	case cleanRow:
		silent = fmt.Sprintf("%d/%d", r.runs-r.hits, r.runs)
	case pristineRow:
		pass = r.pass
		if r.hits > 0 {
			pass += ", DATA RACE"
		} else {
			pass += ", no race"
		}
	case errorRow:
		found = "ERROR"
	}
	return []string{r.module, r.label, found, race, silent, pass, r.dur.Round(100 * time.Millisecond).String(), strings.Join(r.notes, "; ")}
}

// text writes the table aligned, then the summary.
func (t *table) text(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range t.rows {
		fmt.Fprintln(tw, strings.Join(t.cells(r), "\t"))
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintln(w, t.summary())
}

// markdown is the table as GitHub Markdown, then the summary.
func (t *table) markdown() string {
	var b strings.Builder
	line := func(cells []string) {
		for i, c := range cells {
			cells[i] = strings.ReplaceAll(strings.ReplaceAll(c, "|", `\|`), "\n", " ")
		}
		fmt.Fprintf(&b, "| %s |\n", strings.Join(cells, " | "))
	}
	line(append([]string(nil), header...))
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = "---"
	}
	line(sep)
	for _, r := range t.rows {
		line(t.cells(r))
	}
	b.WriteString("\n" + t.summary() + "\n")
	return b.String()
}

// summary counts what issue 10's acceptance asks: every planted race found
// on every run, every clean variant and pristine module silent, the
// pristine tests passing.
func (t *table) summary() string {
	var racy, all, anyRun, raceFound, raceRun, clean, cleanSilent, pristine, pristineOK, errs int
	for _, r := range t.rows {
		switch r.kind {
		case racyRow:
			racy++
			if r.hits == r.runs {
				all++
			}
			if r.hits > 0 {
				anyRun++
			}
			if r.race != "" {
				raceRun++
				if r.race == "found" {
					raceFound++
				}
			}
		case cleanRow:
			clean++
			if r.hits == 0 {
				cleanSilent++
			}
		case pristineRow:
			pristine++
			if r.hits == 0 && strings.HasPrefix(r.pass, "pass /") {
				pristineOK++
			}
		case errorRow:
			errs++
		}
	}
	s := fmt.Sprintf("planted races found by goanomaly on all %d runs: %d of %d (on at least one: %d); by go test -race: %d of %d\n", t.runs, all, racy, anyRun, raceFound, raceRun)
	s += fmt.Sprintf("clean variants silent on every run: %d of %d; pristine modules passing under goanomaly with no data race: %d of %d", cleanSilent, clean, pristineOK, pristine)
	if errs > 0 {
		s += fmt.Sprintf("\nmodules that could not be prepared: %d (see ERROR rows)", errs)
	}
	return s
}

// falseReports counts clean variants and pristine modules with a DATA RACE.
func (t *table) falseReports() int {
	n := 0
	for _, r := range t.rows {
		if (r.kind == cleanRow || r.kind == pristineRow) && r.hits > 0 {
			n++
		}
	}
	return n
}

// errors counts the modules that could not be prepared.
func (t *table) errors() int {
	n := 0
	for _, r := range t.rows {
		if r.kind == errorRow {
			n++
		}
	}
	return n
}
