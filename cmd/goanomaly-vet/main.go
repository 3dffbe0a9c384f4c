// Command goanomaly-vet is goanomaly's static stage (the goanomaly analyzer)
// alone, for drivers that want an analysis binary rather than goanomaly's
// command line. It reports definite conflicts and inconsistent locking in
// parallel loops; -decisions also reports each construct, each independence
// proof and each goroutine the model does not cover.
//
//	goanomaly-vet [-decisions] [packages]
//	go vet -vettool=$(which goanomaly-vet) [-decisions] [packages]
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

func main() { singlechecker.Main(analysis.Analyzer) }
