package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A construct's goroutines attach their task (rt.Attach) only when its
// code may reach a call through a value: only then can a prologue find the
// task, and a construct that attaches nothing may still run as written
// when its checks are all proven away. Its code may reach one when, in its
// statements or in the functions of the linked packages they call by name
// (transitively):
//
//   - a call's callee is not known statically (a function value, a method
//     value, an interface method, a method expression, a method of a type
//     parameter), or a goroutine runs a function value;
//   - it ranges over a function;
//   - it calls a function outside the linked packages that may call back:
//     any function of a module other than the standard library (it may
//     hold a callback registered earlier), or a standard library function
//     given a function, an interface, a value with methods converted to an
//     interface, or something holding one of those (sort.Slice(xs, less),
//     fmt.Println(v)).

// Attach reports whether c's goroutines run attached to their task.
func (r *Result) Attach(c *Construct) bool { return r.attach[c] }

// linkAttach decides Attach for every construct of the linked results.
func linkAttach(results []*Result, owner map[*types.Func]*Result) {
	for _, r := range results {
		r.attach = map[*Construct]bool{}
		for _, c := range r.Constructs {
			r.attach[c] = reachesDynamic(r, c, owner)
		}
	}
}

// reachesDynamic reports whether c's code may reach a call through a value.
func reachesDynamic(r *Result, c *Construct, owner map[*types.Func]*Result) bool {
	type item struct {
		r *Result
		n ast.Node
	}
	var work []item
	for _, s := range c.List[c.First:c.Join] {
		work = append(work, item{r, s})
	}
	seen := map[*types.Func]bool{}
	follow := func(fn *types.Func) bool {
		fn = fn.Origin()
		o := owner[fn]
		if o == nil {
			return false
		}
		if !seen[fn] {
			seen[fn] = true
			work = append(work, item{o, o.Decls[fn].Body})
		}
		return true
	}
	for _, fk := range c.Forks {
		if fk.Callee != nil && !follow(fk.Callee) {
			return true
		}
	}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		if it.r.finder.dynamicAt(it.n, follow) {
			return true
		}
	}
	return false
}

// dynamicAt reports whether n holds one of the calls reachesDynamic looks
// for; it hands static callees to follow, which says whether they are in
// the linked packages.
func (f *finder) dynamicAt(n ast.Node, follow func(*types.Func) bool) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		switch x := m.(type) {
		case *ast.RangeStmt:
			if _, ok := underlying(f.info.TypeOf(x.X)).(*types.Signature); ok {
				found = true
			}
		case *ast.CallExpr:
			found = f.dynamicCallAt(x, follow)
		}
		return !found
	})
	return found
}

func (f *finder) dynamicCallAt(x *ast.CallExpr, follow func(*types.Func) bool) bool {
	if _, ok := ast.Unparen(x.Fun).(*ast.FuncLit); ok {
		return false // its body is inspected in place
	}
	tv := f.info.Types[x.Fun]
	if tv.IsType() || tv.IsBuiltin() {
		return false
	}
	if f.goMethod(x) != "" {
		for _, a := range x.Args {
			if _, ok := ast.Unparen(a).(*ast.FuncLit); !ok {
				return true // wg.Go(f): runs a function value
			}
		}
		return false
	}
	fn := Callee(f.info, x.Fun)
	if fn == nil {
		return true
	}
	if follow(fn) {
		return false
	}
	if fn.Pkg() != nil && fn.Pkg().Path() == "golang.org/x/sync/errgroup" && fn.Name() != "Go" && fn.Name() != "TryGo" {
		return false // the group's bookkeeping (SetLimit, Wait) calls nothing of the caller's
	}
	if fn.Pkg() == nil || !Standard(fn.Pkg().Path()) {
		return true
	}
	sig, _ := fn.Type().(*types.Signature)
	for i, a := range x.Args {
		t := f.info.TypeOf(a)
		if t == nil {
			continue
		}
		if carriesCode(t, 3) {
			return true
		}
		if sig != nil && i < sig.Params().Len() && types.IsInterface(paramAt(sig, i)) && types.NewMethodSet(t).Len() > 0 {
			return true
		}
	}
	return false
}

// paramAt is the type of the i'th argument of a call of sig (a variadic
// tail's element).
func paramAt(sig *types.Signature, i int) types.Type {
	n := sig.Params().Len()
	if sig.Variadic() && i >= n-1 {
		if s, ok := sig.Params().At(n - 1).Type().(*types.Slice); ok {
			return s.Elem()
		}
	}
	if i >= n {
		i = n - 1
	}
	return sig.Params().At(i).Type()
}

// carriesCode reports whether a value of type t is, or holds within depth
// levels, a function or an interface (something whose code a callee may
// run).
func carriesCode(t types.Type, depth int) bool {
	if depth < 0 {
		return false
	}
	switch u := underlying(t).(type) {
	case *types.Signature, *types.Interface:
		return true
	case *types.Pointer:
		return carriesCode(u.Elem(), depth-1)
	case *types.Slice:
		return carriesCode(u.Elem(), depth-1)
	case *types.Array:
		return carriesCode(u.Elem(), depth-1)
	case *types.Chan:
		return carriesCode(u.Elem(), depth-1)
	case *types.Map:
		return carriesCode(u.Key(), depth-1) || carriesCode(u.Elem(), depth-1)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if carriesCode(u.Field(i).Type(), depth-1) {
				return true
			}
		}
	}
	return false
}

