package instrument

import (
	"go/ast"
	"go/scanner"
	"go/token"
	"os"
	"sort"

	"golang.org/x/tools/go/packages"

	"github.com/goanomaly/goanomaly"
	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/gocmd"
	"github.com/goanomaly/goanomaly/instrument/overlay"
)

// Dependencies (-deps). Parallel Go often runs its goroutines in another
// module (a library's Map or ForEach), so packages of other modules in the
// import graph are rewritten too, chosen by -deps:
//
//   - none: only the main module's packages;
//   - constructs (the default): every package in the graph of each module
//     one of whose packages in the graph holds a construct the static stage
//     recognises (a loop, sections or a pool; goroutines it only notes do
//     not count);
//   - all: every package in the graph outside the standard library.
//
// goanomaly's own module is never rewritten, and the standard library has
// no module. Under constructs, a module is first a candidate when one of
// its packages' files has a go statement or names something Go (wg.Go,
// g.Go): only candidates are loaded with syntax and analysed, so that a
// large graph costs a scan, not a type check. In vendor mode, where nothing
// can be rewritten yet (see prepare), constructs rewrites no dependency.
//
// Dependencies are loaded with the main module's packages, in one
// packages.Load, and rewritten with them, so a call from one into another
// reaches the other's checked clone. Files in the module cache cannot be
// overlaid (the go command refuses), so a rewritten module from there is
// copied once to the cache directory (overlay.ModuleCopy) and given to the
// go command as a replace in the go.mod (or go.work) copy, its rewritten
// files overlaid on the copy. A module replaced by a local directory is
// overlaid where it is.

// depsMode is the -deps value in effect.
func (s *session) depsMode() gocmd.Deps {
	if s.opts.Line.Deps == "" {
		return gocmd.DepsConstructs
	}
	return s.opts.Line.Deps
}

// isDependency reports whether p is a package of a module other than the
// main module(s) and goanomaly's, with Go files: what -deps may rewrite.
func isDependency(p *packages.Package) bool {
	return p.Module != nil && !p.Module.Main && p.Module.Path != goanomaly.ModulePath && len(p.GoFiles) > 0
}

// dependencies returns the packages of other modules to load with syntax
// and types beside the main module's: none, all, or the candidates of
// -deps=constructs (see constructDeps and keepConstructs for the choice
// among them).
func (s *session) dependencies(roots []*packages.Package) []target {
	mode := s.depsMode()
	if mode == gocmd.DepsNone {
		return nil
	}
	deps := chooseVariants(roots, isDependency)
	if mode == gocmd.DepsAll || len(deps) == 0 {
		return deps
	}
	if s.vendoring() {
		s.debugf("vendor mode: dependencies built plain")
		return nil
	}
	candidate := map[string]bool{}
	for _, t := range deps {
		if !candidate[t.pkg.Module.Path] && mayFork(t.pkg) {
			candidate[t.pkg.Module.Path] = true
		}
	}
	var out []target
	for _, t := range deps {
		if candidate[t.pkg.Module.Path] {
			out = append(out, t)
		}
	}
	for _, m := range modulesOf(deps) {
		if !candidate[m] {
			s.debugf("dependency module %s: no go statement, built plain", m)
		}
	}
	return out
}

// vendoring reports whether the go command builds from vendor/.
func (s *session) vendoring() bool {
	if s.modFile == "" {
		return false
	}
	v, err := overlay.GoVersion(s.modFile)
	return err == nil && s.vendorMode(v)
}

// mayFork reports whether a file of p has a go statement or the name Go:
// only such a package can hold a construct.
func mayFork(p *packages.Package) bool {
	for _, name := range p.GoFiles {
		src, err := os.ReadFile(name)
		if err != nil {
			return true // let the loader say
		}
		fset := token.NewFileSet()
		var sc scanner.Scanner
		sc.Init(fset.AddFile(name, -1, len(src)), src, nil, 0)
		for {
			_, tok, lit := sc.Scan()
			if tok == token.EOF {
				break
			}
			if tok == token.GO || tok == token.IDENT && lit == "Go" {
				return true
			}
		}
	}
	return false
}

