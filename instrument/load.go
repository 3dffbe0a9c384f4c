package instrument

import (
	"context"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/goanomaly/goanomaly/instrument/gocmd"
)

// graphMode loads the import graph: enough to choose the packages to
// rewrite, cheaply (go list only).
const graphMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedModule

// fullMode loads what the rewriter needs for the packages it rewrites:
// syntax and types (dependencies' types come from export data, which the
// go command compiles, and caches, for the build anyway).
const fullMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo |
	packages.NeedImports | packages.NeedModule

// config returns the go/packages configuration of the build: its flags and
// environment (GOOS, GOARCH, CGO_ENABLED and GOFLAGS flow from it), and the
// user's overlay. Test variants are loaded for test and vet, as go test and
// go vet build them.
func (s *session) config(ctx context.Context, mode packages.LoadMode) (*packages.Config, error) {
	var flags []string
	for _, a := range s.opts.Line.Args {
		if isLoadFlag(a.Name) && !contains(s.drop, a.Name) {
			flags = append(flags, "-"+a.Name+"="+a.Value)
		}
	}
	if s.modFile != "" {
		flags = append(flags, "-modfile="+s.modFile)
	}
	contents, err := s.userOverlay.Contents()
	if err != nil {
		return nil, err
	}
	return &packages.Config{
		Mode:       mode,
		Context:    ctx,
		Dir:        s.opts.Dir,
		Env:        s.env,
		BuildFlags: flags,
		Tests:      s.opts.Line.Cmd == "test" || s.opts.Line.Cmd == "vet",
		Overlay:    contents,
	}, nil
}

// isLoadFlag reports whether go flag name changes which files make up a
// package or where they come from.
func isLoadFlag(name string) bool {
	return name == "tags" || name == "mod" || name == "modfile"
}

// load loads the import graph of the command line's packages, chooses the
// packages to rewrite (the main module's, and dependencies as -deps says),
// and loads those with syntax and types. Packages
// loaded together share their types (a call from one into another is seen
// as such), so they are returned as one group: a package path list is one
// group, and a list of .go files (which go list takes only alone) another.
func (s *session) load(ctx context.Context) ([][]target, error) {
	cfg, err := s.config(ctx, graphMode)
	if err != nil {
		return nil, err
	}
	if s.roots, err = packages.Load(cfg, s.opts.Line.Patterns...); err != nil {
		return nil, err
	}
	deps := s.dependencies(s.roots)
	if s.depsMode() == gocmd.DepsConstructs && cfg.Tests && len(deps) > 0 {
		if deps, err = s.constructDeps(cfg, deps); err != nil {
			return nil, err
		}
	}
	ts := sortTargets(append(targets(s.roots), deps...))
	var files, paths []string
	for _, t := range ts {
		if t.pkg.PkgPath == "command-line-arguments" {
			files = s.opts.Line.Patterns
		} else {
			paths = append(paths, strings.TrimSuffix(t.pkg.PkgPath, "_test"))
		}
	}
	cfg.Mode = fullMode
	var groups [][]target
	for _, patterns := range [][]string{files, paths} {
		if len(patterns) == 0 {
			continue
		}
		pkgs, err := packages.Load(cfg, patterns...)
		if err != nil {
			return nil, err
		}
		s.patterns = append(s.patterns, patterns)
		groups = append(groups, s.keepConstructs(s.pick(ts, pkgs)))
	}
	return groups, nil
}

// pick returns the fully loaded packages of ts that are among pkgs.
func (s *session) pick(ts []target, pkgs []*packages.Package) []target {
	byID := map[string]*packages.Package{}
	for _, p := range pkgs {
		byID[p.ID] = p
	}
	var group []target
	for _, t := range ts {
		if p := byID[t.pkg.ID]; p != nil {
			group = append(group, target{pkg: p})
		}
	}
	markTests(group)
	return group
}
