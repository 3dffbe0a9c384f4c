package rt

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// fini is Fini.
func fini(status int) {
	os.Exit(defaultReporter().finish(status))
}

// finish prints the closing lines and returns the exit status.
func (r *reporter) finish(status int) int {
	shadow := ""
	if r.cfg.summary {
		shadow = hbShadowLine() // before r.mu: it takes the cells' locks, under which checks report
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.flushPending(true)
	races, nondets, byKind := r.counts()
	r.writeEnd(r.exitStatus(status, races, nondets))
	if !r.cfg.json && !r.cfg.sarif && !r.cfg.summary && races+nondets == 0 {
		return status // nothing to print: do not create log_path's file
	}
	w := r.writer()
	switch {
	case r.cfg.sarif:
		var summary map[string]any
		if r.cfg.summary {
			summary = r.jsonSummary(races, nondets, byKind)
		}
		r.writeSARIF(w, summary)
	case r.cfg.json:
		b, _ := json.Marshal(map[string]any{"summary": r.jsonSummary(races, nondets, byKind)})
		fmt.Fprintf(w, "%s\n", b)
	default:
		if races+nondets > 0 {
			fmt.Fprintf(w, "goanomaly: found %d data race(s), %d nondeterminism report(s)\n", races, nondets)
			for _, e := range r.entries {
				if n := e.count.Load(); n > 1 && !e.masked {
					fmt.Fprintf(w, "  x%d %s (%s) %s <- %s\n", n, e.class, e.kind, shortPos(e.sink), shortPos(e.source))
				}
			}
		}
		if r.cfg.summary {
			s := &r.stats
			fmt.Fprintf(w, "goanomaly: summary: %d tree(s), %d construct(s), %d block(s), %d check(s); %d data race(s), %d nondeterminism; WRITE-WRITE %d, WRITE-READ %d, READ-WRITE %d; %d address(es) untracked, %d tree(s) out of tags\n",
				s.trees.Load(), s.constructs.Load(), s.blocks.Load(), s.checks.Load(), races, nondets,
				byKind[writeWrite], byKind[writeRead], byKind[readWrite], s.untracked.Load(), s.exhausted.Load())
		}
		fmt.Fprint(w, shadow)
		if checked, skipped, ok := sampleCounts(); ok { // after the reports, or with summary=1
			fmt.Fprintf(w, "goanomaly: sampled: %d root instance(s) checked, %d skipped\n", checked, skipped)
		}
	}
	return r.exitStatus(status, races, nondets)
}

// hbShadowLine returns summary=1's line on the program's happens-before
// shadow ("" if it made none): how much memory its cells and extension
// records took, and the extensions in use at the end.
func hbShadowLine() string {
	e := &global.hb
	c, rec := e.made.cells.Load(), e.made.records.Load()
	if c+rec == 0 {
		return ""
	}
	return fmt.Sprintf("goanomaly: happens-before shadow: %d KB of cells, %d KB of extension records, %d extension(s) in use\n", c>>10, rec>>10, e.liveExts())
}

// exitStatus is Fini's exit status: status if set, else exitcode after a
// DATA RACE (or a NONDETERMINISM with nondet=error), else 0.
func (r *reporter) exitStatus(status, races, nondets int) int {
	switch {
	case status != 0:
		return status
	case races > 0 || nondets > 0 && r.cfg.nondetErr:
		return r.cfg.exitcode
	}
	return 0
}

// counts returns the distinct unmasked reports by class and by kind.
func (r *reporter) counts() (races, nondets int, byKind [3]int) {
	for _, e := range r.entries {
		if e.masked {
			continue
		}
		byKind[e.kind]++
		if e.class == dataRace {
			races++
		} else {
			nondets++
		}
	}
	return races, nondets, byKind
}

// jsonSummary is the value of the closing {"summary": …} line.
func (r *reporter) jsonSummary(races, nondets int, byKind [3]int) map[string]any {
	type count struct {
		Kind   string `json:"kind"`
		Class  string `json:"class"`
		Sink   string `json:"sink"`
		Source string `json:"source"`
		Count  int64  `json:"count"`
	}
	var cs []count
	for _, e := range r.entries {
		if !e.masked {
			cs = append(cs, count{e.kind.String(), e.class.String(), sitePos(e.sink), sitePos(e.source), e.count.Load()})
		}
	}
	s := &r.stats
	m := map[string]any{
		"data_races": races, "nondeterminism": nondets, "reports": cs,
		"by_kind": map[string]int{
			writeWrite.String(): byKind[writeWrite], writeRead.String(): byKind[writeRead], readWrite.String(): byKind[readWrite],
		},
		"trees": s.trees.Load(), "constructs": s.constructs.Load(), "blocks": s.blocks.Load(), "checks": s.checks.Load(),
		"untracked": s.untracked.Load(), "exhausted_trees": s.exhausted.Load(),
	}
	if checked, skipped, ok := sampleCounts(); ok {
		m["root_instances_checked"], m["root_instances_skipped"] = checked, skipped
	}
	return m
}

// sitePos returns the position of s, or "unknown site N".
func sitePos(s Site) string {
	if info, ok := siteInfo(s); ok && info.Pos != "" {
		return info.Pos
	}
	return fmt.Sprintf("unknown site %d", s)
}

// shortPos returns the position of s with the file's base name only.
func shortPos(s Site) string {
	if info, ok := siteInfo(s); ok && info.Pos != "" {
		return filepath.Base(info.Pos)
	}
	return fmt.Sprintf("unknown site %d", s)
}
