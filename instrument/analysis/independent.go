package analysis

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/ast/astutil"
)

// Independent returns the slices whose element accesses in construct c need
// no check: each iteration touches its own element. A slice v qualifies
// when
//
//   - v := make(…) in this function, never assigned, its address never taken;
//   - until the join (or anywhere, when c may run again while v lives), v
//     is only indexed (never taking an element's address), ranged over or
//     measured with len/cap outside c, and inside c only indexed as
//     v[k*i+d] in the goroutine body of a loop that forks once per
//     iteration, with i the loop's index (never assigned but by the loop)
//     and the same constants k ≠ 0 and d everywhere.
//
// Then no other value refers to v's array, and iterations i ≠ j touch
// elements k*i+d ≠ k*j+d: the accesses are independent (the paper's a[i]).
func (r *Result) Independent(c *Construct) map[*types.Var]bool {
	if got, ok := r.independent[c]; ok {
		return got
	}
	out := map[*types.Var]bool{}
	r.independent[c] = out
	for v, us := range r.subscripts(c) {
		if k := us[0].form[0]; k != 0 && allSame(us) && r.coefWrapFree(c, k) {
			out[v] = true
		}
	}
	return out
}

// coefWrapFree reports whether k*i is one-to-one over c's loop index
// despite wrapping arithmetic (nowrap.go).
func (r *Result) coefWrapFree(c *Construct, k int64) bool {
	return k%2 != 0 || k%4 != 0 && r.indexFromZero(c)
}

func allSame(us []use) bool {
	for _, u := range us[1:] {
		if u.form != us[0].form {
			return false
		}
	}
	return true
}

// Conflict is a definite conflict found statically: two accesses of one
// slice, at least one a write, that touch the same element in iterations
// whose indices are Delta apart, whenever the loop runs more than Apart
// iterations.
type Conflict struct {
	A, B  *ast.IndexExpr
	Write [2]bool
	Delta int64 // B's loop index minus A's
	Apart int64 // how many iterations apart: |Delta| over the loop's step
}

