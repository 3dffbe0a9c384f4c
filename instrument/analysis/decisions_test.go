package analysis_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// TestDecisions runs the Analyzer with -decisions and -accesses: besides
// the constructs and the problems, each access of a construct's goroutine
// bodies is reported with its verdict. decisions has a case for each kind
// of proof and for what must not be proved; decisionsunsafe and
// decisionsreflect import unsafe and reflect, which turn the heap proofs
// off for the whole package.
func TestDecisions(t *testing.T) {
	setAnalyzerFlag(t, "decisions", "true")
	setAnalyzerFlag(t, "accesses", "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "decisions", "decisionsunsafe", "decisionsreflect", "stdcalls")
}

// setAnalyzerFlag sets one of the Analyzer's flags for the test and
// restores it afterwards (the flags are package state; these tests are not
// parallel).
func setAnalyzerFlag(t *testing.T, name, v string) {
	t.Helper()
	f := analysis.Analyzer.Flags.Lookup(name)
	if f == nil {
		t.Fatalf("Analyzer has no %s flag", name)
	}
	old := f.Value.String()
	if err := analysis.Analyzer.Flags.Set(name, v); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { analysis.Analyzer.Flags.Set(name, old) })
}
