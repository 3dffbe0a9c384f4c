package analysis_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// TestNestedJoinChannel runs the Analyzer with -decisions over outer
// constructs whose goroutines run an inner construct joined by a channel
// (nestchan): a channel local to the function that runs the inner
// construct and used only as its join leaves the outer construct checked;
// any other channel makes it unstructured.
func TestNestedJoinChannel(t *testing.T) {
	setDecisions(t, "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "nestchan")
}
