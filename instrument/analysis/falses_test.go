package analysis_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// TestFalses runs the Analyzer with -decisions over correct programs a
// review found reported as racy (falses): each is now noted as
// unstructured or proven, and the racy variants next to them stay checked.
func TestFalses(t *testing.T) {
	setDecisions(t, "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "falses")
}
