package analysis_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

func TestConstructs(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "constructs")
}
