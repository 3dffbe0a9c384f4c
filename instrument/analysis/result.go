package analysis

import (
	"go/ast"
	"go/types"
	"strings"
)

// Result is what the static stage found in one package.
type Result struct {
	Constructs []*Construct
	Forks      map[ast.Node]*Fork // every go statement and wg.Go/g.Go call, by node
	Notes      []Note
	Decls      map[*types.Func]*ast.FuncDecl // the package's functions with bodies
	Clones     map[*types.Func]bool          // functions to clone with a task: called from construct code
	Shared     map[*types.Var]bool           // local variables more than one goroutine may reach
}

// Analyze runs the static stage over one type-checked package.
func Analyze(files []*ast.File, info *types.Info, pkg *types.Package) *Result {
	res := &Result{
		Forks:  map[ast.Node]*Fork{},
		Decls:  map[*types.Func]*ast.FuncDecl{},
		Clones: map[*types.Func]bool{},
		Shared: map[*types.Var]bool{},
	}
	for _, file := range files {
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					res.Decls[fn] = fd
				}
			}
		}
	}
	f := &finder{info: info, res: res, forkOf: res.Forks}
	for _, file := range files {
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				f.funcBody(fd.Body)
			}
		}
	}
	f.orphans(files)
	findShared(files, info, res.Shared)
	f.findClones()
	return res
}

// orphans notes every go statement that belongs to no construct.
func (f *finder) orphans(files []*ast.File) {
	for _, file := range files {
		ast.Inspect(file, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok {
				if _, seen := f.forkOf[g]; !seen {
					f.unstructured([]ast.Node{g}, "goroutine is not part of a parallel construct")
				}
			}
			return true
		})
	}
}

// findClones marks the functions called, transitively, from the code of
// constructs: they get a clone that takes the caller's task.
func (f *finder) findClones() {
	var work []*ast.BlockStmt
	visit := func(fn *types.Func) {
		d := f.res.Decls[fn]
		if d == nil || f.res.Clones[fn] || !cloneable(d) {
			return
		}
		f.res.Clones[fn] = true
		work = append(work, d.Body)
	}
	for _, c := range f.res.Constructs {
		for _, s := range c.List[c.First:c.Join] {
			work = append(work, &ast.BlockStmt{List: []ast.Stmt{s}})
		}
		for _, fk := range c.Forks {
			if fk.Callee != nil {
				visit(fk.Callee)
			}
		}
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		ast.Inspect(b, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if fn := f.callee(call); fn != nil {
					visit(fn)
				}
			}
			return true
		})
	}
}

// cloneable reports whether a function can get a checked clone: it has a
// body, is not init or main, and carries no //go: directive that a copy
// must not repeat (linkname, nosplit, …).
func cloneable(d *ast.FuncDecl) bool {
	if d.Body == nil || (d.Recv == nil && (d.Name.Name == "init" || d.Name.Name == "main")) {
		return false
	}
	if d.Doc != nil {
		for _, c := range d.Doc.List {
			if strings.HasPrefix(c.Text, "//go:") {
				return false
			}
		}
	}
	return true
}
