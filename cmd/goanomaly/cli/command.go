package cli

import (
	"os"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// Command is the goanomaly command's main function: it runs os.Args[1:]
// and returns the exit status. It is here, not in package main, so that
// every program that runs goanomaly in-process (cmd/goanomaly, the
// testscripts, package goanomalytest's users) runs the same code. Invoked
// by the go command as a vet tool (see VetTool), it hands over to
// unitchecker, which speaks that protocol and exits.
func Command() int {
	if VetTool(os.Args[1:]) {
		unitchecker.Main(analysis.Analyzer)
	}
	return Main(os.Args[1:], nil)
}
