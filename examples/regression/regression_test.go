// Package regression is a user's regression suite, as goanomalytest
// (README: "Regression suites with testscript") makes one: each script in
// testdata holds a program and an input a checked run once found a race
// or a NONDETERMINISM on (or the fixed program), runs it under goanomaly
// and asserts the reports, with positions.
package regression

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/goanomaly/goanomaly/goanomalytest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"goanomaly": goanomalytest.Main})
}

func TestRegression(t *testing.T) {
	p := testscript.Params{Dir: "testdata"}
	if err := goanomalytest.Setup(&p); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, p)
}
