package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
)

// Calls the checks cannot follow. The rewriter checks a construct's code,
// the clones of the functions it calls by name, and (dynamic.go) the
// functions of the linked packages it calls through values, which run
// their checked version from a prologue. What stays unchecked: a function
// value, method value or iterator statically known to come from a package
// that is not rewritten (a method value of a standard type, a function of
// a plain package), a function that may not have a prologue (it calls
// recover, synchronizes, carries a //go: directive), and reflection. Each
// such place in a construct's code, or in a function that code calls, gets
// a note at its position, once, and counts against the construct: vet
// does not call it fully proven (plan.Construct.Unchecked). A call through
// a value whose callee is not known statically is checked when the callee
// turns out to be in a rewritten package, and runs as written otherwise.

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
		inC := map[token.Pos]bool{}
		for _, fk := range c.Forks {
			if fk.Callee != nil {
				follow(fk.Callee)
			}
			if fk.Value != nil {
				work = append(work, fk.Value) // a worker held in a variable (taskvar.go)
				// It calls recover, say: it runs as written.
				if !res.PrologueLits[fk.Value] {
					n := Note{Pos: fk.Node.Pos(), Msg: "goroutine runs " + fk.ValueVar.Name() + ", whose function literal has no checked version (" + f.noteAt(fk.Value.Pos(), "no prologue") + ")"}
					inC[n.Pos] = true
					res.unchecked[c] = append(res.unchecked[c], n)
					add(n)
				}
			}
			if fk.ValueWhy != "" {
				n := Note{Pos: fk.Node.Pos(), Msg: "goroutine runs " + fk.ValueWhy + "; the function it runs is not followed (checked through its prologue if it has one, as one block, not a block per item)"}
				inC[n.Pos] = true
				res.unchecked[c] = append(res.unchecked[c], n)
				add(n)
			}
		}
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
	// Clones that only another package's constructs reach, or calls
	// through values (those with a prologue: their notes are Callee).
	for fn := range res.Clones {
		if d := res.Decls[fn]; d != nil && fn.Pkg() == f.pkg {
			note := add
			if res.Prologue[fn] {
				note = func(n Note) { n.Callee = true; add(n) }
			}
			f.dynamicCalls(d.Body, note, func(*types.Func) {})
		}
	}
	f.libraryGoroutines(add)
	sort.Slice(res.Notes, func(i, j int) bool { return res.Notes[i].Pos < res.Notes[j].Pos })
}

// dynamicCalls reports, in checked code n, each place whose callee runs
// unchecked; it hands the static callees to follow.
func (f *finder) dynamicCalls(n ast.Node, note func(Note), follow func(*types.Func)) {
	inPlace := map[*ast.FuncLit]bool{}
	if lit, ok := n.(*ast.FuncLit); ok {
		inPlace[lit] = true
	}
	called := map[*ast.Ident]bool{}
	ast.Inspect(n, func(m ast.Node) bool {
		switch x := m.(type) {
		case *ast.FuncLit:
			if !inPlace[x] && !f.res.PrologueLits[x] {
				note(Note{Pos: x.Pos(), Msg: f.noteAt(x.Pos(), "function literal runs unchecked when called through its value")})
				return false
			}
		case *ast.CallExpr:
			f.dynamicCall(x, inPlace, note, follow)
			markCalled(x, f.info, called)
		case *ast.Ident:
			if fn, ok := f.info.Uses[x].(*types.Func); ok && !called[x] && !isInterfaceMethod(fn) {
				f.valueNote(x, fn.Origin(), note)
			}
		case *ast.RangeStmt:
			f.rangeFuncNote(x, note)
		}
		return true
	})
}

