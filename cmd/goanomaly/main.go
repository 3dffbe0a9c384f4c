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

	"github.com/goanomaly/goanomaly/cmd/goanomaly/cli"
)

func main() { os.Exit(cli.Command()) }
