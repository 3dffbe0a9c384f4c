package analysis_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// TestSpecialize runs the Analyzer with -decisions over callbacks passed
// to helpers that fork: a literal is proven with its helper's construct
// only when it runs nowhere else and its guard can be evaluated at its
// start.
func TestSpecialize(t *testing.T) {
	setDecisions(t, "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "specialize")
}
