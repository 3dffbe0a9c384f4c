package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Calls through function values. A call through a function value, a method
// value or an interface does not say which function it calls, so it cannot
// pass the task as a parameter. Instead a construct's goroutines attach
// their task to themselves (rt.Attach), and every function that may be
// called that way begins with a prologue that runs its checked version
// when the calling goroutine has a task:
//
//	if _ga_rt.Attached() {
//		if _ga_t := _ga_rt.Current(); _ga_t != nil { return f_ga_(_ga_t, args…) }
//	}
//
// The functions that get one (Result.Prologue, Result.PrologueLits) are
// those whose value the rewritten packages can take:
//
//   - function literals not called where they are written and not a
//     goroutine's body (stored, passed: parallel(n, func(i int){…}));
//   - named functions and methods used as values (f, x.M, T.M);
//   - the methods of the types converted to an interface in the rewritten
//     packages (the whole method set: a value put in an `any` can be
//     asserted to any interface later, by any package), and of the types a
//     generic function is instantiated with (a method called on a type
//     parameter is a call through an interface).
//
// A method never converted and never used as a value can only be called by
// name, which the clones already follow, so it keeps no prologue (a small
// method called in a hot loop stays inlinable). Functions with a //go:
// directive, //goanomaly:ignore, or a direct call of recover (a prologue
// would move the recover one frame down, where it returns nil) get none,
// with a note; so do those that synchronize in a way the model does not
// order other than by receiving (see noPrologue). Those that call recover
// or synchronize detach their goroutine while they run instead (Detach,
// DetachLits): they run as written, and so does everything they reach, so
// accesses their untracked locks order are never checked as if unordered.

// findDynamic fills Result.Prologue and Result.PrologueLits from the
// package's functions, and records the functions of other packages used
// as values (dynExternal) for Link.
func (f *finder) findDynamic() {
	res := f.res
	res.Prologue, res.PrologueLits = map[*types.Func]bool{}, map[*ast.FuncLit]bool{}
	res.Detach, res.DetachLits = map[*types.Func]bool{}, map[*ast.FuncLit]bool{}
	converted := map[types.Type]bool{}
	for _, file := range f.files {
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body != nil && !Ignored(d) {
					sig, _ := f.info.Defs[d.Name].Type().(*types.Signature)
					f.dynamicIn(d.Body, sig, converted)
				}
			case *ast.GenDecl: // var hook = func(…){…}: package-level values
				if d.Tok == token.VAR {
					f.dynamicIn(d, nil, converted)
				}
			}
		}
	}
	for _, inst := range f.info.Instances {
		for i := 0; i < inst.TypeArgs.Len(); i++ {
			converted[inst.TypeArgs.At(i)] = true
		}
	}
	for t := range converted {
		if types.IsInterface(t) {
			continue
		}
		ms := types.NewMethodSet(t)
		for i := 0; i < ms.Len(); i++ {
			if fn, ok := ms.At(i).Obj().(*types.Func); ok {
				f.valued(fn.Origin(), token.NoPos)
			}
		}
	}
}

// dynamicIn scans one function body (of signature sig) for the literals,
// values and conversions findDynamic looks for.
func (f *finder) dynamicIn(body ast.Node, sig *types.Signature, converted map[types.Type]bool) {
	inPlace := map[ast.Expr]bool{}
	called := map[*ast.Ident]bool{}
	once := map[*ast.FuncLit]string{} // literals given to sync.OnceValue & co: the function
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			if c, ok := once[x]; ok {
				f.onceLit(x, c)
			} else if !inPlace[x] {
				f.dynamicLit(x)
			}
			lsig, _ := f.info.TypeOf(x).(*types.Signature)
			f.dynamicIn(x.Body, lsig, converted)
			return false
		case *ast.CallExpr:
			fun := ast.Unparen(x.Fun)
			inPlace[fun] = true
			if ix, ok := fun.(*ast.IndexExpr); ok {
				fun = ast.Unparen(ix.X)
			} else if ix, ok := fun.(*ast.IndexListExpr); ok {
				fun = ast.Unparen(ix.X)
			}
			switch g := fun.(type) {
			case *ast.Ident:
				called[g] = true
			case *ast.SelectorExpr:
				if s := f.info.Selections[g]; s == nil || s.Kind() == types.MethodVal {
					called[g.Sel] = true // T.M(x) calls through a method expression
				}
			}
			if f.goMethod(x) != "" {
				for _, a := range x.Args {
					inPlace[ast.Unparen(a)] = true // a goroutine's body
				}
			}
			if c := onceCall(f.info, x); c != "" {
				for _, a := range x.Args {
					if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
						once[lit] = c
					}
				}
			}
			f.callConversions(x, converted)
		case *ast.Ident:
			if fn, ok := f.info.Uses[x].(*types.Func); ok && !called[x] && !isInterfaceMethod(fn) {
				f.valued(fn.Origin(), x.Pos())
			}
		case *ast.ReturnStmt:
			if sig != nil && len(x.Results) == sig.Results().Len() {
				for i, e := range x.Results {
					f.convertTo(sig.Results().At(i).Type(), e, converted)
				}
			}
		}
		f.conversions(n, converted)
		return true
	})
}

