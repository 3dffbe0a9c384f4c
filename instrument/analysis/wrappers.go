package analysis

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// A wrapper type hides a WaitGroup behind methods of its own: conc's
// WaitGroup (`Go(f)` adds one, starts a goroutine that defers Done and runs
// f; `Wait()` waits), or an errgroup-like Group of the user's module. A
// loop calling g.Go and then g.Wait is a construct exactly like wg.Go and
// wg.Wait, provided the wrapper's code shows it (wrapperRoles):
//
//   - every method of T is a Go or a Wait method on one field F of type
//     sync.WaitGroup, and T's fields are unexported and touched only by
//     T's methods, so no code but the wrapper's reaches its state;
//   - Go(f func()) (or func() error) is exactly `r.F.Add(1)` followed by a
//     `go func(){…}()` whose one Done of r.F is its last action (lastSignal)
//     and which calls f once, after nothing but defers: directly, or by
//     handing it to a function that calls its argument once (callsArg:
//     panics.Catcher.Try);
//   - Wait's first statement is r.F.Wait();
//   - neither starts another goroutine, uses a channel or a package
//     variable, or calls anything but builtins, sync and sync/atomic,
//     methods of the receiver's fields, function literals and f.
//
// Then Go forks f once, in a goroutine that signals the join after f, and
// Wait joins every goroutine Go started, as wg.Go and wg.Wait do. What the
// wrapper does around f (recovering a panic into a catcher, keeping the
// first error under a Once) runs as written, unchecked, like errgroup's
// code: its state is the wrapper's own, and only the wrapper's code,
// after f returns, touches it. The methods of the receiver's fields are
// assumed to touch only that field (conc's Catcher does); that is the
// rule's one assumption about code it does not read.

// wrapRole is what a wrapper method does.
type wrapRole struct {
	kind  string // "go" or "wait"
	typ   string // the wrapper type, as types.TypeString writes it
	field string // the WaitGroup field
	errs  bool   // go: f returns error; wait: Wait returns error
	// For a pool of the table (knownpools.go): which versions it was read
	// from; Wait returns results (valued); the task takes a context (ctx);
	// the task's signature is neither func() nor func() error (typed).
	known              string
	valued, ctx, typed bool
}

// wrapperFact carries a wrapper method's role to other packages.
type wrapperFact struct {
	Kind, Type, Field string // Kind "refused": a method that forks its argument, of a type that breaks the rule
	Err               bool
	Why               string // why it is refused
}

func (*wrapperFact) AFact() {}
func (f *wrapperFact) String() string {
	if f.Kind == "refused" {
		return "no wrapper: " + f.Why
	}
	return "wrapper " + f.Kind + " of " + f.Type + " on field " + f.Field
}

// callsArgFact says that a function calls its func parameter Index once,
// after nothing but defers, and starts no goroutine.
type callsArgFact struct{ Index int }

func (*callsArgFact) AFact()           {}
func (f *callsArgFact) String() string { return "calls its argument once" }

// Wrappers is what is known of wrapper methods and of functions that call
// their argument once, across the packages analysed together.
type Wrappers struct {
	roles    map[*types.Func]wrapRole
	callsArg map[*types.Func]int
	refused  map[*types.Func]string // methods that start a goroutine running their func parameter, in a type that breaks the rule: why
	// The same by full name: a package built in two variants (p and
	// p [p.test], the same source but for p's _test files) has two objects
	// for each function, and a group may hold only one variant of p while
	// another package imports the other (conc's panics under ./...).
	rolesByName    map[string]wrapRole
	callsArgByName map[string]int
}

// funcKey names fn alike in every variant of its package.
func funcKey(fn *types.Func) string { return fn.Origin().FullName() }

func (w *Wrappers) setRole(fn *types.Func, r wrapRole) {
	w.roles[fn.Origin()] = r
	w.rolesByName[funcKey(fn)] = r
}

func (w *Wrappers) setCallsArg(fn *types.Func, i int) {
	w.callsArg[fn.Origin()] = i
	w.callsArgByName[funcKey(fn)] = i
}

// argCalled is the index of the func parameter fn calls once, if it does.
func (w *Wrappers) argCalled(fn *types.Func) (int, bool) {
	if i, ok := w.callsArg[fn.Origin()]; ok {
		return i, true
	}
	i, ok := w.callsArgByName[funcKey(fn)]
	return i, ok
}

// NewWrappers returns an empty set.
func NewWrappers() *Wrappers {
	return &Wrappers{roles: map[*types.Func]wrapRole{}, callsArg: map[*types.Func]int{}, refused: map[*types.Func]string{},
		rolesByName: map[string]wrapRole{}, callsArgByName: map[string]int{}}
}

