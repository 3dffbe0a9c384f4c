package instrument

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"os"

	"golang.org/x/tools/go/packages"

	"github.com/goanomaly/goanomaly"
	"github.com/goanomaly/goanomaly/instrument/slice"
)

// slice (-slice) reloads the rewritten packages as the go command will
// build them (the same patterns, go.mod copy and overlay, so the checks are
// typed exactly as compiled), slices them together with respect to the
// report, and puts the sliced files into the overlay. vet -slice prints
// each function's account instead. A reload that fails leaves the build
// checked and unsliced, and says so.
func (s *session) slice(ctx context.Context) error {
	if !s.changed {
		return nil
	}
	cfg, err := s.config(ctx, fullMode)
	if err != nil {
		return err
	}
	if cfg.Overlay, err = s.wd.Contents(); err != nil {
		return err
	}
	if s.opts.Line.Cmd == "vet" {
		cfg.Tests = false // vet -slice accounts for the program run -slice builds
	}
	var pkgs []*packages.Package
	seen := map[string]bool{}
	for i, patterns := range s.patterns {
		if i == 0 && len(s.newFiles) > 0 && len(patterns) > 0 && patterns[0] != "" && isGoFiles(patterns) {
			patterns = append(append([]string(nil), patterns...), s.newFiles...)
		}
		loaded, err := packages.Load(cfg, patterns...)
		if err != nil {
			return s.notSliced(err)
		}
		for _, p := range loaded {
			if seen[p.ID] {
				continue
			}
			seen[p.ID] = true
			if len(p.Errors) > 0 {
				return s.notSliced(fmt.Errorf("%s: %v", p.ID, p.Errors[0]))
			}
			pkgs = append(pkgs, p)
		}
	}
	in, err := slicePackages(pkgs, cfg.Overlay)
	if err != nil {
		return err
	}
	res := slice.Slice(in, slice.Config{RTPath: goanomaly.RuntimePath})
	if s.opts.Line.Cmd == "vet" {
		s.printAccounts(res.Funcs)
		return nil
	}
	for name, data := range res.Files {
		if err := s.wd.Replace(name, data); err != nil {
			return err
		}
	}
	_, err = s.wd.WriteOverlay()
	return err
}

// printAccounts prints what each function of the user's keeps and drops,
// at the user's positions (functions the rewriter added are left out).
func (s *session) printAccounts(funcs []slice.Func) {
	decls := map[string][]token.Position{} // file + "\x00" + func name → its declarations, in order
	for _, t := range s.targets {
		for _, f := range t.pkg.Syntax {
			name := t.pkg.Fset.File(f.Pos()).Name()
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					k := name + "\x00" + slice.FuncName(fd)
					if p := t.pkg.Fset.Position(fd.Pos()); len(decls[k]) == 0 || decls[k][len(decls[k])-1] != p {
						decls[k] = append(decls[k], p)
					}
				}
			}
		}
	}
	seen := map[string]int{}
	for _, f := range funcs {
		k := f.File + "\x00" + f.Name
		n := seen[k]
		seen[k]++
		if n >= len(decls[k]) {
			continue
		}
		f = f.At(decls[k][n])
		fmt.Fprintln(s.opts.Stderr, f.Summary())
		for _, l := range f.Lines {
			fmt.Fprintln(s.opts.Stderr, l)
		}
	}
}

// notSliced says why the build stays unsliced.
func (s *session) notSliced(err error) error {
	fmt.Fprintf(s.opts.Stderr, "goanomaly: -slice: reloading the checked packages failed, built unsliced: %v\n", err)
	return nil
}

// slicePackages turns loaded packages into the slicer's input. A package
// compiled from files it does not parse as such (cgo) is analysed but not
// edited.
func slicePackages(pkgs []*packages.Package, overlay map[string][]byte) ([]*slice.Package, error) {
	var out []*slice.Package
	for _, p := range pkgs {
		sp := &slice.Package{Fset: p.Fset, Files: p.Syntax, Types: p.Types, Info: p.TypesInfo}
		sp.Frozen = len(p.CompiledGoFiles) != len(p.Syntax) || len(p.CompiledGoFiles) != len(p.GoFiles)
		for _, f := range p.Syntax {
			name := p.Fset.File(f.Pos()).Name()
			data, ok := overlay[name]
			if !ok {
				var err error
				if data, err = os.ReadFile(name); err != nil {
					return nil, err
				}
			}
			sp.Names, sp.Src = append(sp.Names, name), append(sp.Src, data)
		}
		out = append(out, sp)
	}
	return out, nil
}

// isGoFiles reports whether patterns are .go files (a command-line-arguments package).
func isGoFiles(patterns []string) bool {
	for _, p := range patterns {
		if len(p) < 3 || p[len(p)-3:] != ".go" {
			return false
		}
	}
	return true
}
