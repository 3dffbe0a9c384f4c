package rewrite

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The tests of this package rewrite the same packages and build the same
// programs many times over: the testdata programs are rewritten alike by
// TestGolden, TestDormantSameReports and TestPruningLosesNoReport, and a
// script's program is built pruned, conservatively and dormant once per
// `goanomaly run` of its script, whatever the arguments. Loading a package
// with the syntax of all its dependencies, and linking a program, are
// what the package's tests spend their time on, so both are done once per
// package run: rewritten loads a directory once and keeps its rewrites per
// configuration, build keeps the executable per source. The programs still
// run as often as before, each test on its own, and the tests run their
// subtests in parallel (nothing sets the test's environment: see runEnv).

// TestMain removes the executables build kept for the whole run.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// loaded is a package directory's rewrites by configuration. mu
// serialises the loads and rewrites of one directory.
type loaded struct {
	mu      sync.Mutex
	results map[string]*Result
}

var (
	loadsMu sync.Mutex
	loads   = map[string]*loaded{}
)

// usualConfigs are the configurations the tests rewrite packages with
// (pruned, conservative, dormant): rewritten makes them all from one load,
// which it then lets go (a load with the syntax of every dependency is
// large; a rewrite is small and quick next to it).
var usualConfigs = []Config{{}, {Conservative: true, Elementwise: true}, {Dormant: true}}

// rewritten returns the rewrite of the package in dir with cfg (the
// runtime's path and the first site filled in). The first call for dir
// loads the package and rewrites it with cfg and the usualConfigs; other
// configurations load it again. The Result is shared: callers do not
// change it.
func rewritten(t *testing.T, dir string, cfg Config) *Result {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	loadsMu.Lock()
	l := loads[abs]
	if l == nil {
		l = &loaded{results: map[string]*Result{}}
		loads[abs] = l
	}
	loadsMu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	if res := l.results[configKey(cfg)]; res != nil {
		return res
	}
	pkg := load(t, dir)
	for _, c := range append([]Config{cfg}, usualConfigs...) {
		if l.results[configKey(c)] != nil {
			continue
		}
		c.RTPath, c.FirstSite = "github.com/goanomaly/goanomaly/rt", 1
		res, err := Package(pkg, c)
		if err != nil {
			t.Fatal(err)
		}
		l.results[configKey(c)] = res
	}
	return l.results[configKey(cfg)]
}

// configKey names cfg in rewritten's cache. Skip, a func, shows as its
// address: the tests leave it nil.
func configKey(cfg Config) string {
	cfg.RTPath, cfg.FirstSite = "github.com/goanomaly/goanomaly/rt", 1
	return fmt.Sprintf("%+v", cfg)
}

// forget drops the load of dir, its rewrites and its executables: a test
// calls it when it removes a directory it made.
func forget(dir string) {
	abs, _ := filepath.Abs(dir)
	loadsMu.Lock()
	delete(loads, abs)
	loadsMu.Unlock()
	binMu.Lock()
	defer binMu.Unlock()
	for key, b := range bins {
		if b.dir == abs {
			delete(bins, key)
			if b.exe != "" {
				os.Remove(b.exe)
			}
		}
	}
}

var (
	binMu  sync.Mutex
	binDir string // where build keeps executables, made on the first build
	bins   = map[string]*builtExe{}
)

// builtExe is one executable build made, or why it could not.
type builtExe struct {
	dir  string // the package's directory, absolute
	once sync.Once
	exe  string
	err  string
}

// build builds the main package in dir (with overlay, if any) and returns
// the executable's path. An executable is built once per package run for
// one source: the directory and, with an overlay, the overlay's file names
// and contents; the same source builds the same program.
func build(t *testing.T, dir, work string, overlay map[string]string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%v\x00", abs, overlay != nil)
	names := make([]string, 0, len(overlay))
	for name := range overlay {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		src, err := os.ReadFile(overlay[name])
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00%s", name, len(src), src)
	}
	key := hex.EncodeToString(h.Sum(nil))
	binMu.Lock()
	if binDir == "" {
		if binDir, err = os.MkdirTemp("", "rewrite-bins-"); err != nil {
			binMu.Unlock()
			t.Fatal(err)
		}
	}
	b := bins[key]
	if b == nil {
		b = &builtExe{dir: abs}
		bins[key] = b
	}
	dest := binDir
	binMu.Unlock()
	b.once.Do(func() {
		exe := filepath.Join(dest, key[:24])
		// -w: no DWARF, which nothing here reads (the runtime's stacks
		// and the reports' positions come from the symbol and line
		// tables) and which is most of a small program's link.
		args := []string{"build", "-ldflags=-w", "-o", exe}
		if overlay != nil {
			data, _ := json.Marshal(map[string]any{"Replace": overlay})
			ov := filepath.Join(work, "overlay.json")
			if err := os.WriteFile(ov, data, 0o644); err != nil {
				b.err = err.Error()
				return
			}
			args = []string{"build", "-ldflags=-w", "-overlay", ov, "-o", exe}
		}
		cmd := exec.Command("go", append(args, ".")...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Sprintf("go %s: %v\n%s", strings.Join(args, " "), err, out)
			return
		}
		b.exe = exe
	})
	if b.err != "" {
		t.Fatal(b.err)
	}
	return b.exe
}