// Find adds the wrapper methods and argument-calling functions of one
// package; call it for every package of the group, dependencies first,
// or twice over the group (a wrapper's Go may hand f to another
// package's function).
func (w *Wrappers) Find(files []*ast.File, info *types.Info, pkg *types.Package) {
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, file := range files {
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					decls[fn] = fd
				}
			}
		}
	}
	for fn, d := range decls {
		if i, ok := callsArgOnce(d, info); ok {
			w.setCallsArg(fn, i)
		}
	}
	byType := map[*types.Named][]*types.Func{}
	for fn := range decls {
		if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
			if n := namedOf(recv.Type()); n != nil {
				byType[n] = append(byType[n], fn)
			}
		}
	}
	for named, methods := range byType {
		roles, why := w.typeRoles(named, methods, decls, files, info, pkg)
		for fn, r := range roles {
			w.setRole(fn, r)
		}
		if why == "" {
			for _, fn := range methods {
				delete(w.refused, fn) // refused by an earlier round that had not seen a callee's package yet
			}
			continue
		}
		for _, fn := range methods {
			if startsParam(decls[fn], info) {
				w.refused[fn] = types.TypeString(named, nil) + " is not a wrapper goanomaly can follow: " + why
			}
		}
	}
}

func (w *Wrappers) role(fn *types.Func) (wrapRole, bool) {
	if fn == nil {
		return wrapRole{}, false
	}
	if w == nil {
		return knownPoolRole(fn.Origin()) // knownpools.go
	}
	r, ok := w.roles[fn.Origin()]
	if !ok && w.refused[fn.Origin()] == "" { // a variant not analysed here takes the other's verdict
		r, ok = w.rolesByName[funcKey(fn)]
	}
	if !ok {
		r, ok = knownPoolRole(fn.Origin()) // knownpools.go
	}
	return r, ok
}

func namedOf(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := t.(*types.Named)
	return n
}

// typeRoles classifies every method of named, or says why one of them,
// or the type's fields, breaks the rule above.
func (w *Wrappers) typeRoles(named *types.Named, methods []*types.Func, decls map[*types.Func]*ast.FuncDecl, files []*ast.File, info *types.Info, pkg *types.Package) (map[*types.Func]wrapRole, string) {
	st, ok := named.Underlying().(*types.Struct)
	if !ok || named.TypeParams().Len() > 0 || named.NumMethods() != len(methods) {
		return nil, "it is not a struct type whose methods are all declared with bodies"
	}
	for i := range st.NumFields() {
		if st.Field(i).Exported() || st.Field(i).Embedded() {
			return nil, "its field " + st.Field(i).Name() + " is exported or embedded, so code outside its methods may reach its state"
		}
	}
	if !fieldsPrivate(named, decls, files, info) {
		return nil, "code outside its methods uses its fields"
	}
	roles := map[*types.Func]wrapRole{}
	field, gos, waits := "", 0, 0
	for _, fn := range methods {
		r, why := w.methodRole(decls[fn], info, pkg)
		if why != "" {
			return nil, "its method " + fn.Name() + " " + why
		}
		if field != "" && r.field != field {
			return nil, "its methods use two WaitGroups"
		}
		field = r.field
		r.typ = types.TypeString(named, nil)
		roles[fn] = r
		if r.kind == "go" {
			gos++
		} else {
			waits++
		}
	}
	if gos == 0 || waits == 0 {
		return nil, "it has no Go or no Wait method"
	}
	return roles, ""
}

// fieldsPrivate reports whether every selection of a field of named in
// the package stands in a method of named.
func fieldsPrivate(named *types.Named, decls map[*types.Func]*ast.FuncDecl, files []*ast.File, info *types.Info) bool {
	ok := true
	for _, file := range files {
		for _, d := range file.Decls {
			in := false
			if fd, isFn := d.(*ast.FuncDecl); isFn && fd.Recv != nil {
				if fn, _ := info.Defs[fd.Name].(*types.Func); fn != nil {
					in = namedOf(fn.Type().(*types.Signature).Recv().Type()) == named
				}
			}
			ast.Inspect(d, func(n ast.Node) bool {
				if sel, isSel := n.(*ast.SelectorExpr); isSel && !in {
					if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal && namedOf(s.Recv()) == named {
						ok = false
					}
				}
				if lit, isLit := n.(*ast.CompositeLit); isLit && !in && namedOf(info.TypeOf(lit)) == named && len(lit.Elts) > 0 {
					ok = false // T{f: v} sets a field outside the methods
				}
				return ok
			})
		}
	}
	return ok
}

