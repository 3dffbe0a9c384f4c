package analysis_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// TestSubscriptConflicts runs the Analyzer as go vet does: a definite
// conflict is reported only where both accesses run in every iteration.
func TestSubscriptConflicts(t *testing.T) {
	setDecisions(t, "false")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "subscriptdefinite")
}

// TestSubscriptDecisions runs the Analyzer with -decisions and -accesses
// over the subscript packages: nested constructs and closures (a proof
// must hold across the instances that may run at once) and files of a
// language version before go1.22 (one loop variable for the whole loop).
func TestSubscriptDecisions(t *testing.T) {
	setAnalyzerFlag(t, "decisions", "true")
	setAnalyzerFlag(t, "accesses", "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "subscriptnest", "subscriptversion", "subscriptwrap", "subscriptshadow")
}
