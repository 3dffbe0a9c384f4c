package main

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// cell is the median of one build of one kernel.
type cell struct {
	wall    time.Duration // median of the completed runs; the limit if none completed
	rss     int64
	runs    int  // completed runs
	timeout bool // no run completed: wall is a lower bound
}

// row is one kernel, by build.
type row struct {
	kernel string
	cells  map[string]cell
	checks map[string]int64 // median checks of a goanomaly build; absent if it printed none
}

// table is the summary of all runs.
type table struct {
	variants   []string
	rounds     int
	rows       []row
	problems   []string // wrong output, failed runs, reports: exit status 1
	notes      []string // timeouts
	overBudget int      // runs not made (or cut short) because the -budget ran out
	failed     bool
}

// summarize takes medians per kernel and build and collects problems:
// failed runs, differing output, reports on these race-free kernels.
func summarize(kernels []string, variants []variant, runs []run, rounds int) *table {
	t := &table{rounds: rounds}
	for _, v := range variants {
		t.variants = append(t.variants, v.name)
	}
	for _, k := range kernels {
		r := row{kernel: k, cells: map[string]cell{}, checks: map[string]int64{}}
		var stdout string
		for _, v := range t.variants {
			var walls, limits []time.Duration
			var rss, checks []int64
			for _, x := range runs {
				if x.Kernel != k || x.Variant != v {
					continue
				}
				switch {
				case x.Skipped == "budget":
					t.overBudget++
					continue
				case x.Skipped != "":
					continue
				case x.Timeout:
					limits = append(limits, x.Wall)
					rss = append(rss, x.MaxRSS)
					continue
				}
				t.check(x, &stdout)
				walls = append(walls, x.Wall)
				rss = append(rss, x.MaxRSS)
				if x.Checks >= 0 {
					checks = append(checks, x.Checks)
				}
			}
			c := cell{wall: median(walls), rss: median(rss), runs: len(walls)}
			if len(walls) == 0 && len(limits) > 0 {
				c.wall, c.timeout = median(limits), true
			}
			if len(limits) > 0 {
				t.notes = append(t.notes, fmt.Sprintf("%s (%s): killed at the -timeout of %.0fs, not run again", k, v, median(limits).Seconds()))
			}
			r.cells[v] = c
			if len(checks) > 0 {
				r.checks[v] = median(checks)
			}
		}
		t.rows = append(t.rows, r)
	}
	t.failed = len(t.problems) > 0
	return t
}

// check records what is wrong with run x, if anything; stdout is the
// kernel's output so far.
func (t *table) check(x run, stdout *string) {
	where := fmt.Sprintf("%s (%s, round %d)", x.Kernel, x.Variant, x.Round+1)
	switch {
	case x.Err != "":
		t.problems = append(t.problems, fmt.Sprintf("%s: %s", where, x.Err))
	case x.Variant == "sliced":
		// The sliced build drops the program's output (docs/slice.md);
		// its reports are compared by bench/slicediff, not here.
	case *stdout == "":
		*stdout = x.Stdout
	case x.Stdout != *stdout:
		t.problems = append(t.problems, fmt.Sprintf("%s: output %q, earlier runs %q", where, strings.TrimSpace(x.Stdout), strings.TrimSpace(*stdout)))
	}
	if x.Reports > 0 {
		t.problems = append(t.problems, fmt.Sprintf("%s: %d report(s) on a race-free kernel", where, x.Reports))
	}
}

// print writes the table: medians, ratios to plain (and conservative to
// race), checks, and after each suite's kernels the geometric means of the
// ratios over them. A run cut at the timeout counts with its lower bound:
// a ratio over it is a lower bound (">"), a ratio under it an upper bound
// ("<"), a ratio of two cut runs unknown ("-"), and a mean over bounds
// carries their mark ("~" when they disagree).
func (t *table) print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	cols := t.columns()
	fmt.Fprintf(tw, "kernel\t")
	for _, c := range cols {
		fmt.Fprintf(tw, "%s\t", c.head)
	}
	fmt.Fprintf(tw, "\n")
	for i, r := range t.rows {
		fmt.Fprintf(tw, "%s\t", r.kernel)
		for _, c := range cols {
			fmt.Fprintf(tw, "%s\t", c.value(r))
		}
		fmt.Fprintf(tw, "\n")
		if i+1 == len(t.rows) || suite(t.rows[i+1].kernel) != suite(r.kernel) {
			t.printMeans(tw, cols, suite(r.kernel), suite(t.rows[0].kernel) == suite(r.kernel))
		}
	}
	tw.Flush()
	for _, n := range t.notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if t.overBudget > 0 {
		fmt.Fprintf(w, "note: the -budget ran out: %d run(s) not made; (n) after a time is the number of runs behind a median\n", t.overBudget)
	}
	for _, p := range t.problems {
		fmt.Fprintf(w, "PROBLEM: %s\n", p)
	}
}

// printMeans writes the geometric-mean row of a suite's ratio columns; a
// second suite's row also gets one over every kernel so far.
func (t *table) printMeans(tw io.Writer, cols []column, s string, first bool) {
	var rows []row
	for _, r := range t.rows {
		if suite(r.kernel) == s {
			rows = append(rows, r)
		}
	}
	write := func(label string, rows []row) {
		fmt.Fprintf(tw, "%s\t", label)
		for _, c := range cols {
			if c.ratio == nil {
				fmt.Fprintf(tw, "\t")
				continue
			}
			var logs []float64
			var marks []string
			for _, r := range rows {
				q, mark := c.ratio(r)
				if !math.IsNaN(q) {
					logs = append(logs, math.Log(q))
					marks = append(marks, mark)
				}
			}
			fmt.Fprintf(tw, "%s%s\t", meanBound(marks), geomean(logs))
		}
		fmt.Fprintf(tw, "\n")
	}
	write("geomean "+s, rows)
	if !first && t.rows[len(t.rows)-1].kernel == rows[len(rows)-1].kernel {
		write("geomean all", t.rows)
	}
}