// methodRole classifies one method as Go or Wait, or says why it is
// neither.
func (w *Wrappers) methodRole(d *ast.FuncDecl, info *types.Info, pkg *types.Package) (wrapRole, string) {
	if d == nil || d.Recv == nil || len(d.Recv.List) != 1 || len(d.Recv.List[0].Names) != 1 {
		return wrapRole{}, "has no named receiver"
	}
	recv, _ := info.Defs[d.Recv.List[0].Names[0]].(*types.Var)
	if recv == nil || !isPtr(recv.Type()) {
		return wrapRole{}, "has no pointer receiver"
	}
	if why := w.quiet(d.Body, recv, info); why != "" {
		return wrapRole{}, why
	}
	sig := info.Defs[d.Name].(*types.Func).Type().(*types.Signature)
	if sig.Params().Len() == 1 && sig.Results().Len() == 0 {
		return w.goRole(d, recv, sig, info)
	}
	if sig.Params().Len() != 0 || sig.Results().Len() > 1 || len(d.Body.List) == 0 {
		return wrapRole{}, "is neither Go(f) nor Wait()"
	}
	field, ok := wgCall(d.Body.List[0], recv, "Wait", info)
	if !ok {
		return wrapRole{}, "does not start with the Wait of a WaitGroup field"
	}
	errs := sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type())
	return wrapRole{kind: "wait", field: field, errs: errs}, ""
}

// goRole checks the Go shape: r.F.Add(1); go func(){ …; f(); … }().
func (w *Wrappers) goRole(d *ast.FuncDecl, recv *types.Var, sig *types.Signature, info *types.Info) (wrapRole, string) {
	const shape = "is not r.wg.Add(1) followed by a go statement of a function literal"
	fsig, ok := sig.Params().At(0).Type().Underlying().(*types.Signature)
	if !ok || fsig.Params().Len() != 0 || fsig.Results().Len() > 1 {
		return wrapRole{}, "takes no func() or func() error"
	}
	errs := fsig.Results().Len() == 1
	if errs && !types.Identical(fsig.Results().At(0).Type(), types.Universe.Lookup("error").Type()) {
		return wrapRole{}, "takes no func() or func() error"
	}
	if len(d.Body.List) != 2 {
		return wrapRole{}, shape
	}
	field, ok := wgCall(d.Body.List[0], recv, "Add", info)
	if !ok || constInt(info, d.Body.List[0].(*ast.ExprStmt).X.(*ast.CallExpr).Args[0]) != 1 {
		return wrapRole{}, shape
	}
	g, ok := d.Body.List[1].(*ast.GoStmt)
	if !ok || len(g.Call.Args) != 0 {
		return wrapRole{}, shape
	}
	lit, ok := g.Call.Fun.(*ast.FuncLit)
	if !ok {
		return wrapRole{}, shape
	}
	var dones []*ast.CallExpr
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if _, isDone := wgCall(&ast.ExprStmt{X: call}, recv, "Done", info); isDone {
				dones = append(dones, call)
			}
		}
		return true
	})
	if why := (&finder{}).lastSignal(lit.Body, dones); why != "" {
		return wrapRole{}, "starts a goroutine that " + strings.TrimPrefix(why, "the goroutine ")
	}
	if !fieldOf(dones[0], recv, field, info) {
		return wrapRole{}, "adds to one WaitGroup and signals another"
	}
	param := info.Defs[d.Type.Params.List[0].Names[0]]
	if len(d.Type.Params.List[0].Names) != 1 || !w.callsOnceAfterDefers(lit.Body, param, info) {
		return wrapRole{}, "does not call its function exactly once in the goroutine, after nothing but defers"
	}
	return wrapRole{kind: "go", field: field, errs: errs}, ""
}

// wgCall matches the statement r.F.<name>(…) with F a sync.WaitGroup
// field of the receiver r, and returns F.
func wgCall(s ast.Stmt, recv *types.Var, name string, info *types.Info) (string, bool) {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return "", false
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok {
		return "", false
	}
	fn := Callee(info, call.Fun)
	if fn == nil || fn.FullName() != "(*sync.WaitGroup)."+name {
		return "", false
	}
	sel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	fsel, ok := ast.Unparen(sel.X).(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	if id, ok := ast.Unparen(fsel.X).(*ast.Ident); !ok || info.Uses[id] != recv {
		return "", false
	}
	return fsel.Sel.Name, true
}

// fieldOf reports whether call is r.field.Done().
func fieldOf(call *ast.CallExpr, recv *types.Var, field string, info *types.Info) bool {
	got, ok := wgCall(&ast.ExprStmt{X: call}, recv, "Done", info)
	return ok && got == field
}

func constInt(info *types.Info, e ast.Expr) int64 {
	if tv, ok := info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Int {
		if v, exact := constant.Int64Val(tv.Value); exact {
			return v
		}
	}
	return -1
}

// callsOnceAfterDefers reports whether body uses p exactly once, in a
// top-level statement preceded only by defers: as `p()`, `err := p()`,
// `if err := p(); …`, or as an argument of a call whose callee calls it
// once (callsArg).
func (w *Wrappers) callsOnceAfterDefers(body *ast.BlockStmt, p types.Object, info *types.Info) bool {
	uses := 0
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == p {
			uses++
		}
		return true
	})
	if uses != 1 {
		return false
	}
	for _, s := range body.List {
		if w.callsIn(s, p, info) {
			return true
		}
		if _, ok := s.(*ast.DeferStmt); !ok {
			return false
		}
	}
	return false
}

