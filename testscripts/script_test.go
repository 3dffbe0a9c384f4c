// Package testscripts runs goanomaly's end-to-end scripts: each
// area_behaviour.txtar in this directory is a small module and the
// goanomaly commands that prove one behaviour. The test binary re-executes
// itself as the goanomaly command, as cmd/cover's tests do, and as
// goanomaly-vet; scripts find the two executables, for go vet -vettool, in
// $GOANOMALY_EXE and $GOANOMALY_VET_EXE.
package testscripts

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/goproxytest"
	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/goanomaly/goanomaly/cmd/goanomaly/cli"
	"github.com/goanomaly/goanomaly/instrument/analysis"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"goanomaly":       func() { os.Exit(cli.Command()) }, // cmd/goanomaly's main
		"goanomaly-probe": func() { os.Exit(cli.Main(os.Args[1:], probe)) },
		"goanomaly-vet":   func() { singlechecker.Main(analysis.Analyzer) }, // as cmd/goanomaly-vet's
	})
}

func TestScripts(t *testing.T) {
	env := goEnv(t)
	home := t.TempDir() // shared, so the runtime copy is written and compiled once
	exes := map[string]string{}
	for v, name := range map[string]string{"GOANOMALY_EXE": "goanomaly", "GOANOMALY_VET_EXE": "goanomaly-vet"} {
		exe, err := exec.LookPath(name) // installed in $PATH by testscript.Main
		if err != nil {
			t.Fatal(err)
		}
		exes[v] = exe
	}
	proxy := goproxytest.NewTestServer(t, "testdata/mod", "")
	testscript.Run(t, testscript.Params{
		Dir: ".",
		Setup: func(e *testscript.Env) error {
			e.Setenv("HOME", home)
			for _, k := range passedEnv {
				if v := env[k]; v != "" {
					e.Setenv(k, v)
				}
			}
			for k, v := range exes {
				e.Setenv(k, v)
			}
			// A module proxy serving testdata/mod, for scripts that put
			// dependencies in a module cache of their own.
			e.Setenv("TESTPROXY", proxy.URL)
			if env["GOTOOLCHAIN"] == "" {
				e.Setenv("GOTOOLCHAIN", "local")
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode": cmdExitcode,
			"readonly": cmdReadonly,
		},
		Condition: func(cond string) (bool, error) {
			if cond == "cgo" {
				return env["CGO_ENABLED"] == "1", nil
			}
			return false, nil
		},
	})
}

// passedEnv is what scripts take from the go command's environment: where
// the build and module caches are (shared, so scripts stay fast), the
// module proxy, and GOFLAGS.
var passedEnv = []string{
	"GOCACHE", "GOMODCACHE", "GOPATH", "GOPROXY", "GOSUMDB", "GONOSUMDB",
	"GOPRIVATE", "GONOPROXY", "GOFLAGS", "GOTOOLCHAIN", "CGO_ENABLED", "CC",
}

// goEnv reads the go command's settings, as the scripts' environment does
// not have the user's HOME to find them from.
func goEnv(t *testing.T) map[string]string {
	out, err := exec.Command("go", append([]string{"env", "-json"}, passedEnv...)...).Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	env := map[string]string{}
	if err := json.Unmarshal(out, &env); err != nil {
		t.Fatal(err)
	}
	return env
}

// cmdExitcode runs "exitcode N command [args...]": the command (exec prog
// args, or a registered command such as goanomaly) must exit with status N.
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %v", err)
	}
	prog, rest := args[1], args[2:]
	if prog == "exec" {
		if len(rest) == 0 {
			ts.Fatalf("usage: exitcode N exec program [args...]")
		}
		prog, rest = rest[0], rest[1:]
	}
	if !filepath.IsAbs(prog) && filepath.Base(prog) != prog {
		prog = ts.MkAbs(prog)
	}
	got := 0
	if err := ts.Exec(prog, rest...); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// cmdReadonly runs "readonly file...": no one may write the files (as the
// go command leaves those of the module cache).
func cmdReadonly(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: readonly file...")
	}
	for _, f := range args {
		fi, err := os.Stat(ts.MkAbs(f))
		ts.Check(err)
		if fi.Mode().Perm()&0o222 != 0 {
			ts.Fatalf("%s is writable: %v", f, fi.Mode())
		}
	}
}
