package analysis_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// TestForms runs the Analyzer with -decisions over the fork-join forms
// people write (issue 10): joins by repeated receives and receive loops
// counted differently from the fork loop (formsrecv), loops bounded by a channel semaphore (formssem), joins by defer wg.Wait() (formsdefer); and the notes for what stays unchecked give the real reason (formsnotes). Each form has
// accepted and refused variants; a refused one says exactly why.
func TestForms(t *testing.T) {
	setDecisions(t, "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "formsrecv", "formssem", "formsdefer", "formsnotes")
}
