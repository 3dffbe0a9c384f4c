package rt

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// TestFiniExitStatus re-executes the test binary as a checked program that
// races through the exported API with GOANOMALY set, and checks Fini's
// output and exit status.
func TestFiniExitStatus(t *testing.T) {
	if os.Getenv("GOANOMALY_TEST_FINI") == "1" {
		registerTestSites()
		var a int64
		c := Enter(nil, 2, siteLoop)
		var wg sync.WaitGroup
		for i := range 2 {
			wg.Go(Bind(c, i, func(tk *Task) { *W(tk, &a, siteA) = 1 }))
		}
		wg.Wait()
		c.Join()
		Fini(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFiniExitStatus$")
	cmd.Env = append(os.Environ(), "GOANOMALY_TEST_FINI=1", "GOANOMALY=exitcode=42 summary=1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 42 {
		t.Fatalf("exit: %v\n%s", err, out)
	}
	for _, want := range []string{
		"WARNING: DATA RACE (WRITE-WRITE)\nWrite of a[idx[i]] at /abs/path/main.go:23:5 by iteration ",
		"goanomaly: found 1 data race(s), 0 nondeterminism report(s)\n",
		"goanomaly: summary: 1 tree(s), 1 construct(s), 7 block(s), 2 check(s); 1 data race(s)",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