// Describe says what conflicts, for vet and the analyzer.
func (k Conflict) Describe(fset *token.FileSet) string {
	op := func(w bool) string {
		if w {
			return "write"
		}
		return "read"
	}
	iter := "i"
	switch {
	case k.Delta > 0:
		iter = fmt.Sprintf("i+%d", k.Delta)
	case k.Delta < 0:
		iter = fmt.Sprintf("i%d", k.Delta)
	}
	return fmt.Sprintf("definite conflict: %s of %s in iteration i and %s of %s at line %d in iteration %s touch the same element (when the loop runs more than %d iterations)",
		op(k.Write[0]), types.ExprString(k.A), op(k.Write[1]), types.ExprString(k.B), fset.Position(k.B.Pos()).Line, iter, k.Apart)
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// Conflicts returns the definite conflicts of construct c: for the slices
// Independent would consider (made here, never aliased), two subscripts
// k*i+d1 and k*i+d2 with k dividing d1-d2, such as a[i+1] against a[i],
// both run in every iteration (definite.go).
func (r *Result) Conflicts(c *Construct) []Conflict {
	var out []Conflict
	for _, us := range r.subscripts(c) {
		for x, a := range us {
			for _, b := range us[x+1:] {
				k := a.form[0]
				if k == 0 || b.form[0] != k || a.form == b.form || !a.known || !b.known || !(a.write || b.write) || (a.form[1]-b.form[1])%k != 0 {
					continue
				}
				delta := (a.form[1] - b.form[1]) / k
				if !r.definite(c, onlyFork(c), a.ix, b.ix, delta) {
					continue // one of them may not run in some iteration: a possible conflict, checked
				}
				apart := abs(delta / r.loopStep(loopStmt(c.List[c.First]))) // definite: the step is known and divides delta
				out = append(out, Conflict{A: a.ix, B: b.ix, Write: [2]bool{a.write, b.write}, Delta: delta, Apart: apart})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].A.Pos() < out[j].A.Pos() || out[i].A.Pos() == out[j].A.Pos() && out[i].B.Pos() < out[j].B.Pos()
	})
	return out
}

// use is one access v[k*i+d] in a construct's goroutine body.
type use struct {
	ix    *ast.IndexExpr
	form  [2]int64 // k, d
	write bool
	known bool // write is exact (not a part of the element, reached further)
}

// subscripts returns, for each slice of the function that nothing aliases
// (made here, in the function or function literal that holds c, so every
// instance of c that may run at once has its own; never assigned, its
// address never taken, only indexed, ranged over or measured outside c
// until the join), its accesses inside c,
// all of the form v[k*i+d] in the goroutine body of a loop that forks once
// per iteration, i being the loop's own index. A slice used any other way
// inside c is left out.
func (r *Result) subscripts(c *Construct) map[*types.Var][]use {
	out := map[*types.Var][]use{}
	fk := onlyFork(c)
	if fk == nil || fk.Body == nil || c.Index == nil || !r.loopOwned(c) {
		return out
	}
	f := r.finder
	loop := loopStmt(c.List[c.First])
	first, join := c.List[c.First].Pos(), c.List[c.Join].End()
	bad := map[*types.Var]bool{}
	for v := range r.made {
		if w := r.writes[v]; w != nil && (w.elsewhere || len(w.at) > 0) {
			bad[v] = true
		}
	}
	if !r.perIterationIndex(c) {
		return out // one index variable for the whole loop: goroutines may read the same value
	}
	home := r.enclosingFuncLit(c.List[c.First])
	var stack []ast.Node
	for _, file := range f.files {
		ast.Inspect(file, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			defer func() { stack = append(stack, n) }()
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			if v, ok := f.info.Defs[id].(*types.Var); ok && r.made[v] && innermostFuncLit(stack) != home {
				// v is declared outside the function literal that holds c:
				// several instances of c (the inner loops of an enclosing
				// construct's iterations) may run at once and share v, and
				// k*i+d separates the iterations of one instance only.
				bad[v] = true
			}
			v, _ := f.info.Uses[id].(*types.Var)
			if v == nil || !r.made[v] || bad[v] || id.Pos() >= join && !r.reentered(c, v) {
				return true // after the join, unless the construct runs again (alias.go)
			}
			parent := stack[len(stack)-1]
			inside := id.Pos() >= first && id.Pos() < join
			if !inside && innermostFuncLit(stack) != home {
				bad[v] = true // a closure could index v from inside c
				return true
			}
			switch p := parent.(type) {
			case *ast.IndexExpr:
				if p.X != id || addressed(stack, f.info) {
					bad[v] = true // v's elements are reachable by pointer (alias.go)
				} else if inside {
					form, ok := f.affine(p.Index, c.Index)
					w, known, addr := accessOf(p, stack[len(stack)-2], f.info)
					if !ok || !wide(f.info.TypeOf(p.Index)) || addr || innermostFuncLit(stack) != fk.Body || !onePerIteration(loop, fk.Node) {
						bad[v] = true
					} else {
						out[v] = append(out[v], use{ix: p, form: form, write: w, known: known})
					}
				}
			case *ast.CallExpr:
				if fn, ok := ast.Unparen(p.Fun).(*ast.Ident); !ok || (fn.Name != "len" && fn.Name != "cap") {
					bad[v] = true
				}
			case *ast.RangeStmt:
				if inside || p.X != id {
					bad[v] = true
				}
			default:
				bad[v] = true
			}
			return true
		})
	}
	for v := range bad {
		delete(out, v)
	}
	return out
}

// accessOf says how the element ix is accessed, given its parent node:
// written (assigned, op-assigned, incremented) or read, whether that is
// known exactly (not when only a part of the element is reached), and
// whether its address is taken (then nothing more can be said of it).
func accessOf(ix *ast.IndexExpr, parent ast.Node, info *types.Info) (write, known, addr bool) {
	_, arrayElem := underlying(info.TypeOf(ix)).(*types.Array)
	switch p := parent.(type) {
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if l == ix {
				return true, true, false
			}
		}
	case *ast.IncDecStmt:
		return p.X == ix, true, false
	case *ast.UnaryExpr:
		if p.Op == token.AND {
			return false, false, true
		}
	case *ast.RangeStmt:
		return p.Key == ix || p.Value == ix, true, false
	case *ast.SelectorExpr:
		if isPtr(info.TypeOf(ix)) {
			return false, true, false // p.f of a pointer element: the element is read
		}
		return false, false, false // a field of the element: read or written, not known here
	case *ast.IndexExpr, *ast.SliceExpr:
		if arrayElem {
			return false, false, true // into the element's own storage
		}
		return false, true, false // a slice element: its header is read
	}
	return false, true, false
}

// enclosingFuncLit is the innermost function literal around n, or nil.
func (r *Result) enclosingFuncLit(n ast.Node) *ast.FuncLit {
	for _, file := range r.finder.files {
		if file.Pos() <= n.Pos() && n.End() <= file.End() {
			path, _ := astutil.PathEnclosingInterval(file, n.Pos(), n.End())
			for _, p := range path {
				if fl, ok := p.(*ast.FuncLit); ok {
					return fl
				}
			}
		}
	}
	return nil
}

// perIterationIndex reports whether c's loop gives each iteration its own
// index variable: the file holding it is of go1.22 or later.
func (r *Result) perIterationIndex(c *Construct) bool {
	for _, file := range r.finder.files {
		if file.Pos() <= c.List[c.First].Pos() && c.List[c.First].End() <= file.End() {
			return PerIterationLoopVars(r.finder.info, file)
		}
	}
	return false
}