// keepConstructs drops from a loaded group, under -deps=constructs, the
// dependencies of the modules in which the static stage finds no construct
// (unless constructDeps chose them already).
func (s *session) keepConstructs(group []target) []target {
	if s.depsMode() != gocmd.DepsConstructs {
		for _, m := range modulesOf(group) {
			s.debugf("dependency module %s: rewritten (-deps=%s)", m, s.depsMode())
		}
		return group
	}
	if s.depsChosen {
		return group
	}
	return onlyModules(group, s.constructModules(group))
}

// constructDeps chooses among the candidates of -deps=constructs before
// they are loaded with the main module's packages, from a load of their own
// without test variants: go test and go vet load the command line's
// packages' test variants, and the dependencies' would cost a compile of
// their tests (whose own dependencies may not even be in the build list)
// for every candidate.
func (s *session) constructDeps(cfg *packages.Config, deps []target) ([]target, error) {
	c := *cfg
	c.Mode, c.Tests = fullMode, false
	var paths []string
	for _, t := range deps {
		paths = append(paths, t.pkg.PkgPath)
	}
	pkgs, err := packages.Load(&c, paths...)
	if err != nil {
		return nil, err
	}
	var loaded []target
	for _, p := range pkgs {
		loaded = append(loaded, target{pkg: p})
	}
	s.depsChosen = true
	return onlyModules(deps, s.constructModules(loaded)), nil
}

// constructModules returns the dependency modules of ts in which the
// static stage finds a construct, each with a package that holds one. A
// package with errors is built as written and decides nothing.
func (s *session) constructModules(ts []target) map[string]string {
	found := map[string]string{}
	// Wrapper types (conc's WaitGroup) live in another package than the
	// constructs they start (conc/iter): find them over the whole group
	// first, as rewrite.Packages does.
	wraps := analysis.NewWrappers()
	for range 2 {
		for _, t := range ts {
			if p := t.pkg; !hasErrors(p) && p.TypesInfo != nil {
				wraps.Find(analysable(p), p.TypesInfo, p.Types)
			}
		}
	}
	for _, t := range ts {
		p := t.pkg
		if !isDependency(p) || hasErrors(p) || found[p.Module.Path] != "" {
			continue
		}
		if len(analysis.AnalyzeWith(analysable(p), p.TypesInfo, p.Types, wraps).Constructs) > 0 {
			found[p.Module.Path] = p.PkgPath
		}
	}
	for _, m := range modulesOf(ts) {
		if found[m] != "" {
			s.debugf("dependency module %s: a construct in %s, rewritten", m, found[m])
		} else {
			s.debugf("dependency module %s: no construct, built plain", m)
		}
	}
	return found
}

// onlyModules returns ts without the dependencies of modules not in keep.
func onlyModules(ts []target, keep map[string]string) []target {
	var out []target
	for _, t := range ts {
		if !isDependency(t.pkg) || keep[t.pkg.Module.Path] != "" {
			out = append(out, t)
		}
	}
	return out
}

// analysable returns the files of p the rewriter would analyse: its source
// files compiled as written, cgo files left out.
func analysable(p *packages.Package) []*ast.File {
	src := sourceFiles(p)
	var out []*ast.File
	for _, f := range p.Syntax {
		if src[p.Fset.File(f.Pos()).Name()] && !importsC(f) {
			out = append(out, f)
		}
	}
	return out
}

func importsC(f *ast.File) bool {
	for _, im := range f.Imports {
		if im.Path.Value == `"C"` {
			return true
		}
	}
	return false
}

// modulesOf returns the sorted paths of the dependency modules of ts.
func modulesOf(ts []target) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range ts {
		if isDependency(t.pkg) && !seen[t.pkg.Module.Path] {
			seen[t.pkg.Module.Path] = true
			out = append(out, t.pkg.Module.Path)
		}
	}
	sort.Strings(out)
	return out
}
