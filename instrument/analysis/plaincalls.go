package analysis

import (
	"go/ast"
	"go/types"
)

// Calls from checked code into plain code. A package that is neither
// rewritten nor the standard library (a dependency without constructs
// under -deps=constructs, every one under -deps=none) may hold a callback
// of the rewritten code, stored earlier (dep.Hooks{F: f}), and call it
// under a lock of its own, which no check sees. Run checked under the
// calling block's task, two blocks' callbacks would look unordered though
// the lock orders them: a false data race. So such a call makes the
// goroutine's task opaque while it runs (rt/opaque.go): what the plain
// code calls back runs as written, unchecked, noted at the call.
//
// Which calls: a static call of a function or method of such a package,
// and a call of an interface method (or a type parameter's) that a method
// declared in such a package may implement: one of the same name whose
// signature is identical, or any of that name on a generic type. The
// packages looked at are those the package imports, directly or not; no
// other package's value can reach it. The standard library is modelled
// (stdcalls.go) and stays as it is; a rewritten package's code is checked
// through its clones and prologues. Not covered: a function value that
// plain code made (a closure a dependency returns), called from checked
// code; it runs whatever it calls back checked.

// PlainCall says whether the call x, in checked code, runs code of a
// package that is not rewritten and not the standard library, and gives the
// note for it. The join call of a construct is not one (the rewriter
// places the construct's Join right after it).
func (r *Result) PlainCall(info *types.Info, x *ast.CallExpr) (Note, bool) {
	for _, c := range r.Constructs {
		if c.JoinCall == x {
			return Note{}, false
		}
	}
	tv := info.Types[x.Fun]
	if tv.IsType() || tv.IsBuiltin() {
		return Note{}, false
	}
	if fn := Callee(info, x.Fun); fn != nil {
		pkg := fn.Pkg()
		if pkg == nil || r.linked.has(pkg) || Standard(pkg.Path()) {
			return Note{}, false
		}
		if pkg.Path() == "golang.org/x/sync/errgroup" {
			return Note{}, false // the group's bookkeeping calls nothing back; its Go is a fork
		}
		if pkg.Path() == concPool && poolConfig(fn) {
			return Note{}, false // conc's pool makers and setters only store a setting (knownpools.go)
		}
		return r.plainNote(info, x, "calls "+fn.FullName()+", of "+pkg.Path()), true
	}
	sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
	if !ok {
		return Note{}, false
	}
	if s := info.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
		return Note{}, false
	}
	m, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok {
		return Note{}, false
	}
	if impl := r.plainImplements(m); impl != nil {
		return r.plainNote(info, x, "calls "+m.Name()+" through an interface, which may run "+impl.FullName()+", of "+impl.Pkg().Path()), true
	}
	return Note{}, false
}

// plainNote is the note at a call into plain code: what it calls back runs
// unchecked, or, where the rewriter finds no place to mark the task, it
// runs checked and a lock the plain code takes around it is not seen.
func (r *Result) plainNote(info *types.Info, x *ast.CallExpr, calls string) Note {
	if r.plainDeferred == nil {
		r.plainDeferred = r.spanDefers()
	}
	inSpan, deferred := r.plainDeferred[x]
	if inSpan && !PlainDeferrable(info, x) {
		return Note{Pos: x.Pos(), Msg: calls + ", which is not rewritten, deferred (the call is not wrapped, which would move its arguments' evaluation): what it calls back runs checked, and a lock it takes around that is not seen"}
	}
	if !deferred && PlainMarkOf(info, x) == MarkNone {
		return Note{Pos: x.Pos(), Msg: calls + ", which is not rewritten, in a form goanomaly cannot wrap (untyped first argument of a generic function, more than 4 results): what it calls back runs checked, and a lock it takes around that is not seen"}
	}
	return Note{Pos: x.Pos(), Msg: calls + ", which is not rewritten: what it calls back runs unchecked"}
}

// plainImplements returns a method declared in a plain package that a call
// of the interface method m may run, or nil.
func (r *Result) plainImplements(m *types.Func) *types.Func {
	if r.plainMethods == nil {
		r.plainMethods = plainMethods(r.finder.pkg, r.linked)
	}
	sig := m.Type().(*types.Signature)
	for _, p := range r.plainMethods[m.Name()] {
		ps := p.Type().(*types.Signature)
		if recvGeneric(ps) || types.Identical(withoutRecv(ps), withoutRecv(sig)) {
			return p
		}
	}
	return nil
}

// plainMethods indexes by name the methods declared on the package-level
// types of the packages pkg imports, directly or not, that are neither
// linked nor the standard library.
func plainMethods(pkg *types.Package, linked linkedSet) map[string][]*types.Func {
	out := map[string][]*types.Func{}
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package)
	visit = func(p *types.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		for _, q := range p.Imports() {
			visit(q)
		}
		if p == pkg || linked.has(p) || Standard(p.Path()) {
			return
		}
		scope := p.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			if n, ok := tn.Type().(*types.Named); ok {
				for i := 0; i < n.NumMethods(); i++ {
					f := n.Method(i)
					out[f.Name()] = append(out[f.Name()], f)
				}
			}
		}
	}
	visit(pkg)
	return out
}