// column is one column of the table: its head, its text in a kernel's row,
// and for a ratio column the ratio (NaN if unknown) and its bound mark.
type column struct {
	head  string
	value func(row) string
	ratio func(row) (float64, string)
}

// boundRatio is a/b with its mark: ">" when only a is a lower bound (a run
// cut at the timeout), "<" when only b is; NaN when both are, since the
// ratio of two lower bounds bounds nothing.
func boundRatio(a, b float64, aCut, bCut bool) (float64, string) {
	switch {
	case aCut && bCut:
		return math.NaN(), ""
	case aCut:
		return ratio(a, b), ">"
	case bCut:
		return ratio(a, b), "<"
	}
	return ratio(a, b), ""
}

// meanBound is the mark of a geometric mean of ratios with these marks:
// ">" or "<" when some are bounds the same way, "~" when they disagree.
func meanBound(marks []string) string {
	m := ""
	for _, k := range marks {
		switch {
		case k == "" || k == m:
		case m == "":
			m = k
		default:
			return "~"
		}
	}
	return m
}

// columns lists the table's columns: times, then memory, each build with
// its ratio to plain, the conservative and hb builds also against -race
// (issue 13's target for hb: time at most -race's, memory at most half),
// then the checks of the goanomaly builds.
func (t *table) columns() []column {
	others := t.variants[1:]
	has := func(v string) bool { return slices.Contains(t.variants, v) }
	var cols []column
	timeRatio := func(v, base string) func(row) (float64, string) {
		return func(r row) (float64, string) {
			c, b := r.cells[v], r.cells[base]
			return boundRatio(float64(c.wall), float64(b.wall), c.timeout, b.timeout)
		}
	}
	memRatio := func(v, base string) func(row) (float64, string) {
		return func(r row) (float64, string) {
			c, b := r.cells[v], r.cells[base]
			return boundRatio(float64(c.rss), float64(b.rss), c.timeout, b.timeout)
		}
	}
	ratioCol := func(head string, f func(row) (float64, string)) column {
		return column{head: head, ratio: f, value: func(r row) string {
			q, mark := f(r)
			if math.IsNaN(q) {
				return "-"
			}
			return mark + fmtRatio(q)
		}}
	}
	cols = append(cols, column{head: "plain s", value: func(r row) string { return t.fmtWall(r.cells["plain"]) }})
	for _, v := range others {
		cols = append(cols,
			column{head: v + " s", value: func(r row) string { return t.fmtWall(r.cells[v]) }},
			ratioCol("×", timeRatio(v, "plain")))
	}
	if has("conservative") && has("race") {
		cols = append(cols, ratioCol("cons/race", timeRatio("conservative", "race")))
	}
	if has("hb") && has("race") {
		cols = append(cols, ratioCol("hb/race", timeRatio("hb", "race")))
	}
	cols = append(cols, column{head: "plain MB", value: func(r row) string { return fmtMB(r.cells["plain"].rss) }})
	for _, v := range others {
		cols = append(cols,
			column{head: v + " MB", value: func(r row) string { return fmtMB(r.cells[v].rss) }},
			ratioCol("×", memRatio(v, "plain")))
	}
	if has("conservative") && has("race") {
		cols = append(cols, ratioCol("cons/race", memRatio("conservative", "race")))
	}
	if has("hb") && has("race") {
		cols = append(cols, ratioCol("hb/race", memRatio("hb", "race")))
	}
	for _, v := range []string{"goanomaly", "conservative"} {
		if !has(v) {
			continue
		}
		head := "checks"
		if v == "conservative" {
			head = "cons checks"
		}
		cols = append(cols, column{head: head, value: func(r row) string {
			if n, ok := r.checks[v]; ok {
				return fmt.Sprint(n)
			}
			return "-"
		}})
	}
	return cols
}

// fmtWall is a median in seconds, ">" for a lower bound, and the number of
// runs behind it when fewer than the rounds asked for.
func (t *table) fmtWall(c cell) string {
	s := fmt.Sprintf("%s%.3f", lowerBound(c.timeout), c.wall.Seconds())
	if c.runs == 0 && !c.timeout {
		return "-"
	}
	if !c.timeout && c.runs < t.rounds {
		s += fmt.Sprintf(" (%d)", c.runs)
	}
	return s
}

func lowerBound(b bool) string {
	if b {
		return ">"
	}
	return ""
}

func geomean(logs []float64) string {
	if len(logs) == 0 {
		return "-"
	}
	sum := 0.0
	for _, l := range logs {
		sum += l
	}
	return fmtRatio(math.Exp(sum / float64(len(logs))))
}

func median[T int64 | time.Duration](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// ratio is a/b, NaN when either is unknown.
func ratio(a, b float64) float64 {
	if a <= 0 || b <= 0 {
		return math.NaN()
	}
	return a / b
}

func fmtRatio(q float64) string {
	if math.IsNaN(q) {
		return "-"
	}
	return fmt.Sprintf("%.2f", q)
}

func fmtMB(b int64) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", float64(b)/(1<<20))
}

// describeHost names the machine the numbers come from.
func describeHost() string {
	return fmt.Sprintf("%s %s/%s, %d CPU(s), GOMAXPROCS %d", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0))
}
