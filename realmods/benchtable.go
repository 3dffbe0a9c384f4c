package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// benchLine is one result line of go test -bench.
type benchLine struct {
	name  string  // without the -GOMAXPROCS suffix: "BenchmarkResize/Up_Linear_JPEG"
	ns    float64 // ns/op
	bytes float64 // B/op; -1 without -benchmem
}

// benchLinePattern matches "BenchmarkX-2   	  6	  38486208 ns/op	 2019922 B/op ...".
var benchLinePattern = regexp.MustCompile(`^(Benchmark\S*?)(?:-\d+)?\s+\d+\s+([0-9.e+]+) ns/op(.*)$`)

var bytesPattern = regexp.MustCompile(`\s([0-9.e+]+) B/op`)

// parseBench returns the benchmark results in a test binary's output.
func parseBench(out []byte) []benchLine {
	var ls []benchLine
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		m := benchLinePattern.FindStringSubmatch(strings.TrimRight(sc.Text(), "\r"))
		if m == nil {
			continue
		}
		ns, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			continue
		}
		l := benchLine{name: m[1], ns: ns, bytes: -1}
		if b := bytesPattern.FindStringSubmatch(m[3]); b != nil {
			if v, err := strconv.ParseFloat(b[1], 64); err == nil {
				l.bytes = v
			}
		}
		ls = append(ls, l)
	}
	return ls
}

// summaryChecks matches the checks count of GOANOMALY=summary=1's line.
var summaryChecks = regexp.MustCompile(`goanomaly: summary: .*?(\d+) check\(s\)`)

// parseChecks is the checks count of the summary line in out, -1 if none.
func parseChecks(out []byte) int64 {
	m := summaryChecks.FindSubmatch(out)
	if m == nil {
		return -1
	}
	n, err := strconv.ParseInt(string(m[1]), 10, 64)
	if err != nil {
		return -1
	}
	return n
}

// median of xs, NaN for none; the lower middle of an even count.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

// benchTable is the -bench mode's result.
type benchTable struct {
	results []*benchResult
	header  []string // lines printed above the table: machine, load, command
}

var benchHeader = []string{"module", "package", "benchmark", "plain ns/op", "goanomaly ns/op", "goanomaly/plain", "race ns/op", "race/plain", "plain B/op", "goanomaly B/op", "race B/op"}

// rows are the table's cells, one row per benchmark.
func (t *benchTable) rows() [][]string {
	var rows [][]string
	for _, r := range t.results {
		if len(r.names) == 0 {
			rows = append(rows, []string{r.module, orDash(r.set.pkg), "-", "-", "-", "-", "-", "-", "-", "-", "-"})
			continue
		}
		for _, n := range r.names {
			st := r.runs[n]
			p, g, rc := median(st.ns[plainBuild]), median(st.ns[goanomalyBuild]), median(st.ns[raceBuild])
			rows = append(rows, []string{r.module, r.set.pkg, strings.TrimPrefix(n, "Benchmark"),
				fmtNum(p), fmtNum(g), fmtRatio(g, p), fmtNum(rc), fmtRatio(rc, p),
				fmtNum(median(st.bytes[plainBuild])), fmtNum(median(st.bytes[goanomalyBuild])), fmtNum(median(st.bytes[raceBuild]))})
		}
	}
	return rows
}

// geomeans are the geometric means of goanomaly/plain and race/plain over
// the benchmarks that have both, and how many those are.
func (t *benchTable) geomeans() (ga, race float64, nga, nrace int) {
	var sga, srace float64
	for _, r := range t.results {
		for _, n := range r.names {
			st := r.runs[n]
			p := median(st.ns[plainBuild])
			if g := median(st.ns[goanomalyBuild]) / p; g > 0 && !math.IsInf(g, 0) {
				sga += math.Log(g)
				nga++
			}
			if rc := median(st.ns[raceBuild]) / p; rc > 0 && !math.IsInf(rc, 0) {
				srace += math.Log(rc)
				nrace++
			}
		}
	}
	ga, race = math.NaN(), math.NaN()
	if nga > 0 {
		ga = math.Exp(sga / float64(nga))
	}
	if nrace > 0 {
		race = math.Exp(srace / float64(nrace))
	}
	return ga, race, nga, nrace
}

// summary is the geometric means, then each set's checks and notes.
func (t *benchTable) summary() string {
	ga, race, nga, nrace := t.geomeans()
	var b strings.Builder
	fmt.Fprintf(&b, "geometric mean goanomaly/plain %s over %d benchmark(s), race/plain %s over %d\n", fmtRatioOf(ga), nga, fmtRatioOf(race), nrace)
	for _, r := range t.results {
		var parts []string
		if len(r.checks) > 0 {
			var cs []string
			for _, c := range r.checks {
				if c < 0 {
					cs = append(cs, "no summary")
				} else {
					cs = append(cs, strconv.FormatInt(c, 10))
				}
			}
			parts = append(parts, "goanomaly checks per round: "+strings.Join(cs, ", "))
		}
		parts = append(parts, shortNotes(r.notes, maxNotes)...)
		if len(parts) > 0 {
			fmt.Fprintf(&b, "- %s %s: %s\n", r.module, orDash(r.set.pkg), strings.Join(parts, "; "))
		}
	}
	return b.String()
}

// text is the table aligned in columns, with the header lines and summary.
func (t *benchTable) text() string {
	rows := append([][]string{benchHeader}, t.rows()...)
	width := make([]int, len(benchHeader))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	var b strings.Builder
	for _, h := range t.header {
		b.WriteString(h + "\n")
	}
	for _, r := range rows {
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-len([]rune(c)))
			if i < 3 {
				b.WriteString(c + pad) // names left, numbers right
			} else {
				b.WriteString(pad + c)
			}
			if i < len(r)-1 {
				b.WriteString("  ")
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("\n" + t.summary())
	return b.String()
}

// markdown is the table as GitHub Markdown, the header lines above it and
// the summary below.
func (t *benchTable) markdown() string {
	var b strings.Builder
	for _, h := range t.header {
		b.WriteString(h + "\n\n")
	}
	line := func(cells []string) {
		cs := make([]string, len(cells))
		for i, c := range cells {
			cs[i] = strings.ReplaceAll(c, "|", `\|`)
		}
		fmt.Fprintf(&b, "| %s |\n", strings.Join(cs, " | "))
	}
	line(benchHeader)
	sep := []string{"---", "---", "---"}
	for range benchHeader[3:] {
		sep = append(sep, "---:")
	}
	line(sep)
	for _, r := range t.rows() {
		line(r)
	}
	b.WriteString("\n" + t.summary())
	return b.String()
}

// maxNotes is how many notes of one set the summary shows: a module
// rewritten whole (-deps) can note a hundred assembly calls.
const maxNotes = 4

// shortNotes is the first n notes and a count of the rest.
func shortNotes(ns []string, n int) []string {
	if len(ns) <= n {
		return ns
	}
	return append(ns[:n:n], fmt.Sprintf("%d more note(s)", len(ns)-n))
}

// fmtNum prints a measurement with three significant digits, "-" for none.
func fmtNum(x float64) string {
	switch {
	case math.IsNaN(x):
		return "-"
	case x >= 1000:
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

// fmtRatio is x/y as "1.23", "-" when either is missing.
func fmtRatio(x, y float64) string { return fmtRatioOf(x / y) }

func fmtRatioOf(r float64) string {
	if math.IsNaN(r) || math.IsInf(r, 0) || r <= 0 {
		return "-"
	}
	return strconv.FormatFloat(r, 'f', 2, 64)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
