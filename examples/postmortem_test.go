package examples

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPostMortemRerun walks the README's "A production run went wrong"
// workflow on the racy examples. Production runs a dormant binary
// (goanomaly build -dormant) with checks off: it must behave as the plain
// build (same stdout, nothing on stderr, exit 0) even on the input that
// holds the race. The rerun of that input, either the same binary with
// GOANOMALY=check=1 or goanomaly run -slice, must report exactly the pairs
// goanomaly run reports, and on an input without the race (the clean
// arguments) nothing.
func TestPostMortemRerun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every racy example four ways")
	}
	tool := filepath.Join(t.TempDir(), "goanomaly")
	if out, err := exec.Command("go", "build", "-o", tool, "../cmd/goanomaly").CombinedOutput(); err != nil {
		t.Fatalf("building goanomaly: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		dir         string
		racy, clean []string // the production input that holds the race, and one that does not
	}{
		{"search/racy", nil, []string{"-x0", "1"}},  // -x0 1 starts at the minimum: nothing is promoted
		{"fem/racy", nil, []string{"-chunks", "1"}}, // one chunk: no two goroutines share a node
		{"fem/racy", []string{"-nx", "9", "-ny", "7", "-chunks", "3"}, nil},
	} {
		t.Run(tc.dir+strings.Join(tc.racy, "_"), func(t *testing.T) {
			// One thread: the racy program's lost updates then print what
			// the plain build prints, so stdout can be compared.
			t.Setenv("GOMAXPROCS", "1")
			t.Setenv("GOANOMALY", "") // each step sets its own, never the user's
			prod := filepath.Join(t.TempDir(), "prod")
			if _, stderr, code := run(t, tool, "build", "-quiet", "-dormant", "-o", prod, "./"+tc.dir); code != 0 {
				t.Fatalf("goanomaly build -dormant: exit status %d\n%s", code, stderr)
			}
			plain, _, code := run(t, "go", append([]string{"run", "./" + tc.dir}, tc.racy...)...)
			if code != 0 {
				t.Fatalf("go run: exit status %d", code)
			}

			out, stderr, code := run(t, prod, tc.racy...)
			if out != plain || stderr != "" || code != 0 {
				t.Fatalf("production run of the dormant binary: exit status %d, stderr %q; stdout\n%s\nwant the plain build's\n%s", code, stderr, out, plain)
			}

			t.Setenv("GOANOMALY", "format=json protocol=locked")
			want := reportPairs(t, tool, append([]string{"run", "./" + tc.dir}, tc.racy...)...)
			if len(want) == 0 {
				t.Fatal("goanomaly run of the racy input reported nothing")
			}
			t.Setenv("GOANOMALY", "check=1 format=json protocol=locked")
			if got := reportPairs(t, prod, tc.racy...); !slices.Equal(got, want) {
				t.Errorf("rerun with check=1:\n%s\ngoanomaly run:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			t.Setenv("GOANOMALY", "format=json protocol=locked")
			if got := reportPairs(t, tool, append([]string{"run", "-slice", "./" + tc.dir}, tc.racy...)...); !slices.Equal(got, want) {
				t.Errorf("goanomaly run -slice:\n%s\ngoanomaly run:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}

			if tc.clean == nil {
				return
			}
			t.Setenv("GOANOMALY", "check=1 format=json protocol=locked")
			if got := reportPairs(t, prod, tc.clean...); len(got) != 0 {
				t.Errorf("rerun with check=1 of the clean input %v reported:\n%s", tc.clean, strings.Join(got, "\n"))
			}
			t.Setenv("GOANOMALY", "format=json protocol=locked")
			if got := reportPairs(t, tool, append([]string{"run", "-slice", "./" + tc.dir}, tc.clean...)...); len(got) != 0 {
				t.Errorf("goanomaly run -slice of the clean input %v reported:\n%s", tc.clean, strings.Join(got, "\n"))
			}
		})
	}
}

// reportPairs runs name with args under GOANOMALY=format=json and returns
// the reported pairs, one line each (class, kind, both sites with their
// blocks, the construct), sorted. It fails the test unless the program
// printed goanomaly's JSON summary, so a run that was not checked cannot
// pass as one that found nothing.
func reportPairs(t *testing.T, name string, args ...string) []string {
	t.Helper()
	_, stderr, code := run(t, name, args...)
	type side struct{ Pos, Block string }
	var pairs []string
	summary := false
	for _, line := range strings.Split(stderr, "\n") {
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var r struct {
			Kind, Class, Construct string
			Sink, Source           side
			Summary                json.RawMessage
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s: %v in %q", name, err, line)
		}
		if r.Summary != nil {
			summary = true
			continue
		}
		pairs = append(pairs, strings.Join([]string{r.Class, r.Kind, r.Sink.Pos, r.Sink.Block, r.Source.Pos, r.Source.Block, r.Construct}, " | "))
	}
	if !summary {
		t.Fatalf("%s %v printed no goanomaly summary (exit status %d):\n%s", name, args, code, stderr)
	}
	if (len(pairs) > 0) != (code == 66) {
		t.Errorf("%s %v: exit status %d with %d report(s)", name, args, code, len(pairs))
	}
	slices.Sort(pairs)
	return slices.Compact(pairs)
}
