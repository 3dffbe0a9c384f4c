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
	checks int64 // median checks of the goanomaly build, -1 if none printed
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
		r := row{kernel: k, cells: map[string]cell{}, checks: -1}
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
			if v == "goanomaly" && len(checks) > 0 {
				r.checks = median(checks)
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
	case *stdout == "":
		*stdout = x.Stdout
	case x.Stdout != *stdout:
		t.problems = append(t.problems, fmt.Sprintf("%s: output %q, earlier runs %q", where, strings.TrimSpace(x.Stdout), strings.TrimSpace(*stdout)))
	}
	if x.Reports > 0 {
		t.problems = append(t.problems, fmt.Sprintf("%s: %d report(s) on a race-free kernel", where, x.Reports))
	}
}

// print writes the table: medians, ratios to plain, checks, geometric
// means of the ratios over every kernel; a run cut at the timeout counts
// with its lower bound, and makes the mean a lower bound (">").
func (t *table) print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	others := t.variants[1:]
	fmt.Fprintf(tw, "kernel\tplain s\t")
	for _, v := range others {
		fmt.Fprintf(tw, "%s s\t×\t", v)
	}
	fmt.Fprintf(tw, "plain MB\t")
	for _, v := range others {
		fmt.Fprintf(tw, "%s MB\t×\t", v)
	}
	fmt.Fprintf(tw, "checks\t\n")
	var timeLogs, memLogs = map[string][]float64{}, map[string][]float64{}
	bounded := map[string]bool{} // some ratio of this build is only a lower bound
	for _, r := range t.rows {
		p := r.cells["plain"]
		fmt.Fprintf(tw, "%s\t%s\t", r.kernel, t.fmtWall(p))
		for _, v := range others {
			c := r.cells[v]
			q := ratio(float64(c.wall), float64(p.wall))
			fmt.Fprintf(tw, "%s\t%s%s\t", t.fmtWall(c), lowerBound(c.timeout), fmtRatio(q))
			if !math.IsNaN(q) {
				timeLogs[v] = append(timeLogs[v], math.Log(q))
				bounded[v] = bounded[v] || c.timeout
			}
		}
		fmt.Fprintf(tw, "%s\t", fmtMB(p.rss))
		for _, v := range others {
			c := r.cells[v]
			q := ratio(float64(c.rss), float64(p.rss))
			fmt.Fprintf(tw, "%s\t%s%s\t", fmtMB(c.rss), lowerBound(c.timeout), fmtRatio(q))
			if !math.IsNaN(q) {
				memLogs[v] = append(memLogs[v], math.Log(q))
			}
		}
		if r.checks >= 0 {
			fmt.Fprintf(tw, "%d\t\n", r.checks)
		} else {
			fmt.Fprintf(tw, "-\t\n")
		}
	}
	fmt.Fprintf(tw, "geomean\t\t")
	for _, v := range others {
		fmt.Fprintf(tw, "\t%s%s\t", lowerBound(bounded[v]), geomean(timeLogs[v]))
	}
	fmt.Fprintf(tw, "\t")
	for _, v := range others {
		fmt.Fprintf(tw, "\t%s%s\t", lowerBound(bounded[v]), geomean(memLogs[v]))
	}
	fmt.Fprintf(tw, "\t\n")
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
