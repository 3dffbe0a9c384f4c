package slice

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// pkgState is the slicing state of one package: which variables kept code
// reads (needed) or names at all (mentioned: its declaration must stay),
// and the decision about every statement.
type pkgState struct {
	a         *analysis
	p         *Package
	needed    map[*types.Var]bool
	mentioned map[*types.Var]bool
	addr      map[*types.Var]bool // address taken outside a runtime call's arguments
	kept      map[ast.Stmt]bool
	visited   map[ast.Stmt]bool
	why       map[ast.Stmt]string
	traps     map[ast.Stmt][]trap
	pinned    map[ast.Stmt]bool // compound statements that stay whatever their bodies (labeled)
	results   []*types.Tuple    // the enclosing functions' results, innermost last
}

func newPkgState(a *analysis, p *Package) *pkgState {
	ps := &pkgState{
		a: a, p: p,
		needed: map[*types.Var]bool{}, mentioned: map[*types.Var]bool{},
		addr: map[*types.Var]bool{}, kept: map[ast.Stmt]bool{}, visited: map[ast.Stmt]bool{},
		why: map[ast.Stmt]string{}, traps: map[ast.Stmt][]trap{}, pinned: map[ast.Stmt]bool{},
	}
	for i, f := range p.Files {
		ps.findAddressTaken(f)
		ps.findStreamsAndRecover(f)
		if i < len(p.Names) && strings.HasSuffix(p.Names[i], "_test.go") && hasExample(f) {
			a.streams = true // the testing package reads an example's standard output back
		}
		for _, imp := range f.Imports {
			if imp.Path.Value == `"unsafe"` {
				a.mem.loadAll() // memory of one type may be read as another
			}
		}
	}
	return ps
}

// pass visits every function body and package-level initializer once,
// keeping what the current needs require; the caller repeats passes until
// nothing changes (the needs only grow).
func (ps *pkgState) pass() {
	for _, f := range ps.p.Files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body != nil {
					ps.visitFunc(ps.p.Info.Defs[d.Name].Type(), d.Body)
				}
			case *ast.GenDecl:
				if d.Tok == token.VAR {
					for _, sp := range d.Specs {
						for _, v := range sp.(*ast.ValueSpec).Values {
							ps.walk(v, load)
						}
					}
				}
			}
		}
	}
}

// visitFunc visits a function's body with its results in scope (a bare
// return reads the named results).
func (ps *pkgState) visitFunc(ft types.Type, body *ast.BlockStmt) {
	var res *types.Tuple
	if sig, ok := ft.(*types.Signature); ok {
		res = sig.Results()
		for i := range res.Len() {
			// A named result is returned, whoever assigns it last (a
			// deferred function may, after an explicit return).
			if v := res.At(i); v.Name() != "" && v.Name() != "_" {
				ps.mention(v)
				ps.need(v)
			}
		}
	}
	ps.results = append(ps.results, res)
	ps.visit(body)
	ps.results = ps.results[:len(ps.results)-1]
}

func (ps *pkgState) need(v *types.Var) {
	if !ps.needed[v] {
		ps.needed[v] = true
		ps.a.changed = true
	}
}

func (ps *pkgState) mention(v *types.Var) {
	if !ps.mentioned[v] {
		ps.mentioned[v] = true
		ps.a.changed = true
	}
}

func (ps *pkgState) keep(s ast.Stmt, why string) {
	if !ps.kept[s] {
		ps.kept[s] = true
		ps.why[s] = why
		ps.a.changed = true
	}
}

func (ps *pkgState) load(t types.Type) {
	if ps.a.mem.load(t) {
		ps.a.changed = true
	}
}

func (ps *pkgState) reach(t types.Type) {
	if ps.a.mem.reach(t) {
		ps.a.changed = true
	}
}

// memVar reports whether v lives in memory other code may reach: a
// package-level variable, or a local whose address is taken.
func (ps *pkgState) memVar(v *types.Var) bool {
	return ps.addr[v] || v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}

// localVar returns the variable id names, if it is a variable (not a field).
func (ps *pkgState) localVar(id *ast.Ident) *types.Var {
	obj := ps.p.Info.Uses[id]
	if obj == nil {
		obj = ps.p.Info.Defs[id]
	}
	v, ok := obj.(*types.Var)
	if !ok || v.IsField() {
		return nil
	}
	return v
}
