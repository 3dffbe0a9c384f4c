package analysis

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// A construct joined by channel is finished at its join only if the join
// receives one value per goroutine: a join that receives fewer lets the
// last goroutines outlive it. Each goroutine sends once, at its end (its
// other channel operations make it unstructured), so the number of
// receives must provably equal the number of starts. For a loop of
// starts, the loop starts one goroutine per iteration (one start in its
// body, not in an inner loop or under a backward goto) and the receive
// loop counts the same iterations (recvcount.go): the same constant, the
// same length of the same slice, array, map or string, or the same
// loop-invariant variable, over variables neither loop nor the goroutines
// write (`i := 0; i < n; i++`, `range n`, `range len(s)`, `range s`). For sections, no start
// stands in a loop and there is one receive statement per start (or one
// receive loop over a constant equal to their number).

// joinCountMismatch explains why the receives of a construct joined by
// channel, list[join0:join+1], cannot be matched to its starts, forks in
// list[first:join0], or returns "".
func (f *finder) joinCountMismatch(list []ast.Stmt, first, join0, join int, forks []ast.Node) string {
	const why = "the join receives a number of values that cannot be matched to the goroutine starts; the last goroutines may outlive it"
	region := list[first : join+1]
	if f.otherSends(list[join0:join+1], forks) { // the join's receives name the channel
		return "the join channel is also sent on or passed to a function elsewhere in the function; the join may take values of other goroutines and the last goroutines may outlive it"
	}
	if loop := loopStmt(list[first]); loop != nil && join0 == first+1 && join == join0 {
		recv := loopStmt(list[join])
		if recv == nil || len(forks) != 1 || gotoRepeats(loop, forks[0]) || inLoopBelow(loop, forks[0]) {
			return why
		}
		return f.sameCount(loop, recv, region)
	}
	for _, fk := range forks {
		for _, s := range list[first:join0] {
			if s.Pos() <= fk.Pos() && fk.Pos() < s.End() && (inLoopBelow(s, fk) || loopStmt(s) != nil || gotoRepeats(s, fk)) {
				return why
			}
		}
	}
	if join == join0 {
		if recv := loopStmt(list[join]); recv != nil {
			n := f.tripCount(recv)
			if n == nil {
				return why
			}
			if tv, ok := f.info.Types[n]; !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
				return why
			} else if v, exact := constant.Int64Val(tv.Value); !exact || v != int64(len(forks)) {
				return why
			}
			return ""
		}
	}
	if join-join0+1 != len(forks) {
		return why
	}
	for _, s := range list[join0 : join+1] {
		if loopStmt(s) != nil {
			return why
		}
	}
	return ""
}

// otherSends reports whether the join channel the receives recv take
// from (a local variable, ownChannel) is sent on outside the construct's forks, or
// passed to a function there: a send elsewhere (a goroutine of a start
// refused before, a send of the parent) can put values the join counts.
// (A channel stored or reassigned is left to joinchan.go's rules.)
func (f *finder) otherSends(recv []ast.Stmt, forks []ast.Node) bool {
	var ch *types.Var
	for _, s := range recv {
		ast.Inspect(s, func(n ast.Node) bool {
			if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				if id, ok := ast.Unparen(u.X).(*ast.Ident); ok {
					ch, _ = f.info.Uses[id].(*types.Var)
				}
			}
			return ch == nil
		})
	}
	if ch == nil || f.body == nil {
		return true
	}
	inFork := func(n ast.Node) bool {
		for _, fk := range forks {
			if fk.Pos() <= n.Pos() && n.Pos() < fk.End() {
				return true
			}
		}
		return false
	}
	other := false
	var stack []ast.Node
	ast.Inspect(f.body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if id, ok := n.(*ast.Ident); ok && f.info.Uses[id] == ch && !inFork(id) {
			parent := stack[len(stack)-1]
			if p, ok := parent.(*ast.ParenExpr); ok && len(stack) > 1 {
				_, parent = p, stack[len(stack)-2]
			}
			switch p := parent.(type) {
			case *ast.SendStmt:
				other = p.Chan == id || ast.Unparen(p.Chan) == id
			case *ast.CallExpr:
				other = p.Fun != id // handed to a function, which may send
			}
		}
		stack = append(stack, n)
		return !other
	})
	return other
}

