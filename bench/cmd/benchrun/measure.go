package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// run is one measured run of one build of one kernel.
type run struct {
	Kernel  string        `json:"kernel"`
	Variant string        `json:"variant"`
	Round   int           `json:"round"`
	Wall    time.Duration `json:"wall_ns"`
	MaxRSS  int64         `json:"max_rss_bytes"` // 0 if unknown
	Checks  int64         `json:"checks"`        // -1 if the run printed no count
	Reports int           `json:"reports"`       // DATA RACE and NONDETERMINISM reports on stderr
	Stdout  string        `json:"stdout"`
	Err     string        `json:"error,omitempty"`
	Timeout bool          `json:"timeout,omitempty"` // killed at -timeout: Wall is a lower bound
	Skipped string        `json:"skipped,omitempty"` // why it was not run (or cut short): "budget", "timed out before"
}

// measureAll runs every build of every kernel o.rounds times, interleaved:
// round by round, kernel by kernel, the builds in an order that rotates each
// round so that none always runs first. No run goes past deadline, and a
// build that timed out once is not run again.
func measureAll(o *options, kernels []string, variants []variant, deadline time.Time) []run {
	var runs []run
	timedOut := map[string]bool{}
	for r := range o.rounds {
		for _, k := range kernels {
			for i := range variants {
				v := variants[(i+r)%len(variants)]
				limit := min(o.timeout, time.Until(deadline))
				res := run{Kernel: k, Variant: v.name, Round: r, Checks: -1}
				switch {
				case timedOut[k+"/"+v.name]:
					res.Skipped = "timed out before"
				case limit <= 0:
					res.Skipped = "budget"
				default:
					res = measure(k, v, r, limit)
					if res.Timeout && limit < o.timeout { // cut short by the budget, not by -timeout
						res.Timeout, res.Skipped = false, "budget"
					}
					timedOut[k+"/"+v.name] = res.Timeout
				}
				if o.verbose && res.Skipped == "" {
					fmt.Fprintf(os.Stderr, "round %d %-12s %-9s %8.3fs %7.1f MB %s\n", r+1, k, v.name, res.Wall.Seconds(), float64(res.MaxRSS)/(1<<20), res.Err)
				}
				runs = append(runs, res)
			}
		}
		if !o.verbose {
			fmt.Fprintf(os.Stderr, "benchrun: round %d/%d done\n", r+1, o.rounds)
		}
	}
	return runs
}

// measure runs one binary once, for at most limit.
func measure(kernel string, v variant, round int, limit time.Duration) run {
	res := run{Kernel: kernel, Variant: v.name, Round: round, Checks: -1}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(v.dir, kernel))
	cmd.Env = append(environ("GOANOMALY", "GORACE"), v.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res.Wall = time.Since(start)
	if cmd.ProcessState != nil {
		res.MaxRSS = maxRSS(cmd.ProcessState)
	}
	switch {
	case ctx.Err() != nil:
		res.Timeout = true
	case err != nil:
		res.Err = fmt.Sprintf("%v: %s", err, firstLine(stderr.String()))
	}
	res.Stdout = stdout.String()
	res.Checks = parseChecks(stderr.String())
	res.Reports = strings.Count(stderr.String(), "WARNING: DATA RACE") + strings.Count(stderr.String(), "WARNING: NONDETERMINISM")
	return res
}

// checkPatterns find the count of checks in a summary line, text
// ("…, 12345 check(s); …") or JSON ("checks": 12345).
var checkPatterns = []*regexp.Regexp{
	regexp.MustCompile(`"checks"\s*:\s*(\d+)`),
	regexp.MustCompile(`(\d+)\s+checks?(?:\(s\))?\b`),
}

// parseChecks returns the number of checks the run's summary reported, or
// -1.
func parseChecks(stderr string) int64 {
	for _, line := range strings.Split(stderr, "\n") {
		if !strings.Contains(line, "summary") {
			continue
		}
		for _, p := range checkPatterns {
			if m := p.FindStringSubmatch(line); m != nil {
				if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
					return n
				}
			}
		}
	}
	return -1
}

// environ returns the environment without the given variables.
func environ(drop ...string) []string {
	var env []string
next:
	for _, kv := range os.Environ() {
		for _, d := range drop {
			if strings.HasPrefix(kv, d+"=") {
				continue next
			}
		}
		env = append(env, kv)
	}
	return env
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
