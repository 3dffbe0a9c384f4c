package analysis

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// Ownership forms assume that the subscript's arithmetic does not wrap.
// With 64-bit wrapping arithmetic k*x1 ≡ k*x2 (mod 2^64) exactly when
// 2^(64-v2(k)) divides x1-x2, v2(k) being the number of times 2 divides k:
//
//   - an odd k is one-to-one on every x (a[3*i+1] is owned);
//   - k = 2·odd is one-to-one while x spans less than 2^63: a signed index
//     counting up from zero by one, as a range loop's (a[2*i] is owned);
//   - any other k wraps within a long enough loop (a[i*(1<<62)] meets
//     a[0] at i = 4): not owned, checked.
//
// A flattened row x*w+t (0 ≤ t < w) is one-to-one only while x*w+t does
// not wrap, which depends on values known at run time: the proof is
// guarded by a condition evaluated once at the construct's start, that w
// is positive and every value x takes lies in [0, MaxInt/w] (then
// x*w+t < MaxInt). It bounds x by the loop's bounds (x the loop index), or
// by the chunk bound f evaluated at the loop's first index and one step
// past its last (x in [f(i), f(i+step))), as the program computes them;
// when that cannot be written at the construct's start (a bound read
// through memory, a loop without a simple count), the form is not owned.

// wrapFree reports whether k*x is one-to-one over the values the owned
// variable of family fam takes in the construct.
func (h *heapPass) wrapFree(k int64, fam string) bool {
	switch {
	case k%2 != 0:
		return true
	case k%4 != 0:
		return fam == "idx" && h.r.indexFromZero(h.c)
	}
	return false
}

// indexFromZero reports whether c's loop index is a signed integer that
// counts up from zero by one and never wraps: it spans less than 2^63.
func (r *Result) indexFromZero(c *Construct) bool {
	if c.Index == nil {
		return false
	}
	if b, ok := underlying(c.Index.Type()).(*types.Basic); !ok || b.Info()&types.IsUnsigned != 0 {
		return false
	}
	switch l := loopStmt(c.List[c.First]).(type) {
	case *ast.RangeStmt:
		return true // 0 … n-1, or the indices of a slice
	case *ast.ForStmt:
		init, cond, ok := forParts(l, c.Index, r.finder.info)
		if !ok || cond.Op != token.LSS {
			return false // i <= hi: i++ wraps when hi is the largest value
		}
		k, ok := intConst(r.finder.info, init)
		return ok && k >= 0
	}
	return false
}

// rowGuard returns the position of the row x*w+t (sub), of family fam,
// guarded by the condition that it does not wrap, or "" when that
// condition cannot be written at the construct's start.
func (h *heapPass) rowGuard(sub ast.Expr, x *types.Var, fam string, w ast.Expr) string {
	if b, ok := underlying(h.info.TypeOf(sub)).(*types.Basic); !ok || b.Kind() != types.Int {
		return ""
	}
	if !h.universalAtStart("int", "uint") {
		return "" // maxInt's spelling would mean something else there
	}
	var divs []ast.Expr
	ws, ok := h.atStart(w, nil, &divs, 0)
	if !ok {
		return ""
	}
	lows, ups, last, ok := h.familyBounds(x, fam, &divs)
	if !ok {
		return ""
	}
	// Divisors first: the guard must not panic where the program, perhaps
	// running no iteration, would not.
	var conds []ast.Expr
	for _, d := range divs {
		conds = append(conds, &ast.BinaryExpr{X: d, Op: token.NEQ, Y: intLit(0)})
	}
	conds = append(conds, &ast.BinaryExpr{X: ws, Op: token.GTR, Y: intLit(0)})
	for _, l := range lows {
		if lit, ok := l.(*ast.BasicLit); ok && !strings.HasPrefix(lit.Value, "-") {
			continue // a constant index from zero up
		}
		conds = append(conds, &ast.BinaryExpr{X: l, Op: token.GEQ, Y: intLit(0)})
	}
	limit := &ast.BinaryExpr{X: maxInt(), Op: token.QUO, Y: ws}
	for _, u := range ups {
		conds = append(conds, &ast.BinaryExpr{X: u, Op: token.LEQ, Y: limit})
	}
	if last != nil {
		conds = append(conds, &ast.BinaryExpr{X: last, Op: token.LSS, Y: limit})
	}
	cond := conds[0]
	seen := map[string]bool{types.ExprString(cond): true}
	for _, c := range conds[1:] {
		if s := types.ExprString(c); !seen[s] {
			seen[s] = true
			cond = &ast.BinaryExpr{X: cond, Op: token.LAND, Y: c}
		}
	}
	key := "nowrap:" + fam + "*" + h.canon(w)
	g := GuardSpan{Path: sub, Injective: true, Cond: cond}
	return h.injective(key, g) + "[row]"
}

