package rt

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// config holds the options of GOANOMALY, a space-separated list of
// key=value pairs in the style of GORACE.
type config struct {
	logPath   string // reports go to logPath.<pid> instead of stderr
	halt      bool   // halt_on_error=1: exit right after the first DATA RACE
	exitcode  int    // exit status when a DATA RACE was reported
	json      bool   // format=json: one JSON object per line
	sarif     bool   // format=sarif: one SARIF 2.1.0 log at Fini
	locked    bool   // protocol=locked: per-location lock, exact pairs
	nondetErr bool   // nondet=error: NONDETERMINISM also sets the exit status
	atomics   bool   // atomics=1: atomic vs atomic conflicts are NONDETERMINISM
	summary   bool   // summary=1: print counters at Fini
	maxCells  int64  // max_shadow=N: shadow cells per tree before new addresses go unchecked
	reportDir string // report_dir=DIR: goanomaly test's copy of the reports (reportdir.go)
	recent    uint64 // recent=N: a task keeps the locations its block checked from its Nth check on (recent.go); 0: never

	// A dormant binary's choice (dormant.go): check=0|1 (-1: not given),
	// sample=P in [0, 1] (-1: not given), sample_seed=N.
	check      int
	sample     float64
	sampleSeed uint64
}

// defaultMaxCells bounds one tree's shadow: 4M cells, about 250 MB.
const defaultMaxCells = 1 << 22

// parseOptions parses s; it reports unknown keys and bad values to warn and
// keeps the default for them.
func parseOptions(s string, warn io.Writer) config {
	c := config{exitcode: 66, maxCells: defaultMaxCells, check: -1, sample: -1, recent: recentMin}
	for _, f := range strings.Fields(s) {
		k, v, _ := strings.Cut(f, "=")
		if err := c.set(k, v); err != nil {
			fmt.Fprintf(warn, "goanomaly: GOANOMALY: %v\n", err)
		}
	}
	return c
}

// set applies one option.
func (c *config) set(k, v string) error {
	switch k {
	case "log_path":
		c.logPath = v
		return nil
	case "report_dir":
		c.reportDir = v
		return nil
	case "format":
		if v != "text" && v != "json" && v != "sarif" {
			return fmt.Errorf("format=%s: want text, json or sarif", v)
		}
		c.json, c.sarif = v == "json", v == "sarif"
		return nil
	case "protocol":
		if v != "waitfree" && v != "locked" {
			return fmt.Errorf("protocol=%s: want waitfree or locked", v)
		}
		c.locked = v == "locked"
		return nil
	case "nondet":
		if v != "error" && v != "warn" {
			return fmt.Errorf("nondet=%s: want error or warn", v)
		}
		c.nondetErr = v == "error"
		return nil
	case "check":
		if v != "0" && v != "1" {
			return fmt.Errorf("check=%s: want 0 or 1", v)
		}
		c.check = int(v[0] - '0')
		return nil
	case "sample":
		p, err := strconv.ParseFloat(v, 64)
		if err != nil || !(p >= 0 && p <= 1) {
			return fmt.Errorf("sample=%s: want a fraction from 0 to 1", v)
		}
		c.sample = p
		return nil
	case "sample_seed", "recent":
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return fmt.Errorf("%s=%s: want a non-negative integer", k, v)
		}
		if k == "recent" {
			c.recent = n
		} else {
			c.sampleSeed = n
		}
		return nil
	case "exitcode", "max_shadow":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("%s=%s: want a non-negative integer", k, v)
		}
		if k == "exitcode" {
			c.exitcode = int(n)
		} else {
			c.maxCells = n
		}
		return nil
	}
	b, ok := map[string]*bool{"halt_on_error": &c.halt, "atomics": &c.atomics, "summary": &c.summary}[k]
	if !ok {
		return fmt.Errorf("unknown option %q", k)
	}
	switch v {
	case "0":
		*b = false
	case "1":
		*b = true
	default:
		return fmt.Errorf("%s=%s: want 0 or 1", k, v)
	}
	return nil
}
