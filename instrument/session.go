package instrument

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/goanomaly/goanomaly"
	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/gocmd"
	"github.com/goanomaly/goanomaly/instrument/overlay"
	"github.com/goanomaly/goanomaly/instrument/plan"
	"github.com/goanomaly/goanomaly/instrument/rewrite"
)

// session is the state of one command: the work directory and what the go
// command will be given.
type session struct {
	opts        *Options
	gotool      string
	wd          *overlay.WorkDir
	userOverlay *overlay.Overlay
	goenv       map[string]string // go env, read once when needed
	debug       io.Writer         // plan JSON goes here; nil without -debug

	roots      []*packages.Package // the command line's packages (import graph only), nil if loading failed
	targets    []target            // the packages rewritten, loaded with syntax and types
	patterns   [][]string          // the patterns of each group of targets, as loaded
	loadErr    error               // why loading failed
	changed    bool                // some file was rewritten or added
	newFiles   []string            // files added to the command-line-arguments package
	flags      []string            // -modfile, -overlay for the go command
	drop       []string            // the user's flags that flags replace
	env        []string            // the go command's environment (GOWORK may be added)
	userMod    string              // the user's go.mod (or -modfile), in module mode
	modFile    string              // its copy in the work directory
	workFile   string              // the copy of the user's go.work, in workspace mode
	modCache   string              // GOMODCACHE
	copies     map[string]string   // module cache directory → its copy, of the rewritten dependencies
	replaces   []overlay.Replace   // the copies, for the go.mod or go.work copy
	depsChosen bool                // the dependencies to rewrite are chosen before the main load (constructDeps)
	definite   bool                // vet printed a definite conflict

	constructs map[string]bool // package paths whose rewrite has a construct
	testMains  []pendingFile   // TestMains added only to binaries that link a construct
}

// instrument loads and rewrites the packages and prepares the overlay. If
// loading fails, nothing is rewritten and the go command reports the errors.
func (s *session) instrument(ctx context.Context) error {
	groups, err := s.load(ctx)
	if err != nil {
		s.debugf("load failed, building plain: %v", err)
		s.loadErr = err
		return nil
	}
	s.warnOutsideModules()
	next := uint32(1)
	for _, g := range groups {
		s.targets = append(s.targets, g...)
		if next, err = s.rewrite(g, next); err != nil {
			return err
		}
	}
	return s.addTestMains()
}

// rewrite rewrites one group of packages loaded together, with site ids
// from first on, and returns the next free site id. Packages with errors
// are left as they are, so that the go command reports the errors.
func (s *session) rewrite(g []target, first uint32) (uint32, error) {
	var pkgs []*packages.Package
	var test []bool
	src := map[string]bool{}
	for _, t := range g {
		if hasErrors(t.pkg) {
			s.debugf("%s has errors, not instrumented", t.pkg.ID)
			continue
		}
		pkgs, test = append(pkgs, t.pkg), append(test, t.test)
		for f := range sourceFiles(t.pkg) {
			src[f] = true
		}
	}
	if len(pkgs) == 0 {
		return first, nil
	}
	cfg := rewrite.Config{
		RTPath: goanomaly.RuntimePath, FirstSite: first,
		Skip:         func(name string) bool { return !src[name] },
		Conservative: s.opts.Line.Conservative,
		Dormant:      s.opts.Line.Dormant,
		HB:           s.opts.Line.HB,
	}
	results, err := s.opts.rewriter()(pkgs, test, cfg)
	if err != nil {
		return 0, fmt.Errorf("rewriting %s: %v", pkgs[0].PkgPath, err)
	}
	if len(results) != len(pkgs) {
		panic(fmt.Sprintf("internal error: rewriter returned %d results for %d packages", len(results), len(pkgs)))
	}
	next := first
	for i, res := range results {
		if res.NextSite < next {
			panic(fmt.Sprintf("internal error: rewrite of %s returned NextSite %d < %d", pkgs[i].PkgPath, res.NextSite, next))
		}
		next = res.NextSite
		if res.Plan != nil && len(res.Plan.Constructs) > 0 {
			if s.constructs == nil {
				s.constructs = map[string]bool{}
			}
			s.constructs[pkgs[i].PkgPath] = true
		}
		if err := s.report(res.Plan); err != nil {
			return 0, err
		}
		if err := s.addFiles(pkgs[i], res); err != nil {
			return 0, err
		}
	}
	return next, nil
}

// warnOutsideModules says which command-line packages are built without
// checks because they are in no module (GOPATH mode, or .go files outside
// any module): only a main module's packages are rewritten.
func (s *session) warnOutsideModules() {
	if s.opts.Line.Quiet {
		return
	}
	for _, p := range s.roots {
		if p.Module == nil && len(p.GoFiles) > 0 && !isStd(p) {
			fmt.Fprintf(s.opts.Stderr, "goanomaly: %s is not in a module: built without checks\n", p.PkgPath)
		}
	}
}

