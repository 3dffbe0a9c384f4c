package instrument

import (
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/goanomaly/goanomaly"
)

// target is one package to rewrite.
type target struct {
	pkg  *packages.Package
	test bool // this variant ends its test binary with rt.Fini (rewrite.Config.Test)
}

// targets returns the packages to rewrite, sorted by path so that site ids
// (and with them the rewritten files, and the build cache keys) are the same
// from one run to the next: every package of a main module (the module, or
// the workspace's modules) in the import graph of the roots, except the
// runtime. Dependencies in other modules are built plain.
//
// A package may be loaded in several variants (p, p [p.test], q [p.test]);
// the overlay holds one content per file, so one variant is rewritten per
// package: p's own test variant if loaded (it has all of p's files), else p.
func targets(roots []*packages.Package) []target {
	return chooseVariants(roots, isUserPackage)
}

// chooseVariants returns one variant (see targets) of each package in the
// import graph of roots for which keep is true, sorted by path.
func chooseVariants(roots []*packages.Package, keep func(*packages.Package) bool) []target {
	best := map[string]*packages.Package{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if !keep(p) {
			return
		}
		if b, ok := best[p.PkgPath]; !ok || variantRank(p) < variantRank(b) ||
			variantRank(p) == variantRank(b) && p.ID < b.ID {
			best[p.PkgPath] = p
		}
	})
	var ts []target
	for _, p := range best {
		ts = append(ts, target{pkg: p})
	}
	return sortTargets(ts)
}

// sortTargets sorts ts by package path.
func sortTargets(ts []target) []target {
	sort.Slice(ts, func(i, j int) bool { return ts[i].pkg.PkgPath < ts[j].pkg.PkgPath })
	return ts
}

// markTests chooses, for each test binary, the one variant that ends it
// with rt.Fini (see rewrite.Config.Test): the one declaring the user's
// TestMain if any, else the internal test package if it has _test.go files,
// else the external test package.
func markTests(ts []target) {
	byBinary := map[string][]*target{}
	for i := range ts {
		if bin := testBinary(ts[i].pkg); bin != "" {
			byBinary[bin] = append(byBinary[bin], &ts[i])
		}
	}
	for _, vs := range byBinary {
		sort.Slice(vs, func(i, j int) bool { return finiRank(vs[i].pkg) < finiRank(vs[j].pkg) })
		vs[0].test = true
	}
}

// testBinary returns the test binary a variant is compiled for ("p.test"),
// if it is p's own test variant or p's external test package.
func testBinary(p *packages.Package) string {
	if variantRank(p) != 0 {
		return ""
	}
	return strings.TrimSuffix(p.PkgPath, "_test") + ".test"
}

// finiRank orders the variants of one test binary by preference for rt.Fini.
func finiRank(p *packages.Package) int {
	switch {
	case declaresTestMain(p):
		return 0
	case !strings.HasSuffix(p.PkgPath, "_test") && hasTestFiles(p):
		return 1
	case strings.HasSuffix(p.PkgPath, "_test"):
		return 2
	}
	return 3
}

func declaresTestMain(p *packages.Package) bool {
	if p.Types == nil {
		return false
	}
	obj := p.Types.Scope().Lookup("TestMain")
	return obj != nil && strings.HasSuffix(p.Fset.Position(obj.Pos()).Filename, "_test.go")
}

func hasTestFiles(p *packages.Package) bool {
	for _, f := range p.GoFiles {
		if strings.HasSuffix(f, "_test.go") {
			return true
		}
	}
	return false
}

// variantRank orders the variants of a package: 0 for its own test variant
// ("p [p.test]", or "p_test [p.test]" for an external test package), 1 for
// the package itself, 2 for a variant recompiled for another test.
func variantRank(p *packages.Package) int {
	under := strings.TrimSuffix(p.PkgPath, "_test")
	switch p.ID {
	case p.PkgPath + " [" + under + ".test]":
		return 0
	case p.PkgPath:
		return 1
	}
	return 2
}

// isUserPackage reports whether p belongs to a main module and has source
// files there (the generated test main does not), and is not the runtime.
func isUserPackage(p *packages.Package) bool {
	if p.Module == nil || !p.Module.Main || len(p.GoFiles) == 0 || isRuntime(p.PkgPath) {
		return false
	}
	for _, f := range p.GoFiles {
		if !within(f, p.Module.Dir) {
			return false
		}
	}
	return true
}

// isRuntime reports whether path is the runtime or one of its packages,
// which are never instrumented.
func isRuntime(path string) bool {
	return path == goanomaly.RuntimePath || strings.HasPrefix(path, goanomaly.RuntimePath+"/")
}

func within(file, dir string) bool {
	rel, err := filepath.Rel(dir, file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// hasErrors reports whether p (or a dependency) failed to load or type-check:
// such a package is built as written, so the go command reports its errors.
func hasErrors(p *packages.Package) bool {
	return len(p.Errors) > 0 || len(p.TypeErrors) > 0 || p.IllTyped
}

// sourceFiles returns the files of p that the rewriter may change: its Go
// files that are compiled as they are (cgo files, which the go command
// preprocesses, are not among CompiledGoFiles under their own names).
func sourceFiles(p *packages.Package) map[string]bool {
	compiled := map[string]bool{}
	for _, f := range p.CompiledGoFiles {
		compiled[f] = true
	}
	m := map[string]bool{}
	for _, f := range p.GoFiles {
		if compiled[f] {
			m[f] = true
		}
	}
	return m
}
