package analysis_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// TestAffine runs the Analyzer with -decisions and -accesses over the
// dependence tests on footprints (depend.go): each proven shape next to a
// variant one element off, which must stay checked.
func TestAffine(t *testing.T) {
	setAnalyzerFlag(t, "decisions", "true")
	setAnalyzerFlag(t, "accesses", "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "affine")
}

// TestAffineMore runs the same over the PolyBench ports' shapes: row
// slices in a chunk, b*bs < n, sub-slices of sub-slices, private buffers,
// the goroutine's parameter as the index.
func TestAffineMore(t *testing.T) {
	setAnalyzerFlag(t, "decisions", "true")
	setAnalyzerFlag(t, "accesses", "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "affinemore")
}

// TestGuardRange runs the same over the narrowed guard (guardrange.go): a
// read-only slice of a written root guarded up to its len against the
// hull of the root's footprints, and the cases that keep whole arrays.
func TestGuardRange(t *testing.T) {
	setAnalyzerFlag(t, "decisions", "true")
	setAnalyzerFlag(t, "accesses", "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "guardrange")
}

// TestRows2D runs the same over the rows of [][]float64 and [][][]float64
// matrices (rows.go): row blocks ranged over as values, column blocks of
// every row, mirror writes, cyclic rows, planes, buffers published into
// memory of the rows' type, the pivot row's narrowed guard.
func TestRows2D(t *testing.T) {
	setAnalyzerFlag(t, "decisions", "true")
	setAnalyzerFlag(t, "accesses", "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "rows2d")
}