// tripCount is the expression counting a loop's iterations when it is
// plain: `for i := 0; i < n; i++` whose body does not write i, or a range
// over an integer, a slice or an array, with n or the ranged value free of
// calls other than len; nil otherwise.
func (f *finder) tripCount(loop ast.Stmt) ast.Expr {
	switch l := loop.(type) {
	case *ast.RangeStmt:
		t := f.info.TypeOf(l.X)
		if t == nil || !countExpr(l.X) {
			return nil
		}
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		switch u := t.Underlying().(type) {
		case *types.Basic:
			if u.Info()&types.IsInteger != 0 {
				return l.X
			}
			if u.Info()&types.IsString != 0 { // runes, not bytes: only another range over it counts alike
				return &ast.CallExpr{Fun: ast.NewIdent("runes"), Args: []ast.Expr{l.X}}
			}
		case *types.Slice, *types.Array, *types.Map:
			return &ast.CallExpr{Fun: ast.NewIdent("len"), Args: []ast.Expr{l.X}}
		}
	case *ast.ForStmt:
		as, ok := l.Init.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Tok != token.DEFINE {
			return nil
		}
		id, _ := as.Lhs[0].(*ast.Ident)
		v, _ := f.info.Defs[id].(*types.Var)
		lit, _ := as.Rhs[0].(*ast.BasicLit)
		cond, _ := l.Cond.(*ast.BinaryExpr)
		inc, _ := l.Post.(*ast.IncDecStmt)
		if v == nil || lit == nil || lit.Value != "0" || cond == nil || cond.Op != token.LSS || !countExpr(cond.Y) || inc == nil || inc.Tok != token.INC {
			return nil
		}
		if x, ok := cond.X.(*ast.Ident); !ok || f.info.Uses[x] != v {
			return nil
		}
		if x, ok := inc.X.(*ast.Ident); !ok || f.info.Uses[x] != v {
			return nil
		}
		if f.writtenIn(cond.X, l.Body.List) {
			return nil
		}
		return cond.Y
	}
	return nil
}

// countExpr reports whether e reads variables without calls (but len) or
// receives: identifiers, literals, selectors, index expressions,
// arithmetic of those.
func countExpr(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.SelectorExpr:
		return countExpr(e.X)
	case *ast.IndexExpr:
		return countExpr(e.X) && countExpr(e.Index)
	case *ast.BinaryExpr:
		return countExpr(e.X) && countExpr(e.Y)
	case *ast.CallExpr:
		id, ok := e.Fun.(*ast.Ident)
		return ok && id.Name == "len" && len(e.Args) == 1 && countExpr(e.Args[0])
	}
	return false
}

// writtenIn reports whether code in region (function literals included)
// may change the value of e: it assigns, increments or takes the address
// of a variable e reads, or of a part of it e reads (a write to an element
// of a slice e takes the length of leaves that length alone).
func (f *finder) writtenIn(e ast.Expr, region []ast.Stmt) bool {
	var reads [][]ast.Expr
	ast.Inspect(e, func(n ast.Node) bool {
		if x, ok := n.(ast.Expr); ok {
			if c := chain(x); c != nil {
				reads = append(reads, c)
			}
		}
		return true
	})
	hit := func(l ast.Expr) bool {
		w := chain(l)
		if w == nil {
			return true // a write whose target is not a variable's part: assume the worst
		}
		for _, r := range reads {
			if f.overlaps(w, r) {
				return true
			}
		}
		return false
	}
	found := false
	for _, s := range region {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && (id.Name == "_" || n.Tok == token.DEFINE && f.info.Defs[id] != nil) {
						continue
					}
					found = found || hit(l)
				}
			case *ast.IncDecStmt:
				found = found || hit(n.X)
			case *ast.UnaryExpr:
				found = found || n.Op == token.AND && chain(n.X) != nil && hit(n.X)
			case *ast.RangeStmt:
				if n.Tok == token.ASSIGN {
					found = found || n.Key != nil && hit(n.Key) || n.Value != nil && hit(n.Value)
				}
			}
			return !found
		})
	}
	return found
}

// chain lists the steps of a variable's part e, from the variable out
// (a, a[i], a[i].n), or returns nil when e is not one.
func chain(e ast.Expr) []ast.Expr {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return []ast.Expr{x}
	case *ast.SelectorExpr:
		if c := chain(x.X); c != nil {
			return append(c, x)
		}
	case *ast.IndexExpr:
		if c := chain(x.X); c != nil {
			return append(c, x)
		}
	case *ast.StarExpr:
		if c := chain(x.X); c != nil {
			return append(c, x)
		}
	}
	return nil
}

