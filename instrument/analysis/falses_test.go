package analysis_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// TestFalses runs the Analyzer with -decisions and -accesses over correct programs a
// review found reported as racy (falses): each is now noted as
// unstructured or proven, and the racy variants next to them stay checked.
func TestFalses(t *testing.T) {
	setAnalyzerFlag(t, "decisions", "true")
	setAnalyzerFlag(t, "accesses", "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "falses")
}
