package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
)

// Calls the checks cannot follow. The rewriter checks a construct's code
// and the clones of the functions it calls by name; a call through a
// function value, a method value or an interface runs the callee as
// written, unchecked, and so does a function literal that is not called
// where it is written (stored, passed to another package, called later).
// Each such call in a construct's code, or in a function that code calls,
// gets a note at its position, once, and counts against the construct: vet
// does not call it fully proven (plan.Construct.Unchecked).

// Unchecked returns the calls of c's code (and of the functions of this
// package it calls, transitively) whose callee runs unchecked.
func (r *Result) Unchecked(c *Construct) []Note { return r.unchecked[c] }

// noteUncheckedCalls fills Result.unchecked and adds one note per call
// site. It runs after Link, when the functions to clone are known.
func (f *finder) noteUncheckedCalls() {
	res := f.res
	res.unchecked = map[*Construct][]Note{}
	noted := map[token.Pos]bool{}
	for _, n := range res.Notes {
		noted[n.Pos] = true
	}
	add := func(n Note) {
		if !noted[n.Pos] {
			noted[n.Pos] = true
			res.Notes = append(res.Notes, n)
		}
	}
	for _, c := range res.Constructs {
		seen := map[*types.Func]bool{}
		var work []ast.Node
		for _, s := range c.List[c.First:c.Join] {
			work = append(work, s)
		}
		follow := func(fn *types.Func) {
			if d := res.Decls[fn.Origin()]; d != nil && !seen[fn.Origin()] && res.Clones[fn.Origin()] {
				seen[fn.Origin()] = true
				work = append(work, d.Body)
			}
		}
		for _, fk := range c.Forks {
			if fk.Callee != nil {
				follow(fk.Callee)
			}
		}
		inC := map[token.Pos]bool{}
		for len(work) > 0 {
			n := work[len(work)-1]
			work = work[:len(work)-1]
			f.dynamicCalls(n, func(n Note) {
				if !inC[n.Pos] {
					inC[n.Pos] = true
					res.unchecked[c] = append(res.unchecked[c], n)
				}
				add(n)
			}, follow)
		}
		sort.Slice(res.unchecked[c], func(i, j int) bool { return res.unchecked[c][i].Pos < res.unchecked[c][j].Pos })
	}
	// Clones that only another package's constructs reach.
	for fn := range res.Clones {
		if d := res.Decls[fn]; d != nil && fn.Pkg() == f.pkg {
			f.dynamicCalls(d.Body, add, func(*types.Func) {})
		}
	}
	f.libraryGoroutines(add)
	sort.Slice(res.Notes, func(i, j int) bool { return res.Notes[i].Pos < res.Notes[j].Pos })
}

// dynamicCalls reports, in checked code n, each call whose callee runs
// unchecked and each function literal not called where it is written; it
// hands the static callees to follow.
func (f *finder) dynamicCalls(n ast.Node, note func(Note), follow func(*types.Func)) {
	inPlace := map[*ast.FuncLit]bool{}
	if lit, ok := n.(*ast.FuncLit); ok {
		inPlace[lit] = true
	}
	ast.Inspect(n, func(m ast.Node) bool {
		switch x := m.(type) {
		case *ast.FuncLit:
			if !inPlace[x] {
				note(Note{Pos: x.Pos(), Msg: "function literal not called where it is written: its body runs unchecked"})
				return false
			}
		case *ast.CallExpr:
			f.dynamicCall(x, inPlace, note, follow)
		case *ast.RangeStmt:
			if _, ok := underlying(f.info.TypeOf(x.X)).(*types.Signature); ok {
				note(Note{Pos: x.X.Pos(), Msg: "range over a function: the iterator runs unchecked"})
			}
		}
		return true
	})
}

// dynamicCall is dynamicCalls for one call.
func (f *finder) dynamicCall(x *ast.CallExpr, inPlace map[*ast.FuncLit]bool, note func(Note), follow func(*types.Func)) {
	if lit, ok := ast.Unparen(x.Fun).(*ast.FuncLit); ok {
		inPlace[lit] = true // called in place, go or defer: checked in the caller's block
		return
	}
	if fk := f.forkOf[x]; fk != nil || f.goMethod(x) != "" {
		for _, a := range x.Args {
			if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
				inPlace[lit] = true // a goroutine body, checked as a fork
			}
		}
		if fk != nil && fk.Construct != nil && fk.Body == nil && fk.Callee == nil {
			note(Note{Pos: x.Pos(), Msg: "goroutine runs a function value: its body runs unchecked"})
		}
		return
	}
	tv := f.info.Types[x.Fun]
	if tv.IsType() || tv.IsBuiltin() {
		return
	}
	if fn := Callee(f.info, x.Fun); fn != nil {
		if fn.Pkg() != nil && fn.Pkg().Path() == "reflect" {
			note(Note{Pos: x.Pos(), Msg: "calls " + fn.FullName() + ", which reaches memory through reflection"})
		}
		if uses, ok := f.res.ForeignCall(f.info, x); ok {
			for i, u := range uses {
				if u.Kind == ArgUnknown {
					note(Note{Pos: x.Args[i].Pos(), Msg: "call of " + fn.FullName() + " may access the memory of its argument " + types.ExprString(x.Args[i]) + " unchecked"})
				}
			}
		}
		if libraryGoroutine(fn) {
			for _, a := range x.Args {
				if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
					inPlace[lit] = true // noted at the call, see libraryGoroutines
				}
			}
		}
		follow(fn)
		return
	}
	what := "call through a function value"
	if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
		if s := f.info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			what = "call of interface method " + types.ExprString(sel)
		}
	}
	note(Note{Pos: x.Pos(), Msg: what + ": the callee runs unchecked"})
}

// libraryGoroutine reports whether fn runs a function it is given on a
// goroutine of its own, later: a timer's or a finalizer's.
func libraryGoroutine(fn *types.Func) bool {
	switch fn.FullName() {
	case "time.AfterFunc", "runtime.SetFinalizer", "runtime.AddCleanup":
		return true
	}
	return false
}

// libraryGoroutines notes, anywhere in the package, each call that hands a
// function to a goroutine the runtime or a timer starts: it is part of no
// construct, so nothing it does is checked.
func (f *finder) libraryGoroutines(note func(Note)) {
	for _, file := range f.files {
		ast.Inspect(file, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if fn := Callee(f.info, call.Fun); fn != nil && libraryGoroutine(fn) {
					note(Note{Pos: call.Pos(), Msg: fn.FullName() + " runs its function on a goroutine of its own, part of no parallel construct"})
				}
			}
			return true
		})
	}
}