// overlaps reports whether writing the part w can change the part r: the
// same variable, and w is r, encloses r, or is inside r other than as an
// element of a slice or array (whose length it leaves alone). Subscripts
// are not compared: a[j] may be a[i].
func (f *finder) overlaps(w, r []ast.Expr) bool {
	root := func(c []ast.Expr) types.Object {
		id := c[0].(*ast.Ident)
		if o := f.info.Uses[id]; o != nil {
			return o
		}
		return f.info.Defs[id]
	}
	if root(w) == nil || root(w) != root(r) {
		return false
	}
	for k := 1; k < len(w) && k < len(r); k++ {
		if !sameStep(w[k], r[k]) {
			return false
		}
	}
	if len(w) <= len(r) {
		return true
	}
	if ix, ok := w[len(r)].(*ast.IndexExpr); ok {
		t := f.info.TypeOf(ix.X)
		if t != nil {
			if p, ok := t.Underlying().(*types.Pointer); ok {
				t = p.Elem()
			}
			switch t.Underlying().(type) {
			case *types.Slice, *types.Array:
				return false
			}
		}
	}
	return true
}

func sameStep(a, b ast.Expr) bool {
	switch a := a.(type) {
	case *ast.SelectorExpr:
		b, ok := b.(*ast.SelectorExpr)
		return ok && a.Sel.Name == b.Sel.Name
	case *ast.IndexExpr:
		_, ok := b.(*ast.IndexExpr)
		return ok
	case *ast.StarExpr:
		_, ok := b.(*ast.StarExpr)
		return ok
	}
	return false
}

// inLoopBelow reports whether n stands in a loop nested under root (root
// itself not counted).
func inLoopBelow(root ast.Node, n ast.Node) bool {
	found := false
	ast.Inspect(root, func(m ast.Node) bool {
		if m == nil || found || m == root {
			return !found
		}
		switch m.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if m.Pos() <= n.Pos() && n.Pos() < m.End() {
				found = true
			}
		case *ast.FuncLit:
			return false
		}
		return !found
	})
	return found
}

// constTrips is the number of iterations of a loop whose bounds are
// constants: a range over a constant integer or an array, or
// `for v := c0; v < c1 (or <=); v++ (or v += s)` with c0, c1 and s > 0
// constants and v written nowhere else in the loop.
func (f *finder) constTrips(loop ast.Stmt) (int64, bool) {
	val := func(e ast.Expr) (int64, bool) {
		tv, ok := f.info.Types[e]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
			return 0, false
		}
		return constant.Int64Val(tv.Value)
	}
	switch l := loop.(type) {
	case *ast.RangeStmt:
		if n, ok := val(l.X); ok {
			return max(n, 0), true
		}
		if a, ok := f.info.TypeOf(l.X).Underlying().(*types.Array); ok {
			return a.Len(), true
		}
	case *ast.ForStmt:
		as, ok := l.Init.(*ast.AssignStmt)
		cond, _ := l.Cond.(*ast.BinaryExpr)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Tok != token.DEFINE || cond == nil {
			return 0, false
		}
		v, _ := f.info.Defs[as.Lhs[0].(*ast.Ident)].(*types.Var)
		if x, ok := cond.X.(*ast.Ident); v == nil || !ok || f.info.Uses[x] != v || f.writtenIn(cond.X, l.Body.List) {
			return 0, false
		}
		c0, ok0 := val(as.Rhs[0])
		c1, ok1 := val(cond.Y)
		step := int64(0)
		switch p := l.Post.(type) {
		case *ast.IncDecStmt:
			if x, ok := p.X.(*ast.Ident); ok && f.info.Uses[x] == v && p.Tok == token.INC {
				step = 1
			}
		case *ast.AssignStmt:
			if x, ok := p.Lhs[0].(*ast.Ident); ok && len(p.Lhs) == 1 && f.info.Uses[x] == v && p.Tok == token.ADD_ASSIGN {
				step, _ = val(p.Rhs[0])
			}
		}
		if !ok0 || !ok1 || step <= 0 || c1-c0 > 1<<40 || c0-c1 > 1<<40 {
			return 0, false
		}
		switch cond.Op {
		case token.LEQ:
			c1++
		case token.LSS:
		default:
			return 0, false
		}
		if c1 <= c0 {
			return 0, true
		}
		return (c1 - c0 + step - 1) / step, true
	}
	return 0, false
}