func recvGeneric(sig *types.Signature) bool { return sig.RecvTypeParams().Len() > 0 }

func withoutRecv(sig *types.Signature) *types.Signature {
	return types.NewSignatureType(nil, nil, nil, sig.Params(), sig.Results(), sig.Variadic())
}

// PlainMark is where the rewriter marks the task opaque in a call into
// plain code that has results (rt.Opaque; the results then pass through
// rt.Done1…Done4): on the receiver, on the function, or on the first
// argument. A call without results needs no mark: it is wrapped whole
// (rt.Plain).
type PlainMark int

const (
	MarkNone     PlainMark = iota // no place: the call stays as it is
	MarkWhole                     // no results: rt.Plain(func() { call })
	MarkRecv                      // Opaque(x).M(…)
	MarkRecvAddr                  // Opaque(&x).M(…): a pointer method of an addressable x
	MarkFunc                      // Opaque(pkg.F)(…)
	MarkArg                       // pkg.F(Opaque(a), …): a generic function whose type arguments are inferred
)

// PlainDeferrable reports whether x, a deferred call into plain code, can
// be deferred as rt.Plain(x.Fun) (no arguments) or rt.PlainArgsN(x.Fun)(
// args…): the defer statement then evaluates the same function value (a
// method value binds its receiver) and the same arguments, so wrapping it
// moves no evaluation. It needs a call without results of a function that
// is not variadic and not generic (the adapter's type arguments are
// inferred from the function value), with at most 3 arguments.
func PlainDeferrable(info *types.Info, x *ast.CallExpr) bool {
	if len(x.Args) > 3 || x.Ellipsis.IsValid() || PlainMarkOf(info, x) != MarkWhole {
		return false
	}
	sig, ok := info.TypeOf(x.Fun).(*types.Signature)
	if !ok || sig.Variadic() || sig.TypeParams() != nil {
		return false
	}
	if fn := Callee(info, x.Fun); fn != nil {
		if fs, ok := fn.Type().(*types.Signature); ok && (fs.TypeParams() != nil || fs.RecvTypeParams() != nil) {
			return false // instantiated here; as a value it may need type arguments written out
		}
	}
	return true
}

// PlainMarkOf chooses the mark for x, a call PlainCall accepted.
func PlainMarkOf(info *types.Info, x *ast.CallExpr) PlainMark {
	n := 0
	switch t := info.TypeOf(x).(type) {
	case nil:
	case *types.Tuple:
		n = t.Len()
	default:
		n = 1
	}
	if n == 0 {
		return MarkWhole
	}
	if n > 4 {
		return MarkNone
	}
	fun := ast.Unparen(x.Fun)
	if sel, ok := fun.(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			sig, _ := s.Obj().Type().(*types.Signature)
			rt := info.TypeOf(sel.X)
			_, isPtr := underlying(rt).(*types.Pointer)
			if sig != nil && sig.Recv() != nil && isPtrType(sig.Recv().Type()) && !isPtr && !types.IsInterface(rt) && !s.Indirect() {
				return MarkRecvAddr
			}
			return MarkRecv
		}
	}
	fn := Callee(info, x.Fun)
	if fn == nil {
		return MarkNone
	}
	if sig, _ := fn.Type().(*types.Signature); sig == nil || sig.TypeParams().Len() == 0 {
		return MarkFunc
	}
	switch fun.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return MarkFunc // instantiated explicitly: a value
	}
	if len(x.Args) > 0 && !SpreadsResults(info, x) {
		if b, ok := info.TypeOf(x.Args[0]).(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
			return MarkNone
		}
		return MarkArg
	}
	return MarkNone
}

func isPtrType(t types.Type) bool {
	_, ok := underlying(t).(*types.Pointer)
	return ok
}

// spanDefers maps the call of each defer statement to whether it is one of
// a construct's own statements (from its first fork to its join, or to
// the end when the join is deferred). The rewriter brackets a deferred
// call into plain code where it can add statements around it, whatever
// its form; among a construct's own statements it wraps it, which needs
// PlainDeferrable.
func (r *Result) spanDefers() map[*ast.CallExpr]bool {
	m := map[*ast.CallExpr]bool{}
	for _, f := range r.finder.files {
		ast.Inspect(f, func(n ast.Node) bool {
			if d, ok := n.(*ast.DeferStmt); ok {
				m[d.Call] = false
			}
			return true
		})
	}
	for _, c := range r.Constructs {
		end := c.Join + 1
		if c.Deferred != nil {
			end = len(c.List)
		}
		for _, s := range c.List[c.First:min(end, len(c.List))] {
			if call := ListedDefer(s); call != nil {
				m[call] = true
			}
		}
	}
	return m
}

// ListedDefer returns the call of n when n is a defer statement (labeled
// or not), or nil.
func ListedDefer(n ast.Node) *ast.CallExpr {
	for {
		l, ok := n.(*ast.LabeledStmt)
		if !ok {
			break
		}
		n = l.Stmt
	}
	if d, ok := n.(*ast.DeferStmt); ok {
		return d.Call
	}
	return nil
}
