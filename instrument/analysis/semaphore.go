package analysis

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// A channel semaphore bounds how many goroutines of a construct run at
// once: `sem := make(chan struct{}, k)`, the parent sends on it right
// before each start (acquire), each goroutine receives from it at its end
// (release). Its operations do order the goroutines: a release happens
// before a later acquire completes. The analysis relies on none of that
// order, so the construct is checked as the plain loop, which is exact
// when every pair of goroutines (and every goroutine and the parent's
// later code) runs at once in some schedule. That holds when
//
//   - the channel is a variable this function makes with a capacity of
//     at least 2 (capacity 1 or 0 runs the goroutines one after another:
//     a lock handed over, which block tags cannot express). A capacity
//     only the run time knows (runtime.GOMAXPROCS(0)) is accepted when
//     every start is a go statement of a function literal: the rewriter
//     forks each with rt.ForkIf(c, i, cap(sem) > 1), so an instance that
//     runs with capacity 1 leaves its goroutines unchecked
//     (Construct.RuntimeCap);
//   - its only uses are the parent's sends inside the construct, each
//     followed in its statement list by a start with nothing but plain
//     statements between (one acquire per start, none lost to a branch),
//     and one receive per goroutine body, after everything else the
//     goroutine does but wg.Done and other releases (a release that is
//     not last would order the goroutine's later accesses after the
//     parent's code before an acquire);
//
// and each goroutine is a function literal of the construct. Anything
// else is refused with the use that breaks it.

// semaphores returns the channel operations of the semaphores bounding
// the goroutines forks started by the parent's statements region, and
// those whose capacity only the run time knows, or why a channel the
// parent sends on there cannot be treated as one. obj is how the
// construct joins (its join channel's sends are not acquires).
func (f *finder) semaphores(region []ast.Stmt, forks []ast.Node, obj syncObj) (map[ast.Node]bool, []*types.Var, string) {
	sends := map[*types.Var][]*ast.SendStmt{}
	var order []*types.Var
	for _, s := range region {
		inspectNoLit(s, func(n ast.Node, _ []ast.Node) {
			send, ok := n.(*ast.SendStmt)
			if !ok {
				return
			}
			id, ok := ast.Unparen(send.Chan).(*ast.Ident)
			if !ok || obj.kind == "chan" && id.Name == obj.expr {
				return
			}
			if v, ok := f.info.Uses[id].(*types.Var); ok {
				if sends[v] == nil {
					order = append(order, v)
				}
				sends[v] = append(sends[v], send)
			}
		})
	}
	if len(order) == 0 {
		return nil, nil, ""
	}
	ops := map[ast.Node]bool{}
	var runtime []*types.Var
	for _, v := range order {
		rc := false
		why := f.semaphore(v, region, sends[v], forks, ops, &rc)
		if why != "" {
			return nil, nil, why
		}
		if rc {
			runtime = append(runtime, v)
		}
	}
	return ops, runtime, ""
}