// dynamicLit decides about a function literal that may be called through
// its value.
func (f *finder) dynamicLit(lit *ast.FuncLit) {
	if why := f.noPrologue(lit.Body, nil); why != "" {
		f.res.Notes = append(f.res.Notes, Note{Pos: lit.Pos(), Msg: "function literal " + why + ": calls through its value run it unchecked", Callee: true})
		f.res.DetachLits[lit] = true
		return
	}
	f.res.PrologueLits[lit] = true
	// Its checked copy calls the clones of what it calls, which it may
	// be the only construct code to reach (a literal made in plain code
	// and handed to a helper that forks).
	f.drain([]*ast.BlockStmt{lit.Body})
}

// onceLit decides about a function literal given to sync.OnceFunc,
// OnceValue or OnceValues (named by call): the first caller runs
// it, under the Once's lock, and every other caller waits for it, an order
// the model does not follow. Checked, its writes would conflict with the
// siblings' reads after the call (a false data race); it runs as written,
// its goroutine detached, noted.
func (f *finder) onceLit(lit *ast.FuncLit, call string) {
	f.res.Notes = append(f.res.Notes, Note{Pos: lit.Pos(), Msg: "function literal runs once under " + call + ", which orders it before every other caller's return: calls through its value run it unchecked"})
	f.res.DetachLits[lit] = true
}

// onceCall names the sync function or method x calls that runs its
// function argument once for all callers, or "".
func onceCall(info *types.Info, x *ast.CallExpr) string {
	fn := Callee(info, x.Fun)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return ""
	}
	switch fn.Origin().FullName() {
	case "sync.OnceFunc", "sync.OnceValue", "sync.OnceValues": // Once.Do at the call site: "uses sync.Once"
		return fn.Origin().FullName()
	}
	return ""
}

// valued records that fn may be called through a value: it gets a
// prologue and a clone, here or (Link) in the package that declares it.
func (f *finder) valued(fn *types.Func, pos token.Pos) {
	if fn.Pkg() == nil || f.res.Prologue[fn] {
		return
	}
	if fn.Pkg() != f.pkg {
		f.res.dynExternal = append(f.res.dynExternal, fn)
		return
	}
	d := f.res.Decls[fn]
	if d == nil {
		return // no body here (assembly, another file left as is)
	}
	why := ""
	if !cloneable(d) {
		why = "carries a //go: directive, //goanomaly:ignore or is init or main"
	} else if why = f.noPrologue(d.Body, fn); why != "" {
		f.res.Detach[fn] = true
	}
	if why != "" {
		if pos.IsValid() {
			f.res.Notes = append(f.res.Notes, Note{Pos: pos, Msg: fn.Name() + " " + why + ": calls through its value run it unchecked", Callee: true})
		}
		return
	}
	f.res.Prologue[fn] = true
	var work []*ast.BlockStmt
	f.visitClone(fn, &work)
	f.drain(work)
}

// noPrologue says why a body cannot run its checked version from a
// prologue, or "": it calls recover directly (the prologue's extra frame
// would make recover return nil), or it synchronizes in a way the model
// does not order. Receiving is allowed (imaging's callbacks drain a
// channel of rows): a receive orders the receiver after a send, and a
// send in a construct's checked code makes the construct unstructured,
// while code that sends gets no prologue and runs as written.
func (f *finder) noPrologue(body *ast.BlockStmt, fn *types.Func) string {
	why := ""
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && id.Name == "recover" {
				if _, ok := f.info.Uses[id].(*types.Builtin); ok {
					why = "calls recover"
				}
			}
		}
		return why == ""
	})
	if why != "" {
		return why
	}
	if f.dynOwned == nil {
		f.dynOwned = f.ownedOps()
	}
	allowed := map[ast.Node]bool{}
	for n := range f.dynOwned {
		allowed[n] = true
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.UnaryExpr:
			if x.Op == token.ARROW {
				allowed[x] = true
			}
		case *ast.RangeStmt:
			if isChan(f.info.TypeOf(x.X)) {
				allowed[x.X] = true
			}
		}
		return true
	})
	if w := f.syncIn(body, allowed, func(ast.Node) bool { return false }); w != "" {
		return "synchronizes (" + w + ")"
	}
	return ""
}

func isInterfaceMethod(fn *types.Func) bool {
	sig, _ := fn.Type().(*types.Signature)
	return sig != nil && sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
}