// isStd reports whether p is a standard library package (in GOROOT).
func isStd(p *packages.Package) bool {
	return analysis.Standard(p.PkgPath) && p.PkgPath != "command-line-arguments"
}

// report prints the plan's notes (unless -quiet) and dumps it for -debug.
func (s *session) report(p *plan.Package) error {
	if p == nil {
		return nil
	}
	if s.opts.Line.Cmd == "vet" {
		for i := range p.Constructs {
			fmt.Fprintln(s.opts.Stderr, p.Constructs[i].Summary())
			for _, k := range p.Constructs[i].Conflicts {
				fmt.Fprintln(s.opts.Stderr, k.Conflict())
				s.definite = true
			}
			for _, l := range p.Constructs[i].Locking {
				fmt.Fprintln(s.opts.Stderr, l.Conflict())
			}
		}
		for i := range p.Callbacks {
			fmt.Fprintln(s.opts.Stderr, p.Callbacks[i].Summary())
		}
		if line := p.CalledSummary(); line != "" {
			fmt.Fprintln(s.opts.Stderr, line)
		}
	}
	if !s.opts.Line.Quiet || s.opts.Line.Cmd == "vet" {
		for _, n := range p.Notes {
			if n.Callee && len(p.Constructs) == 0 && s.opts.Line.Cmd != "vet" {
				continue // about code only other packages' calls through values reach
			}
			fmt.Fprintln(s.opts.Stderr, n.String())
		}
	}
	if s.debug == nil {
		return nil
	}
	data, err := json.MarshalIndent(p, "", "\t")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(s.debug, "%s\n", data)
	return err
}

// addFiles puts the rewritten and new files of p into the overlay.
func (s *session) addFiles(p *packages.Package, res *rewrite.Result) error {
	if s.opts.Line.Cmd == "vet" && !s.opts.Line.Slice {
		return nil
	}
	src := sourceFiles(p)
	for name, data := range res.Files {
		if !src[name] || s.wd.Deleted(name) {
			s.debugf("%s: not a source file of %s compiled as written (cgo?), rewrite dropped", name, p.PkgPath)
			continue
		}
		if err := s.place(p, name, data, true); err != nil {
			return err
		}
	}
	dir := filepath.Dir(p.GoFiles[0])
	for name, data := range res.NewFiles {
		if name == res.TestMain {
			s.testMains = append(s.testMains, pendingFile{p, name, data})
			continue
		}
		if filepath.Dir(name) != dir {
			panic(fmt.Sprintf("internal error: rewrite of %s added %s outside the package directory %s", p.PkgPath, name, dir))
		}
		if err := s.place(p, name, data, false); err != nil {
			return err
		}
		if p.PkgPath == "command-line-arguments" && !strings.HasSuffix(name, "_test.go") {
			s.newFiles = append(s.newFiles, name)
		}
	}
	return nil
}

// place puts data, the rewritten (or new) file name of p, into the overlay,
// where the build sees p's files (see buildName).
func (s *session) place(p *packages.Package, name string, data []byte, rewritten bool) error {
	orig := name
	name, data, err := s.buildName(p, name, data, rewritten)
	if err != nil {
		return err
	}
	if strings.HasSuffix(name, ".go") {
		if data, err = withLang(p, orig, data); err != nil {
			return err
		}
	}
	s.changed = true
	return s.wd.Replace(name, data)
}

// debugf prints a line of -debug output: to standard error, also when
// -debug=file sends the plans to a file, which then holds nothing but the
// plans' JSON (a stream of one object per package).
func (s *session) debugf(format string, args ...any) {
	if s.debug != nil {
		fmt.Fprintf(s.opts.Stderr, "goanomaly: "+format+"\n", args...)
	}
}

// openDebug opens the -debug destination; the caller calls close at the end.
func (s *session) openDebug() (close func() error, err error) {
	switch s.opts.Line.Debug {
	case "":
		return func() error { return nil }, nil
	case "-":
		s.debug = s.opts.Stderr
		return func() error { return nil }, nil
	}
	f, err := os.Create(abs(s.opts.Line.Debug, s.opts.Dir))
	if err != nil {
		return nil, err
	}
	s.debug = f
	return f.Close, nil
}

// getenv returns go env values, asking the go command once.
func (s *session) getenv(ctx context.Context, key string) (string, error) {
	if s.goenv == nil {
		vals, err := gocmd.Env(ctx, s.gotool, s.opts.Dir, s.opts.Env,
			"GOMOD", "GOWORK", "GOMODCACHE", "GOOS", "GOARCH", "GOHOSTOS", "GOHOSTARCH", "GOEXE")
		if err != nil {
			return "", err
		}
		s.goenv = vals
	}
	return s.goenv[key], nil
}
