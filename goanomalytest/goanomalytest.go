// Package goanomalytest runs goanomaly in testscript suites
// (github.com/rogpeppe/go-internal/testscript), so that an input on which a
// checked run once found a race becomes a regression script: the script
// runs the program checked and asserts what goanomaly reported. Whether a
// checked run of an input reports a conflict does not depend on the
// schedule, so such a script fails on every run if the race comes back,
// and passes on every run while it stays fixed.
//
// Main is the goanomaly command, to install with testscript.Main; Setup
// prepares testscript.Params for it and adds three assertions over the
// reports of the last command the script ran (its stdout and stderr, as
// testscript's stdout and stderr commands see them):
//
//	races N                              exactly N data races were reported
//	race FILE:LINE FILE:LINE KIND        a data race between the two sites
//	nondet N                             exactly N NONDETERMINISM reports
//	nondet FILE:LINE FILE:LINE KIND      a NONDETERMINISM between the two sites
//
// Each may be negated with "!". KIND is WRITE-WRITE, WRITE-READ or
// READ-WRITE and names the accesses at the two sites in the order the sites
// are given: "race a.go:3 b.go:5 WRITE-READ" wants a write at a.go:3 and a
// read at b.go:5, whichever of the two ran first (goanomaly prints the
// later access as the sink, so a report's own kind may be either order).
// A count is of such conflicts: the two orders of one pair of sites count
// once. FILE is the file's base name or its path relative to $WORK; a site
// may also give the column, FILE:LINE:COL.
//
// The assertions read the reports goanomaly's runtime prints with
// GOANOMALY=format=json, one JSON object per line, wherever they appear in
// the output: on stderr for goanomaly run and for a checked binary run with
// exec, on stdout for goanomaly test (go test -json's events are read
// too). Setup sets GOANOMALY='format=json protocol=locked': the locked
// protocol reports the exact pairs of sites, where the faster wait-free
// default promises one report per conflicting location, and its pairs may
// depend on the schedule when more than two blocks touch one location. A
// script that sets GOANOMALY itself must keep format=json. Which pairs are
// reported after a first race can still depend on the schedule when the
// program branches on a value the race decides: pin the pairs whose
// accesses run whatever the racy values are.
//
// An assertion fails when the last command printed neither a report nor
// the closing summary, so "races 0" cannot pass by reading the output of
// something that was not a checked run. Reports written elsewhere
// (log_path) are not read.
//
// A suite (examples/regression in goanomaly's repository is one):
//
//	func TestMain(m *testing.M) {
//		testscript.Main(m, map[string]func(){"goanomaly": goanomalytest.Main})
//	}
//
//	func TestRegression(t *testing.T) {
//		p := testscript.Params{Dir: "testdata"}
//		if err := goanomalytest.Setup(&p); err != nil {
//			t.Fatal(err)
//		}
//		testscript.Run(t, p)
//	}
//
// and a script in testdata, with the module and the input that went wrong:
//
//	# prod.txt has index 2 twice: two goroutines add into out[2].
//	! goanomaly run . prod.txt
//	races 2
//	race record.go:5 main.go:19 WRITE-READ
//	race record.go:5 record.go:5 WRITE-WRITE
//
//	-- go.mod --
//	...
package goanomalytest

import (
	"os"

	"github.com/rogpeppe/go-internal/gotooltest"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/goanomaly/goanomaly/cmd/goanomaly/cli"
	"github.com/goanomaly/goanomaly/instrument/overlay"
)

// Main runs the goanomaly command, the same code as cmd/goanomaly, and
// exits. Install it in the test binary's TestMain:
//
//	func TestMain(m *testing.M) {
//		testscript.Main(m, map[string]func(){"goanomaly": goanomalytest.Main})
//	}
func Main() { os.Exit(cli.Command()) }

// Setup prepares p for scripts that run goanomaly. It calls
// gotooltest.Setup (goanomaly runs the go command, which needs the go
// environment), adds the commands races, race and nondet to p.Cmds, and
// wraps p.Setup to set, before p's own Setup runs:
//
//	GOANOMALY=format=json protocol=locked
//	                             the reports the assertions read, exact pairs
//	GOANOMALYCACHE=dir           the runtime copy's cache, the test process's
//	                             (goanomaly's cache in the user cache directory),
//	                             shared by the scripts as GOCACHE is
func Setup(p *testscript.Params) error {
	if err := gotooltest.Setup(p); err != nil {
		return err
	}
	cache, err := overlay.CacheRoot()
	if err != nil {
		return err
	}
	setup := p.Setup
	p.Setup = func(e *testscript.Env) error {
		e.Setenv("GOANOMALY", "format=json protocol=locked")
		e.Setenv("GOANOMALYCACHE", cache)
		if setup != nil {
			return setup(e)
		}
		return nil
	}
	p.Cmds["races"] = cmdRaces
	p.Cmds["race"] = cmdRace
	p.Cmds["nondet"] = cmdNondet
	return nil
}
