// Package slice cuts a checked (rewritten) package down to what can change
// its anomaly report: the statements that decide which constructs and
// iterations run, which checked accesses execute and at what addresses, the
// inputs those depend on, and a trap for every panic the dropped code could
// raise. What goes is computation whose values reach only output or memory
// that nothing kept reads: a numeric kernel's floating-point work,
// formatting, writes to standard output.
//
// It slices the rewritten program, not the original: the checks the
// rewriter inserted (_ga_rt.R(...), guards, construct calls) are ordinary
// calls there, so everything a check needs is visible as def-use in the
// typed syntax. The analysis is flow-insensitive and statement-level (see
// docs/slice.md for the rules): a variable read by a kept expression is
// needed, and every assignment to it is kept; memory is modelled by type, a
// store of T staying whenever any kept expression may load a T. That is
// coarser than SSA def-use, but it is conservative by construction (it may
// keep too much, never too little), and it edits the source text the go
// command compiles, with the rewriter's /*line*/ directives untouched.
package slice

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
)

// Package is one type-checked package to slice, as the go command builds it
// (the rewritten files). Src holds each file's text, parallel to Files.
type Package struct {
	Fset  *token.FileSet
	Files []*ast.File
	Src   [][]byte
	Names []string // the file names the build sees, parallel to Files
	Types *types.Package
	Info  *types.Info
	// Frozen marks a package analysed (its loads count) but not edited:
	// every statement of it is kept.
	Frozen bool
}

// Config says what the rewritten code calls the runtime.
type Config struct {
	RTPath string // the runtime's import path
}

// Result is the sliced text of each edited file and the account of each
// function, for goanomaly vet -slice.
type Result struct {
	Files map[string][]byte // file name → sliced source (files with an edit)
	Funcs []Func
}

// Func is the account of one function: what was kept and what dropped.
type Func struct {
	// Pos is the function's position in the sliced file as written (the
	// rewriter's directives cover statements, not declarations): the
	// caller maps it to the user's with Func.At.
	Pos   token.Position
	File  string // the file's name as the build sees it
	Name  string // f, (T).f or (*T).f; the rewriter's main is main
	Lines []Line // one per simple statement, in source order
}

// Line is the decision about one simple statement.
type Line struct {
	// Pos is the statement's position as the user wrote it when Exact (a
	// directive of the rewriter names it); otherwise Pos.Line counts lines
	// from the function's first (unchanged code keeps its layout).
	Pos     token.Position
	Exact   bool
	Text    string // the statement, shortened
	Dropped bool
	Why     string
}

// Slice slices pkgs together: they share one memory model (a load in one
// package keeps stores in another), so they must be every package of the
// build whose code is analysed; code outside them is seen only through
// calls. A file that belongs to several packages (a package and its test
// variant) is edited as the package with the most files slices it, which
// keeps a superset of what the others need.
func Slice(pkgs []*Package, cfg Config) *Result {
	a := &analysis{cfg: cfg, mem: newMemory(), user: map[*types.Package]bool{}}
	for _, p := range pkgs {
		a.user[p.Types] = true
	}
	a.mem.opaque = func(n *types.Named) (bool, bool) {
		pkg := n.Obj().Pkg()
		if pkg == nil {
			return false, false
		}
		if pkg.Path() == cfg.RTPath {
			return true, false
		}
		return false, !a.userPath(pkg.Path())
	}
	for _, p := range pkgs {
		a.pkgs = append(a.pkgs, newPkgState(a, p))
	}
	for {
		a.changed = false
		for _, ps := range a.pkgs {
			ps.pass()
		}
		if !a.changed {
			break
		}
	}
	return a.result()
}

// analysis is the state shared by the packages sliced together.
type analysis struct {
	cfg     Config
	pkgs    []*pkgState
	mem     *memory
	user    map[*types.Package]bool // the analysed packages: calls into them are seen through
	changed bool                    // the last pass kept something new
	// recovers: some analysed code calls recover (or declares a String
	// method, whose panics fmt recovers), so a panic's value may
	// steer the program (loops of traps are not hoisted: the hoisted
	// traps may panic with another index, or another kind, first).
	recovers bool
	// streams: some analysed code may redirect or read back standard
	// output or error (assigns os.Stdout, dups a descriptor, reads from
	// the stream), so prints to them are not dropped.
	streams bool
}

// userPath reports whether path is one of the analysed packages' (or a
// test variant of one).
func (a *analysis) userPath(path string) bool {
	for p := range a.user {
		if p.Path() == path {
			return true
		}
	}
	return false
}

// result edits each file once, as its largest package slices it.
func (a *analysis) result() *Result {
	owner := map[string]*pkgState{}
	for _, ps := range a.pkgs {
		if ps.p.Frozen {
			continue
		}
		for _, name := range ps.p.Names {
			if o := owner[name]; o == nil || len(o.p.Files) < len(ps.p.Files) {
				owner[name] = ps
			}
		}
	}
	res := &Result{Files: map[string][]byte{}}
	names := make([]string, 0, len(owner))
	for n := range owner {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		ps := owner[name]
		for i, n := range ps.p.Names {
			if n != name {
				continue
			}
			if out, ok := ps.edit(i); ok {
				res.Files[name] = out
			}
			res.Funcs = append(res.Funcs, ps.account(i)...)
		}
	}
	return res
}
