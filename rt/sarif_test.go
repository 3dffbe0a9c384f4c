package rt

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"
)

// sarifShape is what TestReportSARIF reads back: the properties SARIF
// 2.1.0 requires of a log, a run, a tool, a result and a location, and the
// ones goanomaly promises (rules, ruleId, regions).
type sarifShape struct {
	Schema  *string `json:"$schema"`
	Version *string `json:"version"`
	Runs    []struct {
		Tool *struct {
			Driver *struct {
				Name    *string `json:"name"`
				Version string  `json:"version"`
				Rules   []struct {
					ID string `json:"id"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		OriginalURIBaseIDs map[string]struct {
			URI string `json:"uri"`
		} `json:"originalUriBaseIds"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex int    `json:"ruleIndex"`
			Level     string `json:"level"`
			Message   *struct {
				Text *string `json:"text"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine   int `json:"startLine"`
						StartColumn int `json:"startColumn"`
					} `json:"region"`
				} `json:"physicalLocation"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
			} `json:"locations"`
		} `json:"results"`
		Properties map[string]any `json:"properties"`
	} `json:"runs"`
}

// parseSARIF checks the required properties of the log in b and returns it.
func parseSARIF(t *testing.T, b []byte) *sarifShape {
	t.Helper()
	var log sarifShape
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	if log.Version == nil || *log.Version != "2.1.0" || log.Schema == nil || !strings.Contains(*log.Schema, "sarif-schema-2.1.0") {
		t.Fatalf("version/$schema: %s", b)
	}
	if len(log.Runs) != 1 || log.Runs[0].Tool == nil || log.Runs[0].Tool.Driver == nil || log.Runs[0].Tool.Driver.Name == nil {
		t.Fatalf("runs[0].tool.driver.name: %s", b)
	}
	d := log.Runs[0].Tool.Driver
	if *d.Name != "goanomaly" || d.Version == "" || len(d.Rules) != 2 || d.Rules[0].ID != "DATA_RACE" || d.Rules[1].ID != "NONDETERMINISM" {
		t.Fatalf("driver: %s", b)
	}
	for _, r := range log.Runs[0].Results {
		if r.Message == nil || r.Message.Text == nil || *r.Message.Text == "" {
			t.Fatalf("result without message.text: %s", b)
		}
		if len(r.Locations) != 2 || d.Rules[r.RuleIndex].ID != r.RuleID {
			t.Fatalf("result's locations or rule: %s", b)
		}
	}
	return &log
}

func TestReportSARIF(t *testing.T) {
	if c := parseOptions("format=sarif", io.Discard); !c.sarif || c.json {
		t.Fatalf("format=sarif: %+v", c)
	}
	registerTestSites()
	e := newEnv(t, "format=sarif summary=1")
	var a int64
	racyLoop(e, &a)
	if e.out.Len() != 0 {
		t.Fatalf("format=sarif printed at report time:\n%s", e.out.String())
	}
	if code := e.rep.finish(0); code != 66 {
		t.Errorf("exit status %d, want 66", code)
	}
	log := parseSARIF(t, e.out.Bytes())
	run := log.Runs[0]
	if len(run.Results) != 1 {
		t.Fatalf("want 1 result (one per distinct pair):\n%s", e.out.String())
	}
	r := run.Results[0]
	if r.RuleID != "DATA_RACE" || r.Level != "error" ||
		!strings.HasPrefix(*r.Message.Text, "DATA RACE (WRITE-WRITE): Write of a[idx[i]] at /abs/path/main.go:23:5 by iteration ") ||
		!strings.Contains(*r.Message.Text, "; Previous write of a[idx[i]] at /abs/path/main.go:23:5 by iteration ") {
		t.Errorf("result: %+v %q", r, *r.Message.Text)
	}
	for _, l := range r.Locations {
		pl := l.PhysicalLocation
		// /abs/path has no go.mod above it: the absolute path, as a file URI.
		if pl.ArtifactLocation.URI != "file:///abs/path/main.go" || pl.ArtifactLocation.URIBaseID != "" ||
			pl.Region.StartLine != 23 || pl.Region.StartColumn != 5 {
			t.Errorf("location: %+v", l)
		}
	}
	if !strings.HasPrefix(r.Locations[1].Message.Text, "previous write of a[idx[i]] by iteration") {
		t.Errorf("second location is the earlier access: %q", r.Locations[1].Message.Text)
	}
	if _, ok := run.Properties["goanomaly/summary"]; !ok {
		t.Errorf("summary=1: no summary in the run's properties")
	}
}

func TestReportSARIFNondeterminismAndEmpty(t *testing.T) {
	registerTestSites()
	e := newEnv(t, "format=sarif")
	var mu, sum int64
	e.parallel(3, siteLoop, func(i int, t *Task) {
		t.Lock(uintptr(unsafe.Pointer(&mu)))
		t.Write(uintptr(unsafe.Pointer(&sum)), siteA)
		t.Unlock(uintptr(unsafe.Pointer(&mu)))
	})
	if code := e.rep.finish(0); code != 0 {
		t.Errorf("exit status %d, want 0", code)
	}
	log := parseSARIF(t, e.out.Bytes())
	if rs := log.Runs[0].Results; len(rs) != 1 || rs[0].RuleID != "NONDETERMINISM" || rs[0].Level != "warning" || rs[0].RuleIndex != 1 {
		t.Fatalf("want one NONDETERMINISM result:\n%s", e.out.String())
	}
	clean := newEnv(t, "format=sarif")
	clean.rep.finish(0)
	log = parseSARIF(t, clean.out.Bytes()) // a log with no results says "checked, nothing found"
	if !strings.Contains(clean.out.String(), `"results": []`) || len(log.Runs[0].Results) != 0 {
		t.Fatalf("clean run:\n%s", clean.out.String())
	}
}

func TestReportSARIFHalt(t *testing.T) {
	e := newEnv(t, "format=sarif halt_on_error=1 exitcode=9")
	var a int64
	racyLoop(e, &a)
	if len(e.exit) == 0 || e.exit[0] != 9 {
		t.Fatalf("halt_on_error: exits %v", e.exit)
	}
	parseSARIF(t, e.out.Bytes()) // written before the exit
}

func TestSARIFLocations(t *testing.T) {
	dir := t.TempDir()
	mod := filepath.Join(dir, "m")
	if err := os.MkdirAll(filepath.Join(mod, "sub"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module m\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	var roots sarifRoots
	ph := roots.physical(filepath.Join(mod, "sub", "a b.go") + ":7:3")
	if ph.ArtifactLocation.URI != "sub/a%20b.go" || ph.ArtifactLocation.URIBaseID != "SRCROOT" || *ph.Region != (sarifRegion{7, 3}) {
		t.Errorf("in a module: %+v %+v", ph.ArtifactLocation, ph.Region)
	}
	if roots.ids[mod] != "SRCROOT" {
		t.Errorf("roots: %v", roots.ids)
	}
	out := filepath.Join(dir, "x.go")
	if ph := roots.physical(out + ":1:2"); ph.ArtifactLocation.URIBaseID != "" || ph.ArtifactLocation.URI != fileURI(out) || !strings.HasPrefix(ph.ArtifactLocation.URI, "file:///") {
		t.Errorf("outside any module: %+v", ph.ArtifactLocation)
	}
	if ph := roots.physical(""); ph != nil {
		t.Errorf("no position: %+v", ph)
	}
	if f, l, c := splitPos(`C:\x\y.go:3:4`); f != `C:\x\y.go` || l != 3 || c != 4 {
		t.Errorf("splitPos: %q %d %d", f, l, c)
	}
}