// semaphore checks one channel v the parent sends on (sends), adding its
// operations to ops, or explains why it is not a semaphore of forks.
func (f *finder) semaphore(v *types.Var, region []ast.Stmt, sends []*ast.SendStmt, forks []ast.Node, ops map[ast.Node]bool, runtimeCap *bool) string {
	name := v.Name()
	not := "the parent sends on channel " + name + " while the goroutines run, and " + name + " is not a semaphore of theirs: "
	mk := f.makeOf(v)
	if mk == nil || !f.madeIn(v, f.body) {
		return not + "it is not a channel this function makes"
	}
	if len(mk.Args) != 2 {
		return not + "it is unbuffered (capacity 0), so each start waits for a goroutine to end: they run one after another, which block tags cannot express"
	}
	tv := f.info.Types[mk.Args[1]]
	if tv.Value == nil || tv.Value.Kind() != constant.Int {
		for _, n := range forks {
			if g, ok := n.(*ast.GoStmt); !ok || f.literalBody(g) == nil {
				return not + "its capacity " + exprText(mk.Args[1]) + " is not a constant, and a start is not a go statement of a function literal, which alone can be left unchecked when the capacity is 1 at run time"
			}
		}
		*runtimeCap = true // the rewriter forks with rt.ForkIf(…, cap(sem) > 1)
	} else if k, exact := constant.Int64Val(tv.Value); !exact || k < 2 {
		return not + "its capacity is " + tv.Value.ExactString() + ", so the goroutines run one after another, which block tags cannot express"
	}
	bodies := map[*ast.BlockStmt]int{} // each goroutine body's releases
	for _, n := range forks {
		b := f.literalBody(n)
		if b == nil {
			return "channel " + name + " bounds the goroutines like a semaphore, but a goroutine runs a named function or function value, whose release cannot be matched to its acquire; the construct is not a plain loop"
		}
		bodies[b] = 0
	}
	acquire := map[*ast.SendStmt]bool{}
	for _, s := range sends {
		acquire[s] = true
	}
	why := ""
	var stack []ast.Node
	ast.Inspect(f.body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if id, ok := n.(*ast.Ident); ok && f.info.Uses[id] == v && why == "" {
			why = f.semUse(id, stack, acquire, bodies, ops)
		}
		stack = append(stack, n)
		return why == ""
	})
	if why != "" {
		return "channel " + name + " bounds the goroutines like a semaphore, but " + why + "; the construct is not a plain loop"
	}
	for _, s := range sends {
		if w := f.acquiresForStart(s, region); w != "" {
			return "channel " + name + " bounds the goroutines like a semaphore, but " + w + "; the construct is not a plain loop"
		}
	}
	for b, k := range bodies {
		if k != 1 {
			return "channel " + name + " bounds the goroutines like a semaphore, but a goroutine receives from it " + itoa64(int64(k)) + " times (one release at its end is needed); the construct is not a plain loop"
		}
		if !releasesLast(b, v, f.info) {
			return "channel " + name + " bounds the goroutines like a semaphore, but a goroutine does more after its release than wg.Done (the release would order what follows after the parent's code)"
		}
	}
	return ""
}

// semUse classifies one use of the semaphore's variable under stack:
// a parent's acquire (a send in sends), a release in a goroutine body
// (counted in bodies), or anything else, which it names.
func (f *finder) semUse(id *ast.Ident, stack []ast.Node, acquire map[*ast.SendStmt]bool, bodies map[*ast.BlockStmt]int, ops map[ast.Node]bool) string {
	parent := stack[len(stack)-1]
	switch p := parent.(type) {
	case *ast.SendStmt:
		if acquire[p] {
			ops[p] = true
			return ""
		}
		if inBody(stack, bodies) != nil {
			return "a goroutine sends on it"
		}
		return "the function also sends on it outside the construct's starts"
	case *ast.UnaryExpr:
		if p.Op != token.ARROW {
			return "its address is taken"
		}
		b := inBody(stack, bodies)
		if b == nil {
			return "the parent receives from it"
		}
		if _, ok := stack[len(stack)-2].(*ast.ExprStmt); !ok {
			return "a goroutine receives from it inside an expression or select"
		}
		bodies[b]++
		ops[p] = true
		return ""
	case *ast.CallExpr:
		if fn, ok := ast.Unparen(p.Fun).(*ast.Ident); ok && fn.Name == "close" {
			return "it is closed"
		}
		if fn, ok := ast.Unparen(p.Fun).(*ast.Ident); ok && (fn.Name == "len" || fn.Name == "cap") {
			return "its " + fn.Name + " is read (the code depends on the schedule through it)"
		}
		return "it is passed to " + exprText(p.Fun)
	case *ast.RangeStmt:
		return "it is ranged over"
	case *ast.AssignStmt, *ast.ValueSpec:
		return "it is assigned or stored"
	}
	return "it is used otherwise (" + types.ExprString(id) + " in a " + nodeName(parent) + ")"
}

func nodeName(n ast.Node) string {
	switch n.(type) {
	case *ast.CompositeLit:
		return "composite literal"
	case *ast.CommClause, *ast.SelectStmt:
		return "select"
	case *ast.ReturnStmt:
		return "return"
	}
	return "expression"
}