// familyBounds returns expressions, evaluated at the construct's start,
// such that every value of x is at least the least of lows and below the
// greatest of ups, or at most last (the loop index of i <= last).
func (h *heapPass) familyBounds(x *types.Var, fam string, divs *[]ast.Expr) (lows, ups []ast.Expr, last ast.Expr, ok bool) {
	first, end, inclusive, ok := h.indexSpan(divs)
	switch {
	case !ok:
		return nil, nil, nil, false
	case fam == "idx" && inclusive:
		return []ast.Expr{first}, nil, end, true
	case fam == "idx":
		return []ast.Expr{first}, []ast.Expr{end}, nil, true
	case inclusive:
		return nil, nil, nil, false // f one step past last might wrap
	}
	l, _ := h.loopOf[x].(*ast.ForStmt)
	if l == nil {
		return nil, nil, nil, false
	}
	f, _, ok := forParts(l, x, h.info)
	if !ok {
		return nil, nil, nil, false
	}
	// x is in [f(i), f(i+step)): between f at the first index and f one
	// step past the last, f being monotone.
	atFirst, ok1 := h.atStart(f, first, divs, 0)
	atEnd, ok2 := h.atStart(f, h.stepPast(end), divs, 0)
	if !ok1 || !ok2 {
		return nil, nil, nil, false
	}
	return []ast.Expr{atFirst, atEnd}, []ast.Expr{atFirst, atEnd}, nil, true
}

// indexSpan returns the loop index's first value and a bound it stays
// below (or, inclusive, at most): range n is [0, n), range s is
// [0, len(s)), for i := lo; i < hi is [lo, hi) and i <= hi is [lo, hi]
// when i counts up by a positive constant.
func (h *heapPass) indexSpan(divs *[]ast.Expr) (first, end ast.Expr, inclusive, ok bool) {
	switch l := loopStmt(h.c.List[h.c.First]).(type) {
	case *ast.RangeStmt:
		if h.c.Index == nil {
			return nil, nil, false, false
		}
		if b, isInt := underlying(h.info.TypeOf(l.X)).(*types.Basic); isInt && b.Info()&types.IsInteger != 0 {
			end, ok := h.atStart(l.X, nil, divs, 0)
			return intLit(0), end, false, ok
		}
		id, isID := ast.Unparen(l.X).(*ast.Ident)
		v, _ := h.info.Uses[id].(*types.Var)
		if _, slice := underlying(h.info.TypeOf(l.X)).(*types.Slice); !isID || !slice || v == nil || !h.visibleAtStart(v) {
			return nil, nil, false, false
		}
		return intLit(0), &ast.CallExpr{Fun: ast.NewIdent("len"), Args: []ast.Expr{ast.NewIdent(v.Name())}}, false, true
	case *ast.ForStmt:
		init, cond, ok := forParts(l, h.c.Index, h.info)
		if !ok && h.step != nil {
			init, cond, ok = forStepParts(l, h.c.Index, h.info)
		}
		if !ok {
			return nil, nil, false, false
		}
		if h.step != nil {
			if s, isConst := h.r.finder.intConst(h.step); !isConst || s <= 0 {
				return nil, nil, false, false
			}
		}
		lo, ok1 := h.atStart(init, nil, divs, 0)
		hi, ok2 := h.atStart(cond.Y, nil, divs, 0)
		return lo, hi, cond.Op == token.LEQ, ok1 && ok2
	}
	return nil, nil, false, false
}

