package rt

import (
	"bytes"
	"sync"
	"testing"
)

// testEnv is a tree of its own with a reporter that prints to a buffer and
// keeps every raw report.
type testEnv struct {
	rep  *reporter
	out  bytes.Buffer
	mu   sync.Mutex
	raws []rawReport
	exit []int
}

// newEnv returns a test environment with options opts (GOANOMALY syntax).
func newEnv(t testing.TB, opts string) *testEnv {
	e := &testEnv{}
	var warn bytes.Buffer
	cfg := parseOptions(opts, &warn)
	if warn.Len() > 0 {
		t.Fatalf("options %q: %s", opts, warn.String())
	}
	e.rep = newReporter(cfg, &e.out)
	e.rep.raw = func(r rawReport) {
		e.mu.Lock()
		e.raws = append(e.raws, r)
		e.mu.Unlock()
	}
	e.rep.exit = func(code int) { e.exit = append(e.exit, code) }
	return e
}

// enter starts a construct in a new tree of e.
func (e *testEnv) enter(n int, site Site) *Construct {
	return newRootTask(newTree(e.rep)).enter(n, site)
}

// reports returns the raw reports so far.
func (e *testEnv) reports() []rawReport {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]rawReport(nil), e.raws...)
}

// parallel runs body(i, task) for i < n as the children of one counted
// construct of e (wg-based forks), then joins.
func (e *testEnv) parallel(n int, site Site, body func(i int, t *Task)) {
	c := e.enter(n, site)
	runChildren(c, n, body)
	c.Join()
}

// runChildren forks n children of c and waits for them.
func runChildren(c *Construct, n int, body func(i int, t *Task)) {
	var wg sync.WaitGroup
	for i := range n {
		t := c.Fork(i)
		wg.Go(func() { body(i, t) })
	}
	wg.Wait()
}

// testSites are registered once for the tests that print reports.
var registerTestSites = sync.OnceFunc(func() {
	registerSites(9000, []SiteInfo{
		{Pos: "/abs/path/main.go:18:2", What: "parallel loop"},
		{Pos: "/abs/path/main.go:23:5", What: "a[idx[i]]"},
		{Pos: "/abs/path/main.go:24:9", What: "sum", Flags: OrderedOK},
		{Pos: "/abs/path/main.go:30:2", What: "parallel sections"},
		{Pos: "/abs/path/main.go:31:3", What: "x"},
		{Pos: "/abs/path/main.go:40:2", What: "worker pool"},
	})
})

// Test site ids.
const (
	siteLoop     Site = 9000
	siteA        Site = 9001
	siteSum      Site = 9002
	siteSections Site = 9003
	siteX        Site = 9004
	sitePool     Site = 9005
)
