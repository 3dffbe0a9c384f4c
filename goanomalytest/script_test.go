package goanomalytest

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"emit": emit})
}

// emit runs "emit [-stderr] file": it prints file (recorded goanomaly
// output) on stdout, or on stderr, as a checked program would.
func emit() {
	args, w := os.Args[1:], os.Stdout
	if len(args) > 0 && args[0] == "-stderr" {
		args, w = args[1:], os.Stderr
	}
	if len(args) != 1 {
		os.Stderr.WriteString("usage: emit [-stderr] file\n")
		os.Exit(2)
	}
	b, err := os.ReadFile(args[0])
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	w.Write(b)
}

// TestScripts runs the commands as Setup installs them over recorded
// output (testdata/*.txtar); examples/regression runs them over goanomaly.
func TestScripts(t *testing.T) {
	p := testscript.Params{Dir: "testdata"}
	if err := Setup(&p); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, p)
}
