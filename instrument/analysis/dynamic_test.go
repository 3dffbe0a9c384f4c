package analysis_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// TestDynamic runs the Analyzer with -decisions and -dynamic over
// dyncalls: the prologues for calls through values, the constructs that
// attach their task, and the notes on what stays unchecked.
func TestDynamic(t *testing.T) {
	setAnalyzerFlag(t, "decisions", "true")
	setAnalyzerFlag(t, "dynamic", "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "dyncalls")
}

// TestPlainCallbacks runs the Analyzer with -decisions and -dynamic over
// plainuse: callbacks given to a package that is neither rewritten nor the
// standard library run as written, detached, noted.
func TestPlainCallbacks(t *testing.T) {
	setAnalyzerFlag(t, "decisions", "true")
	setAnalyzerFlag(t, "dynamic", "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "plainuse")
}

// TestCallbackItems runs the Analyzer with -decisions and -dynamic over
// callitems: a pool whose workers hand their channel to a function value,
// and the callbacks whose range over it takes work items, or not and why.
func TestCallbackItems(t *testing.T) {
	setAnalyzerFlag(t, "decisions", "true")
	setAnalyzerFlag(t, "dynamic", "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "callitems")
}

// TestCallbackReads runs the Analyzer with -decisions, -dynamic and
// -accesses over cbreads: the reads of a callback passed straight to a
// helper that nothing in the helper's tree writes (a field of another
// struct does not count), and the writes that keep them checked: by one
// worker, by a method the callback calls, through an interface, through a
// pointer by a function that can run through a value, and a helper that
// is a value itself.
func TestCallbackReads(t *testing.T) {
	setAnalyzerFlag(t, "decisions", "true")
	setAnalyzerFlag(t, "dynamic", "true")
	setAnalyzerFlag(t, "accesses", "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "cbreads")
}

// TestContextClones runs the Analyzer with -decisions, -dynamic and
// -accesses over
// cbclone: a callback's scratch lent to a callee that keeps it gets a
// clone of the callee for that call; a callee that stores, returns,
// passes on or captures it, and scratch the callback does not own, keep
// the shared clone.
func TestContextClones(t *testing.T) {
	setAnalyzerFlag(t, "decisions", "true")
	setAnalyzerFlag(t, "dynamic", "true")
	setAnalyzerFlag(t, "accesses", "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "cbclone")
}

// TestCallbackItemWrites: a callback's item writes of an output made for
// it, proven apart across items (cbitems.go): rows and columns under the
// guard the callback tests at its start; a row shared by two items
// (y/2), a write outside the items, and a helper that sends every row
// twice are not.
func TestCallbackItemWrites(t *testing.T) {
	setAnalyzerFlag(t, "decisions", "true")
	setAnalyzerFlag(t, "dynamic", "true")
	setAnalyzerFlag(t, "accesses", "true")
	analysistest.Run(t, analysistest.TestData(), analysis.Analyzer, "cbitems")
}
