package analysis_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// TestConstructs runs the Analyzer with -decisions: every construct, every
// independence proof and every note is reported, besides the problems.
func TestConstructs(t *testing.T) {
	setDecisions(t, "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "constructs")
}

// TestVetOnly runs the Analyzer with its default flags, as go vet does:
// only the definite conflict is reported.
func TestVetOnly(t *testing.T) {
	setDecisions(t, "false")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "vetonly")
}

// setDecisions sets the Analyzer's -decisions flag for the test and restores
// it afterwards (the flag is package state; these tests are not parallel).
func setDecisions(t *testing.T, v string) {
	t.Helper()
	f := analysis.Analyzer.Flags.Lookup("decisions")
	if f == nil {
		t.Fatal("Analyzer has no decisions flag")
	}
	old := f.Value.String()
	if err := analysis.Analyzer.Flags.Set("decisions", v); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { analysis.Analyzer.Flags.Set("decisions", old) })
}

// TestSyncFacts runs the Analyzer over a package whose goroutines
// synchronize through another package's functions: the facts exported for
// syncdep reach syncuse, so its loops are unstructured, with the reason.
func TestSyncFacts(t *testing.T) {
	setDecisions(t, "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "syncuse")
}