// inBody returns the goroutine body of bodies that stack passes through
// with no other function literal below it, or nil.
func inBody(stack []ast.Node, bodies map[*ast.BlockStmt]int) *ast.BlockStmt {
	for i := len(stack) - 1; i >= 0; i-- {
		if b, ok := stack[i].(*ast.BlockStmt); ok {
			if _, in := bodies[b]; in {
				return b
			}
		}
		if lit, ok := stack[i].(*ast.FuncLit); ok && i > 0 {
			if _, in := bodies[lit.Body]; in {
				continue
			}
			if d, ok := stack[i-1].(*ast.CallExpr); ok && i > 1 {
				if _, ok := stack[i-2].(*ast.DeferStmt); ok && d.Fun == lit {
					continue // a deferred literal of the goroutine runs in it
				}
			}
			return nil
		}
		if _, ok := stack[i].(*ast.GoStmt); ok && i < len(stack)-1 {
			if lit, ok := stack[i+1].(*ast.CallExpr); ok {
				if l, ok := ast.Unparen(lit.Fun).(*ast.FuncLit); ok {
					if _, in := bodies[l.Body]; in {
						continue
					}
				}
			}
			return nil
		}
	}
	return nil
}

// literalBody is the body of the function literal a fork starts, or nil.
func (f *finder) literalBody(n ast.Node) *ast.BlockStmt {
	switch n := n.(type) {
	case *ast.GoStmt:
		if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
			return lit.Body
		}
	case *ast.CallExpr:
		if len(n.Args) == 1 {
			if lit, ok := ast.Unparen(n.Args[0]).(*ast.FuncLit); ok {
				return lit.Body
			}
		}
	}
	return nil
}

// makeOf is the make call v is defined with in the function, or nil.
func (f *finder) makeOf(v *types.Var) *ast.CallExpr {
	var mk *ast.CallExpr
	ast.Inspect(f.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok && f.info.Defs[id] == v && i < len(n.Rhs) && len(n.Lhs) == len(n.Rhs) && f.isMake(n.Rhs[i]) {
					mk = ast.Unparen(n.Rhs[i]).(*ast.CallExpr)
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if f.info.Defs[id] == v && i < len(n.Values) && len(n.Names) == len(n.Values) && f.isMake(n.Values[i]) {
					mk = ast.Unparen(n.Values[i]).(*ast.CallExpr)
				}
			}
		}
		return mk == nil
	})
	return mk
}

// acquiresForStart explains why the send s does not acquire for exactly
// one start: it must stand in a statement list of region, followed by a
// start (a go statement or wg.Go) with only plain statements between, so
// every acquire is followed by its goroutine.
func (f *finder) acquiresForStart(s *ast.SendStmt, region []ast.Stmt) string {
	list := f.listOf(s, region)
	for i, st := range list {
		if st != ast.Stmt(s) {
			continue
		}
		for _, next := range list[i+1:] {
			if len(f.forksIn(next)) > 0 {
				if _, ok := next.(*ast.GoStmt); ok {
					return ""
				}
				if e, ok := next.(*ast.ExprStmt); ok && len(f.forksIn(e)) == 1 {
					if call, ok := ast.Unparen(e.X).(*ast.CallExpr); ok && f.goMethod(call) != "" {
						return ""
					}
				}
				return "the start after an acquire is not a plain go statement or wg.Go"
			}
			switch next.(type) {
			case *ast.ExprStmt, *ast.AssignStmt, *ast.IncDecStmt, *ast.DeclStmt, *ast.EmptyStmt:
				if w := f.plainStmt(next, s); w != "" {
					return w
				}
			default:
				return "control flow between an acquire and its start may skip the start"
			}
		}
		return "an acquire is not followed by a start in its statement list"
	}
	return "an acquire does not stand directly in a statement list"
}

// plainStmt refuses a statement between the acquire send and its start
// that receives from a channel, or declares a name the semaphore's
// (the rewriter reads its capacity at the start).
func (f *finder) plainStmt(s ast.Stmt, send *ast.SendStmt) string {
	w := ""
	name := exprText(send.Chan)
	inspectNoLit(s, func(n ast.Node, _ []ast.Node) {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			w = "a channel is received from between an acquire and its start"
		}
		if id, ok := n.(*ast.Ident); ok && id.Name == name && f.info.Defs[id] != nil {
			w = "a statement between an acquire and its start declares another " + name
		}
	})
	return w
}

