// Two sections of a construct write w unordered, and the program ends by
// os.Exit(0), as CLIs that write os.Exit(run()) do. go run -race reports
// the race and exits 66 (os.Exit(0) after a race becomes 66). goanomaly
// run at 5587ffc printed the report but exited 0, without the closing
// "goanomaly: found 1 data race(s)" line, and with format=sarif wrote no
// log at all: the rewritten main calls rt.Fini after the user's main
// returns (instrument/rewrite/rewrite.go, "func main() { _ga_main();
// _ga_rt.Fini(0) }"), and os.Exit never returns. It should exit 66 with
// the closing lines, as when main returns.
package main

import (
	"fmt"
	"os"
	"sync"
)

var w int

func run() int {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { w = 1; wg.Done() }()
	go func() { w = 2; wg.Done() }()
	wg.Wait()
	fmt.Println(w)
	return 0
}

func main() {
	os.Exit(run())
}
