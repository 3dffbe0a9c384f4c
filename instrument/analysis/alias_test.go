package analysis_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// TestAliasDecisions holds the proofs to what aliasing can do between
// instances of a construct and through addresses (alias.go), and to views
// of memory as another type made by an imported package (views.go): each
// access's verdict, with -decisions and -accesses.
func TestAliasDecisions(t *testing.T) {
	setAnalyzerFlag(t, "decisions", "true")
	setAnalyzerFlag(t, "accesses", "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "aliasloop", "aliasaddr", "aliasviews")
}
