// Command goanomaly builds, runs and tests Go programs checked for access
// anomalies (data races and schedule-dependent ordering) in their parallel
// loops. It takes the go command's flags and package patterns:
//
//	goanomaly build [build flags] [packages]
//	goanomaly run   [build flags] package|files [arguments...]
//	goanomaly test  [build/test flags] [packages] [test binary flags]
//	goanomaly vet   [build flags] [packages]
//	goanomaly version
//	goanomaly help [command]
//
// See 'goanomaly help' for the details.
//
// goanomaly is also a vet tool: go vet -vettool=$(which goanomaly) runs the
// static stage (the goanomaly analyzer) on each package and reports its
// definite conflicts and inconsistent locking; -goanomaly.decisions adds
// what it decided about each construct.
package main

import (
	"os"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/goanomaly/goanomaly/cmd/goanomaly/cli"
	"github.com/goanomaly/goanomaly/instrument/analysis"
)

func main() {
	// The go command runs a vet tool with -V=full, -flags or a unit.cfg
	// file; unitchecker speaks that protocol, and exits.
	if cli.VetTool(os.Args[1:]) {
		unitchecker.Main(analysis.Analyzer)
	}
	os.Exit(cli.Main(os.Args[1:], nil))
}