// callsIn reports whether s calls p at its top: p(), v := p(), if v := p(); …,
// or g(…, p, …) with g calling that argument once.
func (w *Wrappers) callsIn(s ast.Stmt, p types.Object, info *types.Info) bool {
	var e ast.Expr
	switch s := s.(type) {
	case *ast.ExprStmt:
		e = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			e = s.Rhs[0]
		}
	case *ast.IfStmt:
		if s.Init != nil {
			return w.callsIn(s.Init, p, info)
		}
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && info.Uses[id] == p {
		return true
	}
	fn := Callee(info, call.Fun)
	if fn == nil {
		return false
	}
	i, ok := w.argCalled(fn)
	if !ok || i >= len(call.Args) {
		return false
	}
	id, ok := ast.Unparen(call.Args[i]).(*ast.Ident)
	return ok && info.Uses[id] == p
}

// callsArgOnce finds a parameter of function type that d calls once, as
// `p()` at the top level after nothing but defers, and uses nowhere else,
// in a body that starts no goroutine.
func callsArgOnce(d *ast.FuncDecl, info *types.Info) (int, bool) {
	if hasGo(d.Body) {
		return 0, false
	}
	i := 0
	for _, field := range d.Type.Params.List {
		for _, name := range field.Names {
			p := info.Defs[name]
			if _, ok := p.Type().Underlying().(*types.Signature); ok {
				if (&Wrappers{}).callsOnceAfterDefers(d.Body, p, info) {
					return i, true
				}
			}
			i++
		}
		if len(field.Names) == 0 {
			i++
		}
	}
	return 0, false
}

func hasGo(b *ast.BlockStmt) bool {
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		if _, ok := n.(*ast.GoStmt); ok {
			found = true
		}
		return !found
	})
	return found
}

// quiet says why a wrapper method's body does not keep to its own
// state, or returns "": it may use no channel, no package variable, and
// call only builtins, sync and sync/atomic, methods of the receiver's
// fields, function literals and its parameters.
func (w *Wrappers) quiet(body *ast.BlockStmt, recv *types.Var, info *types.Info) string {
	why := ""
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt, *ast.SelectStmt:
			why = "uses a channel"
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				why = "uses a channel"
			}
		case *ast.RangeStmt:
			if isChan(info.TypeOf(n.X)) {
				why = "uses a channel"
			}
		case *ast.Ident:
			if v, isVar := info.Uses[n].(*types.Var); isVar && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
				why = "uses package variable " + n.Name
			}
		case *ast.CallExpr:
			if !calmCall(n, recv, info) {
				why = "calls " + types.ExprString(n.Fun) + ", which may touch memory beyond the wrapper's"
			}
		}
		return why == ""
	})
	return why
}

// calmCall reports whether a call in a wrapper method is one quiet allows.
func calmCall(call *ast.CallExpr, recv *types.Var, info *types.Info) bool {
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return true
	}
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.FuncLit:
		return true
	case *ast.Ident:
		switch o := info.Uses[fun].(type) {
		case *types.Builtin:
			return true
		case *types.Var:
			return o.Pkg() != nil && o.Parent() != nil && o.Parent() != o.Pkg().Scope() // a parameter or local: f itself
		}
		return false
	case *ast.SelectorExpr:
		fn := Callee(info, fun)
		if fn == nil {
			return false
		}
		if fn.Pkg() != nil && (fn.Pkg().Path() == "sync" || fn.Pkg().Path() == "sync/atomic") {
			return true
		}
		if fsel, ok := ast.Unparen(fun.X).(*ast.SelectorExpr); ok {
			if id, ok := ast.Unparen(fsel.X).(*ast.Ident); ok && info.Uses[id] == recv {
				return true // a method of the receiver's field
			}
		}
	}
	return false
}

// startsParam reports whether a method's body has a go statement that
// uses one of its func parameters: it forks its caller's function.
func startsParam(d *ast.FuncDecl, info *types.Info) bool {
	if d == nil {
		return false
	}
	params := map[types.Object]bool{}
	for _, field := range d.Type.Params.List {
		for _, name := range field.Names {
			if _, ok := info.Defs[name].Type().Underlying().(*types.Signature); ok {
				params[info.Defs[name]] = true
			}
		}
	}
	found := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if g, ok := n.(*ast.GoStmt); ok {
			ast.Inspect(g, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok && params[info.Uses[id]] {
					found = true
				}
				return !found
			})
		}
		return !found
	})
	return found
}