// onlyFork returns the construct's one fork, if it is a loop with one.
func onlyFork(c *Construct) *Fork {
	if c.Kind != Loop || len(c.Forks) != 1 {
		return nil
	}
	return c.Forks[0]
}

// loopOwned reports whether c's index variable is assigned only by the loop
// itself (a range loop, or the post statement of a three-clause loop).
func (r *Result) loopOwned(c *Construct) bool {
	w := r.writes[c.Index]
	if w == nil {
		return true
	}
	if w.elsewhere {
		return false
	}
	fs, _ := loopStmt(c.List[c.First]).(*ast.ForStmt)
	for _, p := range w.at {
		if fs == nil || fs.Post == nil || p < fs.Post.Pos() || p >= fs.Post.End() {
			return false
		}
	}
	return true
}

// onePerIteration reports whether the fork node is reached once per
// iteration of loop: no loop stands between them, and no backward goto.
func onePerIteration(loop ast.Stmt, fork ast.Node) bool {
	body := loopBody(loop)
	once := true
	var walk func(n ast.Node, inLoop bool) bool
	walk = func(n ast.Node, inLoop bool) bool {
		found := false
		ast.Inspect(n, func(m ast.Node) bool {
			if found || m == nil {
				return false
			}
			if m == fork {
				found, once = true, !inLoop
				return false
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if m != n && walk(loopBody(m.(ast.Stmt)), true) {
					found = true
				}
				return false
			}
			return true
		})
		return found
	}
	return walk(body, false) && once && !gotoRepeats(body, fork)
}

func loopBody(s ast.Stmt) *ast.BlockStmt {
	switch l := s.(type) {
	case *ast.ForStmt:
		return l.Body
	case *ast.RangeStmt:
		return l.Body
	}
	return nil
}

// innermostFuncLit is the innermost function literal on the path.
func innermostFuncLit(stack []ast.Node) *ast.FuncLit {
	for i := len(stack) - 1; i >= 0; i-- {
		if fl, ok := stack[i].(*ast.FuncLit); ok {
			return fl
		}
	}
	return nil
}

// affine matches e against k*i + d with integer constants k and d.
func (f *finder) affine(e ast.Expr, i *types.Var) ([2]int64, bool) {
	e = ast.Unparen(e)
	if k, ok := f.intConst(e); ok {
		return [2]int64{0, k}, true
	}
	switch x := e.(type) {
	case *ast.Ident:
		if f.info.Uses[x] == i {
			return [2]int64{1, 0}, true
		}
	case *ast.BinaryExpr:
		a, okA := f.affine(x.X, i)
		b, okB := f.affine(x.Y, i)
		if !okA || !okB {
			return [2]int64{}, false
		}
		switch x.Op {
		case token.ADD:
			return [2]int64{a[0] + b[0], a[1] + b[1]}, true
		case token.SUB:
			return [2]int64{a[0] - b[0], a[1] - b[1]}, true
		case token.MUL:
			if a[0] == 0 {
				return [2]int64{a[1] * b[0], a[1] * b[1]}, true
			}
			if b[0] == 0 {
				return [2]int64{b[1] * a[0], b[1] * a[1]}, true
			}
		}
	}
	return [2]int64{}, false
}

func (f *finder) intConst(e ast.Expr) (int64, bool) { return intConst(f.info, e) }

// intConst is e's value when it is an integer constant.
func intConst(info *types.Info, e ast.Expr) (int64, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(tv.Value)
}

// findMade records the local slices defined by v := make(…) or var v = make(…).
func findMade(files []*ast.File, info *types.Info) map[*types.Var]bool {
	made := map[*types.Var]bool{}
	isMake := func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		_, builtin := info.Uses[id].(*types.Builtin)
		return ok && builtin && id.Name == "make"
	}
	mark := func(names []*ast.Ident, values []ast.Expr) {
		if len(names) != len(values) {
			return
		}
		for k, n := range names {
			// Locals only: a package's variable may be indexed by any
			// function, called from the construct or not.
			if v, ok := info.Defs[n].(*types.Var); ok && isMake(values[k]) && v.Pkg() != nil && v.Parent() != v.Pkg().Scope() {
				if _, slice := v.Type().Underlying().(*types.Slice); slice {
					made[v] = true
				}
			}
		}
	}
	for _, file := range files {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE {
					var names []*ast.Ident
					for _, l := range n.Lhs {
						id, _ := l.(*ast.Ident)
						names = append(names, id)
					}
					mark(names, n.Rhs)
				}
			case *ast.ValueSpec:
				mark(n.Names, n.Values)
			}
			return true
		})
	}
	return made
}
