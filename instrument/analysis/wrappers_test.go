package analysis_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// TestWrappers runs the Analyzer with -decisions over wrapper types: a
// conc-like WaitGroup of another package (wrapdep, with wrapcatch's
// Try fact) and an errgroup-like Group of the user's package make their
// loops and sections constructs; wrappers that break the rule
// (wrappers.go) do not.
func TestWrappers(t *testing.T) {
	setDecisions(t, "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "wrapcatch", "wrapdep", "wraps")
}

// TestProducers runs the Analyzer with -decisions over worker pools whose
// channel a producer goroutine fills (producer.go): producers that only
// send and close join the pool; the others are noted with the reason.
func TestProducers(t *testing.T) {
	setDecisions(t, "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "producer")
}

// TestCounters runs the Analyzer with -decisions over worker pools whose
// items are indices taken from an atomic counter (counter.go).
func TestCounters(t *testing.T) {
	setDecisions(t, "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "counter")
}

// TestTaskVars runs the Analyzer with -decisions over workers held in
// variables (taskvar.go): followed when the variable is assigned once from
// a literal before the construct and only started by it; noted with the
// reason otherwise.
func TestTaskVars(t *testing.T) {
	setDecisions(t, "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "taskvar")
}

// TestConcPools runs the Analyzer with -decisions over conc's pools,
// known from a table (knownpools.go): loops and sections of p.Go joined by
// p.Wait, for Pool, ErrorPool, ContextPool and the result pools, are
// constructs; a pool whose limit may be 1, that is not made and kept by
// the function, or whose task uses its context or is a named function
// of a typed pool, is noted with the reason.
func TestConcPools(t *testing.T) {
	setDecisions(t, "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "concpool")
}

// TestParentFeeds runs the Analyzer with -decisions over worker pools whose
// channel the parent fills between the starts and the join
// (parentfeed.go): sends in loops and close make the parent the producer;
// the variants that break the rule are noted with the reason.
func TestParentFeeds(t *testing.T) {
	setDecisions(t, "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "parentfeed")
}

// TestPoolProofs runs the Analyzer with -decisions and -accesses over
// worker pools' heap proofs (heap.go, poolReadOnly): read-only roots only.
func TestPoolProofs(t *testing.T) {
	setAnalyzerFlag(t, "decisions", "true")
	setAnalyzerFlag(t, "accesses", "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "parentfeedproof")
}