// linkPrologues finishes the prologue decisions of linked results: a
// function that synchronizes through a callee (why, propagated by Link)
// loses its prologue, the constructs that attach are decided, and the
// named function a goroutine of such a construct starts gets a prologue
// too (it is started through rt.Forked, see rewrite); then Prologue
// becomes one set for all.
func linkPrologues(results []*Result, owner map[*types.Func]*Result, why map[*types.Func]string) {
	linkAttach(results, owner)
	for _, r := range results {
		for _, c := range r.Constructs {
			if !r.attach[c] {
				continue
			}
			for _, fk := range c.Forks {
				if fk.Body == nil && fk.Callee != nil {
					if o := owner[fk.Callee.Origin()]; o != nil {
						fn := fk.Callee.Origin()
						had := o.Detach[fn]
						o.finder.valued(fn, 0)
						if !had {
							delete(o.Detach, fn) // not a value: started by name, it keeps its clone
						}
					}
				}
			}
		}
	}
	for _, r := range results {
		for fn := range r.Prologue {
			if w := r.finder.callsSyncing(r.Decls[fn].Body, why); w != "" {
				delete(r.Prologue, fn)
				r.Detach[fn] = true
				r.Notes = append(r.Notes, Note{Pos: r.Decls[fn].Name.Pos(), Msg: fn.Name() + " calls a function that synchronizes (" + w + "): calls through its value run it unchecked"})
			}
		}
		for lit := range r.PrologueLits {
			if w := r.finder.callsSyncing(lit.Body, why); w != "" {
				delete(r.PrologueLits, lit)
				r.DetachLits[lit] = true
				r.Notes = append(r.Notes, Note{Pos: lit.Pos(), Msg: "function literal synchronizes (" + w + "): calls through its value run it unchecked"})
			}
		}
	}
	plain := map[*types.Func]bool{}
	for _, r := range results {
		for fn := range r.finder.detachPlainCallbacks() {
			plain[fn] = true
		}
	}
	all, detach := map[*types.Func]bool{}, map[*types.Func]bool{}
	for _, r := range results {
		for fn := range r.Prologue {
			all[fn] = true
		}
		for fn := range r.Detach {
			detach[fn] = true
		}
	}
	for fn := range plain {
		if all[fn] {
			delete(all, fn)
			detach[fn] = true
		}
	}
	for _, r := range results {
		r.Prologue, r.Detach = all, detach
	}
}

// callsSyncing says why body calls, by name, a function that synchronizes.
func (f *finder) callsSyncing(body *ast.BlockStmt, why map[*types.Func]string) string {
	w := ""
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if fn := f.callee(call); fn != nil {
				w = why[fn.Origin()]
				if w == "" {
					w = why[fn]
				}
			}
		}
		return w == ""
	})
	return w
}

// detachPlainCallbacks detaches the literals of this package given as
// arguments to a function of a package that is neither rewritten nor the
// standard library (a dependency built plain, -deps=none): that code may
// call them holding a lock of its own (a cache's compute callback, a
// Safe.Do(f)), which the checks do not see, so run checked two siblings'
// calls would look unordered (a false data race). They run as written,
// noted. It returns the functions of the linked packages given so, which
// Link detaches the same way. The standard library's callers of callbacks
// (sort.Slice, slices.SortFunc) take no lock around them, except the Once
// family, which onceLit handles.
func (f *finder) detachPlainCallbacks() map[*types.Func]token.Pos {
	fns := map[*types.Func]token.Pos{}
	for _, file := range f.files {
		ast.Inspect(file, func(n ast.Node) bool {
			x, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			to := Callee(f.info, x.Fun)
			if to == nil || to.Pkg() == nil || f.res.linked.has(to.Pkg()) || Standard(to.Pkg().Path()) {
				return true
			}
			why := " is given to " + to.FullName() + ", of " + to.Pkg().Path() + ", which is not rewritten and may call it under a lock of its own: calls through its value run it unchecked"
			for _, a := range x.Args {
				var id *ast.Ident
				switch a := ast.Unparen(a).(type) {
				case *ast.FuncLit:
					if f.res.PrologueLits[a] {
						delete(f.res.PrologueLits, a)
						f.res.DetachLits[a] = true
						f.res.Notes = append(f.res.Notes, Note{Pos: a.Pos(), Msg: "function literal" + why})
					}
				case *ast.Ident:
					id = a
				case *ast.SelectorExpr:
					id = a.Sel
				}
				if id == nil {
					continue
				}
				if fn, ok := f.info.Uses[id].(*types.Func); ok && f.res.linked.has(fn.Pkg()) {
					if _, seen := fns[fn.Origin()]; !seen {
						fns[fn.Origin()] = a.Pos()
						f.res.Notes = append(f.res.Notes, Note{Pos: a.Pos(), Msg: fn.Name() + why})
					}
				}
			}
			return true
		})
	}
	return fns
}