// listOf returns the statement list of region (at any depth outside
// function literals) that holds s, or nil.
func (f *finder) listOf(s ast.Stmt, region []ast.Stmt) []ast.Stmt {
	for _, st := range region {
		if st == s {
			return region
		}
	}
	var out []ast.Stmt
	for _, st := range region {
		inspectNoLit(st, func(n ast.Node, _ []ast.Node) {
			var l []ast.Stmt
			switch n := n.(type) {
			case *ast.BlockStmt:
				l = n.List
			case *ast.CaseClause:
				l = n.Body
			case *ast.CommClause:
				l = n.Body
			}
			for _, x := range l {
				if x == s {
					out = l
				}
			}
		})
	}
	return out
}

// isRelease reports whether s is `<-ch` for a variable ch (when v is not
// nil, ch is v).
func isRelease(s ast.Stmt, v *types.Var, info *types.Info) bool {
	e, ok := s.(*ast.ExprStmt)
	if !ok {
		return false
	}
	u, ok := ast.Unparen(e.X).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return false
	}
	id, ok := ast.Unparen(u.X).(*ast.Ident)
	if !ok {
		return false
	}
	_, isVar := info.Uses[id].(*types.Var)
	return isVar && (v == nil || info.Uses[id] == v)
}

// isDone reports whether s is a call of a WaitGroup's Done.
func isDone(s ast.Stmt, info *types.Info) bool {
	e, ok := s.(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := ast.Unparen(e.X).(*ast.CallExpr)
	return ok && Callee(info, call.Fun) != nil && Callee(info, call.Fun).FullName() == "(*sync.WaitGroup).Done"
}

// tailOnly reports whether every statement of list is a release or Done.
func tailOnly(list []ast.Stmt, info *types.Info) bool {
	for _, s := range list {
		if !isRelease(s, nil, info) && !isDone(s, info) {
			return false
		}
	}
	return true
}

// pureDefer reports whether d defers only releases and Done: wg.Done(),
// or a literal whose statements are all releases or Done.
func pureDefer(d *ast.DeferStmt, info *types.Info) bool {
	if lit, ok := ast.Unparen(d.Call.Fun).(*ast.FuncLit); ok {
		return len(d.Call.Args) == 0 && tailOnly(lit.Body.List, info)
	}
	return isDone(&ast.ExprStmt{X: d.Call}, info)
}

// releasesLast reports whether the goroutine body b releases v after
// everything it does but Done and other releases: as trailing top-level
// statements, with every defer pure; or in a pure deferred literal, with
// every defer that runs after it (registered before it, or not at the top
// level) pure.
func releasesLast(b *ast.BlockStmt, v *types.Var, info *types.Info) bool {
	at := -1
	for i, s := range b.List {
		if isRelease(s, v, info) {
			at = i
		}
		if d, ok := s.(*ast.DeferStmt); ok {
			if lit, ok := ast.Unparen(d.Call.Fun).(*ast.FuncLit); ok {
				for _, x := range lit.Body.List {
					if isRelease(x, v, info) {
						at = i
					}
				}
			}
		}
	}
	if at < 0 {
		return false
	}
	_, deferred := b.List[at].(*ast.DeferStmt)
	if deferred && !pureDefer(b.List[at].(*ast.DeferStmt), info) {
		return false
	}
	tail := b.List[at+1:]
	if n := len(tail); n > 0 && constSend(tail[n-1], info) {
		tail = tail[:n-1] // the join channel's final send, of a value that reads no memory
	}
	if !deferred && !tailOnly(tail, info) {
		return false
	}
	pure := true
	inspectNoLit(b, func(n ast.Node, _ []ast.Node) {
		d, ok := n.(*ast.DeferStmt)
		if !ok || pureDefer(d, info) {
			return
		}
		if deferred {
			for i := at + 1; i < len(b.List); i++ {
				if b.List[i] == ast.Stmt(d) {
					return // registered after the release: runs before it
				}
			}
		}
		pure = false
	})
	return pure
}

// constSend reports whether s sends a constant or an empty composite
// literal (struct{}{}): a send that reads no memory.
func constSend(s ast.Stmt, info *types.Info) bool {
	send, ok := s.(*ast.SendStmt)
	if !ok {
		return false
	}
	if tv, ok := info.Types[send.Value]; ok && tv.Value != nil {
		return true
	}
	lit, ok := ast.Unparen(send.Value).(*ast.CompositeLit)
	return ok && len(lit.Elts) == 0
}
