package analysis_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// TestWorkerOwned runs the Analyzer with -decisions and -accesses over
// worker pools: what a worker allocates and keeps is private, an element
// a[k*w+d] of the worker's index is checked in the worker's own block, and
// every case where another worker or an item could reach the memory stays
// per item.
func TestWorkerOwned(t *testing.T) {
	setAnalyzerFlag(t, "decisions", "true")
	setAnalyzerFlag(t, "accesses", "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "poolowned")
}