// markCalled records the identifier a call calls by (f, x.M, pkg.F, f[T]).
func markCalled(x *ast.CallExpr, info *types.Info, called map[*ast.Ident]bool) {
	fun := ast.Unparen(x.Fun)
	switch g := fun.(type) {
	case *ast.IndexExpr:
		fun = ast.Unparen(g.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(g.X)
	}
	switch g := fun.(type) {
	case *ast.Ident:
		called[g] = true
	case *ast.SelectorExpr:
		if s := info.Selections[g]; s == nil || s.Kind() == types.MethodVal {
			called[g.Sel] = true
		}
	}
}

// valueNote notes a function used as a value in checked code when calls
// through the value cannot run it checked.
func (f *finder) valueNote(x *ast.Ident, fn *types.Func, note func(Note)) {
	if fn.Pkg() == nil {
		return
	}
	if !f.res.linked.has(fn.Pkg()) {
		note(Note{Pos: x.Pos(), Msg: "function value " + fn.FullName() + " is in " + fn.Pkg().Path() + ", which is not rewritten: calls through it run unchecked"})
		return
	}
	if !f.res.Prologue[fn] {
		note(Note{Pos: x.Pos(), Msg: f.noteAt(x.Pos(), "function value "+fn.Name()+" has no checked version: calls through it run unchecked")})
	}
}

// rangeFuncNote notes a range over a function that statically comes from a
// package that is not rewritten.
func (f *finder) rangeFuncNote(x *ast.RangeStmt, note func(Note)) {
	if _, ok := underlying(f.info.TypeOf(x.X)).(*types.Signature); !ok {
		return
	}
	call, ok := ast.Unparen(x.X).(*ast.CallExpr)
	if !ok {
		return // a function or a function value: noted as a value if it must be
	}
	if fn := f.callee(call); fn != nil && fn.Pkg() != nil && !f.res.linked.has(fn.Pkg()) {
		note(Note{Pos: x.X.Pos(), Msg: "range over a function " + fn.FullName() + " returns, from " + fn.Pkg().Path() + ", which is not rewritten: the iterator runs unchecked"})
	}
}

// noteAt is the message of the package's note at pos, or msg.
func (f *finder) noteAt(pos token.Pos, msg string) string {
	for _, n := range f.res.Notes {
		if n.Pos == pos {
			return n.Msg
		}
	}
	return msg
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
		return
	}
	tv := f.info.Types[x.Fun]
	if tv.IsType() || tv.IsBuiltin() {
		return
	}
	fn := Callee(f.info, x.Fun)
	if fn == nil {
		if n, ok := f.res.PlainCall(f.info, x); ok {
			note(n) // an interface method a plain package's method may implement
		}
		return // through a value: checked when the callee is in a rewritten package
	}
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
	if n, ok := f.res.PlainCall(f.info, x); ok {
		note(n)
	}
	if SpreadsResults(f.info, x) && fn.Pkg() != nil && f.res.linked.has(fn.Pkg()) {
		note(Note{Pos: x.Pos(), Msg: "call " + types.ExprString(x) + " passes the results of a call with several results, which the checked version of " + fn.Name() + " cannot take beside the task: it runs as written, unchecked"})
	}
	if libraryGoroutine(fn) {
		for _, a := range x.Args {
			if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
				inPlace[lit] = true // noted at the call, see libraryGoroutines
			}
		}
	}
	follow(fn)
}

// libraryGoroutine reports whether fn runs a function it is given on a
// goroutine of its own, later: a timer's, a finalizer's, or iter.Pull's
// coroutine.
func libraryGoroutine(fn *types.Func) bool {
	switch fn.Origin().FullName() {
	case "time.AfterFunc", "runtime.SetFinalizer", "runtime.AddCleanup",
		"iter.Pull", "iter.Pull2": // the iterator runs on a coroutine, whose goroutine no task is attached to
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
					note(Note{Pos: call.Pos(), Msg: fn.Origin().FullName() + " runs its function on a goroutine of its own, part of no parallel construct"})
				}
			}
			return true
		})
	}
}

// SpreadsResults reports whether x is f(g()), the one argument a call with
// several results: no other argument, the task of f's checked clone
// included, may be written beside it, so f is called as written.
func SpreadsResults(info *types.Info, x *ast.CallExpr) bool {
	if len(x.Args) != 1 {
		return false
	}
	t, ok := info.TypeOf(x.Args[0]).(*types.Tuple)
	return ok && t.Len() > 1
}