// forStepParts matches for v := init; v < hi; v += s with a constant s.
func forStepParts(l *ast.ForStmt, v *types.Var, info *types.Info) (ast.Expr, *ast.BinaryExpr, bool) {
	p, ok := l.Post.(*ast.AssignStmt)
	if !ok || p.Tok != token.ADD_ASSIGN || len(p.Rhs) != 1 {
		return nil, nil, false
	}
	if _, ok := intConst(info, p.Rhs[0]); !ok {
		return nil, nil, false
	}
	one := *l
	one.Post = &ast.IncDecStmt{X: p.Lhs[0], Tok: token.INC}
	return forParts(&one, v, info)
}

// stepPast is the index one step past end-1, the last index below end:
// end for a step of 1, end-1+s for a step of s.
func (h *heapPass) stepPast(end ast.Expr) ast.Expr {
	if h.step == nil {
		return end
	}
	s, _ := h.r.finder.intConst(h.step)
	if s == 1 {
		return end
	}
	return &ast.BinaryExpr{X: end, Op: token.ADD, Y: intLit(s - 1)}
}

// atStart rewrites e into an expression with the same value that can be
// evaluated at the construct's start: the loop index replaced by idx,
// locals assigned once by their values, and otherwise only constants,
// locals in scope there that nothing writes while the construct runs,
// len of those, + - * / and min, max. Divisors are added to divs, for the
// guard to test them before dividing.
func (h *heapPass) atStart(e ast.Expr, idx ast.Expr, divs *[]ast.Expr, depth int) (ast.Expr, bool) {
	e = ast.Unparen(e)
	if tv, ok := h.info.Types[e]; ok && tv.Value != nil {
		if tv.Value.Kind() != constant.Int {
			return nil, false
		}
		return &ast.BasicLit{Kind: token.INT, Value: tv.Value.ExactString()}, true
	}
	if depth > 8 {
		return nil, false
	}
	switch x := e.(type) {
	case *ast.Ident:
		v, _ := h.info.Uses[x].(*types.Var)
		switch {
		case v == nil:
		case v == h.index():
			return idx, idx != nil
		case h.bind[v] != nil:
			return h.atStart(h.bind[v], idx, divs, depth+1)
		case h.visibleAtStart(v):
			return ast.NewIdent(v.Name()), true
		case h.def(v) != nil:
			return h.atStart(h.def(v), idx, divs, depth+1)
		}
	case *ast.SelectorExpr, *ast.StarExpr:
		return h.pathAtStart(x)
	case *ast.BinaryExpr:
		switch x.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO:
			a, okA := h.atStart(x.X, idx, divs, depth+1)
			b, okB := h.atStart(x.Y, idx, divs, depth+1)
			if !okA || !okB {
				return nil, false
			}
			if x.Op == token.QUO {
				*divs = append(*divs, b)
			}
			return &ast.BinaryExpr{X: a, Op: x.Op, Y: b}, true
		}
	case *ast.CallExpr:
		name := ""
		for _, n := range []string{"len", "min", "max"} {
			if isBuiltin(x, n, h.info) {
				name = n
			}
		}
		if name == "" || name == "len" && len(x.Args) != 1 {
			return nil, false
		}
		out := &ast.CallExpr{Fun: ast.NewIdent(name)}
		for _, a := range x.Args {
			if name == "len" {
				if p, ok := h.pathAtStart(a); ok {
					out.Args = append(out.Args, p)
					continue
				}
				id, isID := ast.Unparen(a).(*ast.Ident)
				v, _ := h.info.Uses[id].(*types.Var)
				if !isID || v == nil || !h.visibleAtStart(v) {
					return nil, false
				}
			}
			s, ok := h.atStart(a, idx, divs, depth+1)
			if !ok {
				return nil, false
			}
			out.Args = append(out.Args, s)
		}
		return out, true
	}
	return nil, false
}

