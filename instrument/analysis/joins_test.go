package analysis_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// TestJoins runs the Analyzer with -decisions over the constructs whose
// join is not reached on every path (joinsexit) and whose goroutines
// synchronize with each other (joinssiblings, joinscallee using
// joinsdep's facts): each is noted and not checked, and the variants that
// keep the model's assumptions stay constructs.
func TestJoins(t *testing.T) {
	setDecisions(t, "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "joinsexit", "joinssiblings", "joinsdep", "joinscallee", "exits2", "exits2dep")
}