// visibleAtStart reports whether the local v holds, at the construct's
// start, the value every goroutine sees, and its name denotes it there.
func (h *heapPass) visibleAtStart(v *types.Var) bool {
	if h.spec != nil {
		return h.specVisible(v) // the guard is evaluated at the literal's start
	}
	start := h.c.List[h.c.First].Pos()
	if v.Pos() >= start || !h.outside(v) || !h.r.ReadOnly(v, h.c) {
		return false
	}
	scope := h.r.finder.pkg.Scope().Innermost(start)
	if scope == nil {
		return false
	}
	_, obj := scope.LookupParent(v.Name(), start)
	return obj == v
}

// universalAtStart reports whether each name denotes the predeclared
// object at the construct's start, so a guard printed there may use it.
func (h *heapPass) universalAtStart(names ...string) bool {
	if h.spec != nil {
		for _, name := range names {
			if h.lookupAtLit(name) != types.Universe.Lookup(name) {
				return false
			}
		}
		return true
	}
	start := h.c.List[h.c.First].Pos()
	scope := h.r.finder.pkg.Scope().Innermost(start)
	for _, name := range names {
		if scope == nil {
			return false
		}
		if _, obj := scope.LookupParent(name, start); obj != types.Universe.Lookup(name) {
			return false
		}
	}
	return true
}

func intLit(k int64) ast.Expr {
	return &ast.BasicLit{Kind: token.INT, Value: constant.MakeInt64(k).ExactString()}
}

// maxInt is int(^uint(0) >> 1), the largest int on any platform.
func maxInt() ast.Expr {
	u0 := &ast.CallExpr{Fun: ast.NewIdent("uint"), Args: []ast.Expr{intLit(0)}}
	return &ast.CallExpr{Fun: ast.NewIdent("int"), Args: []ast.Expr{
		&ast.BinaryExpr{X: &ast.UnaryExpr{Op: token.XOR, X: u0}, Op: token.SHR, Y: intLit(1)},
	}}
}

// pathAtStart returns e itself when it is a path of field selections and
// pointer indirections (m.nodes, *width, s.pos) from a variable visible at
// the construct's start, reading memory nothing in the construct writes:
// its value there is every goroutine's. The node is the program's own, so
// that the rewriter, which knows its types, tests the pointers on it for
// nil before the guard reads through them (the checked copy then runs and
// fails as the program does).
func (h *heapPass) pathAtStart(e ast.Expr) (ast.Expr, bool) {
	if !h.invariant(e, 0) {
		return nil, false
	}
	for x := ast.Unparen(e); ; {
		switch y := x.(type) {
		case *ast.Ident:
			v, _ := h.info.Uses[y].(*types.Var)
			if v == nil || !(h.visibleAtStart(v) || v.Parent() == v.Pkg().Scope()) {
				return nil, false
			}
			return ast.Unparen(e), true
		case *ast.SelectorExpr:
			sel := h.info.Selections[y]
			if sel == nil || sel.Kind() != types.FieldVal || viaEmbeddedPointer(h.info.TypeOf(y.X), sel.Index()) {
				return nil, false // a.n through an embedded *B: the rewriter could not test a.B for nil
			}
			x = ast.Unparen(y.X)
		case *ast.StarExpr:
			x = ast.Unparen(y.X)
		default:
			return nil, false
		}
	}
}

// viaEmbeddedPointer reports whether the field selection of index from a
// value of type t goes through an embedded pointer field (a.n for a.B.n,
// B a *T), a pointer the syntax does not name.
func viaEmbeddedPointer(t types.Type, index []int) bool {
	for _, k := range index[:max(len(index)-1, 0)] {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return true
		}
		t = st.Field(k).Type()
		if _, ok := t.Underlying().(*types.Pointer); ok {
			return true
		}
	}
	return false
}
