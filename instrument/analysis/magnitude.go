package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// This file writes the run-time conditions that make depend.go's
// polynomials exact: the loop index's range, and bounds on every step of
// the program's arithmetic that say it does not wrap.

// indexRange is the loop index's first value and the greatest value it
// can take (its bound less one, or the bound of i <= n), as polynomials,
// with the conditions that make them exact: the first value is ≥ 0 (so
// the index's magnitude is at most the bound's), the bounds' arithmetic
// does not wrap, and neither does the index stepping past its bound.
func (h *heapPass) indexRange() (first, last poly, conds []ast.Expr, ok bool) {
	if h.items != nil {
		return h.itemRange()
	}
	if h.c.Index == nil {
		return poly{}, poly{}, nil, false
	}
	var init, end, sAt ast.Expr
	incl := false
	switch l := loopStmt(h.c.List[h.c.First]).(type) {
	case *ast.RangeStmt:
		b, isInt := underlying(h.info.TypeOf(l.X)).(*types.Basic)
		if !isInt || b.Info()&types.IsInteger == 0 {
			return poly{}, poly{}, nil, false
		}
		init, end = zeroLit, l.X
	case *ast.ForStmt:
		i, cond, ok := forParts(l, h.c.Index, h.info)
		if !ok && h.step != nil {
			i, cond, ok = h.indexStepParts(l)
		}
		if !ok && h.step == nil {
			return h.scaledIndexRange(l)
		}
		if !ok {
			return poly{}, poly{}, nil, false
		}
		if h.step != nil {
			if s, isConst := h.r.finder.intConst(h.step); isConst && s <= 0 {
				return poly{}, poly{}, nil, false
			}
			if sAt, ok = h.variableStep(); !ok {
				return poly{}, poly{}, nil, false
			}
		}
		init, end, incl = i, cond.Y, cond.Op == token.LEQ
	default:
		return poly{}, poly{}, nil, false
	}
	first, ok1 := h.polyOf(init, 0)
	last, ok2 := h.polyOf(end, 0)
	if !ok1 || !ok2 || first.has("@i") || last.has("@i") || len(first.symbols("@j")) > 0 || len(last.symbols("@j")) > 0 {
		return poly{}, poly{}, nil, false
	}
	if !incl {
		last = last.add(polyConst(1), -1)
	}
	if _, ok := h.magnitude(init, &conds, 0); !ok {
		return poly{}, poly{}, nil, false
	}
	mEnd, ok := h.magnitude(end, &conds, 0)
	if !ok {
		return poly{}, poly{}, nil, false
	}
	// The index steps past its bound without wrapping: bound + s-1 ≤ maxInt
	// for i < n, bound + s for i <= n (i += s, s = 1 for i++).
	step := int64(1)
	if h.step != nil {
		step, _ = h.r.finder.intConst(h.step)
	}
	if !incl {
		step--
	}
	if step > maxInt32 {
		return poly{}, poly{}, nil, false
	}
	if sAt != nil {
		// i += s, s an invariant: s ≥ 1, and the step past the bound does
		// not wrap (bound + s ≤ maxInt, for i < n and i <= n alike).
		conds = append(conds, &ast.BinaryExpr{X: sAt, Op: token.GEQ, Y: intLit(1)},
			&ast.BinaryExpr{X: mEnd, Op: token.LEQ, Y: &ast.BinaryExpr{X: maxInt(), Op: token.SUB, Y: sAt}})
	} else if step > 0 {
		conds = append(conds, &ast.BinaryExpr{X: mEnd, Op: token.LEQ, Y: &ast.BinaryExpr{X: maxInt(), Op: token.SUB, Y: intLit(step)}})
	}
	if k, isConst := first.constant(); !isConst || k < 0 {
		var divs []ast.Expr
		s, ok := h.atStart(init, nil, &divs, 0)
		if !ok || len(divs) > 0 {
			return poly{}, poly{}, nil, false
		}
		conds = append(conds, &ast.BinaryExpr{X: s, Op: token.GEQ, Y: intLit(0)})
	}
	return first, last, conds, true
}

// magnitude returns an expression, evaluated at the construct's start, at
// least the absolute value of e and of every step of its computation in
// any iteration, adding to conds the conditions (evaluated in order) that
// it and its parts do not exceed maxInt; it fails when e is not of the
// forms polyOf reads, min/max or quotients and remainders of them.
func (h *heapPass) magnitude(e ast.Expr, conds *[]ast.Expr, depth int) (ast.Expr, bool) {
	e = ast.Unparen(e)
	k, ok := litValue(e) // zeroLit, made here
	if !ok {
		k, ok = h.r.finder.intConst(e)
	}
	if ok {
		if k < 0 {
			k = -k
		}
		return intLit(k), k >= 0 && k <= maxInt32
	}
	if depth > 12 || !h.isInt(e) {
		return nil, false
	}
	// Constants are folded here: Go folds them too, and a constant that
	// overflows int is a compile error, not a failed condition. Every
	// constant stays within 32 bits, so the guard compiles everywhere.
	sum := func(a, b ast.Expr) ast.Expr {
		if x, ok := litValue(a); ok {
			if y, ok := litValue(b); ok && x+y <= maxInt32 {
				return intLit(x + y)
			}
		}
		*conds = append(*conds, &ast.BinaryExpr{X: a, Op: token.LEQ, Y: &ast.BinaryExpr{X: maxInt(), Op: token.SUB, Y: b}})
		return &ast.BinaryExpr{X: &ast.ParenExpr{X: a}, Op: token.ADD, Y: &ast.ParenExpr{X: b}}
	}
	switch x := e.(type) {
	case *ast.Ident:
		v, _ := h.info.Uses[x].(*types.Var)
		if v == nil {
			return nil, false
		}
		if b := h.bind[v]; b != nil {
			return h.magnitude(b, conds, depth+1)
		}
		if v == h.index() {
			return h.indexMagnitude(conds, depth)
		}
		if lo, b, ok := h.innerRange(v); ok && b.e != nil {
			need, ok := h.stepConds(v)
			if !ok {
				return nil, false
			}
			*conds = append(*conds, need...)
			ml, ok1 := h.magnitude(lo, conds, depth+1)
			mh, ok2 := h.magnitude(b.e, conds, depth+1)
			if !ok1 || !ok2 {
				return nil, false
			}
			m := sum(ml, mh)
			if b.incl {
				m = sum(m, intLit(1)) // j <= hi: j++ wraps when hi is the largest int
			}
			if b.minus != nil {
				mm, ok := h.magnitude(b.minus, conds, depth+1)
				if !ok {
					return nil, false
				}
				m = sum(m, mm)
			}
			return m, true
		}
		if d := h.def(v); d != nil {
			var dc []ast.Expr
			if m, ok := h.magnitude(d, &dc, depth+1); ok {
				*conds = append(*conds, dc...)
				return m, true
			}
		}
		if h.invariant(x, 0) { // as polyOf reads it: an atom
			var divs []ast.Expr
			s, ok := h.atStart(x, nil, &divs, 0)
			if !ok || len(divs) > 0 {
				return nil, false
			}
			*conds = append(*conds, &ast.BinaryExpr{X: s, Op: token.GEQ, Y: intLit(0)})
			return s, true
		}
	case *ast.SelectorExpr, *ast.StarExpr:
		if p, ok := h.pathAtStart(x); ok { // as the invariant local above
			*conds = append(*conds, &ast.BinaryExpr{X: p, Op: token.GEQ, Y: intLit(0)})
			return p, true
		}
	case *ast.CallExpr:
		if isBuiltin(x, "len", h.info) && h.invariant(x, 0) {
			var divs []ast.Expr
			s, ok := h.atStart(x, nil, &divs, 0)
			return s, ok && len(divs) == 0
		}
		if isBuiltin(x, "min", h.info) || isBuiltin(x, "max", h.info) {
			var m ast.Expr
			for _, a := range x.Args {
				ma, ok := h.magnitude(a, conds, depth+1)
				if !ok {
					return nil, false
				}
				if m == nil {
					m = ma
				} else {
					m = sum(m, ma)
				}
			}
			return m, m != nil
		}
	case *ast.BinaryExpr:
		if x.Op != token.ADD && x.Op != token.SUB && x.Op != token.MUL && x.Op != token.QUO && x.Op != token.REM {
			return nil, false
		}
		a, okA := h.magnitude(x.X, conds, depth+1)
		b, okB := h.magnitude(x.Y, conds, depth+1)
		if !okA || !okB {
			return nil, false
		}
		if x.Op == token.QUO || x.Op == token.REM {
			// |a/b| and |a%b| are at most |a| for b ≠ 0 (b = 0 panics in
			// the program, before any access), and a ≥ -maxInt, so
			// minInt/-1 does not occur.
			return a, true
		}
		if x.Op != token.MUL {
			return sum(a, b), true
		}
		if x, ok := litValue(a); ok {
			if y, ok := litValue(b); ok {
				if x != 0 && y > maxInt32/x {
					return nil, false
				}
				return intLit(x * y), true
			}
		}
		*conds = append(*conds, &ast.BinaryExpr{
			X:  &ast.BinaryExpr{X: b, Op: token.EQL, Y: intLit(0)},
			Op: token.LOR,
			Y:  &ast.BinaryExpr{X: a, Op: token.LEQ, Y: &ast.BinaryExpr{X: maxInt(), Op: token.QUO, Y: b}},
		})
		return &ast.BinaryExpr{X: &ast.ParenExpr{X: a}, Op: token.MUL, Y: &ast.ParenExpr{X: b}}, true
	}
	return nil, false
}

// indexMagnitude bounds the loop index's magnitude by its loop's bound:
// the index counts up from a first value indexRange requires ≥ 0.
func (h *heapPass) indexMagnitude(conds *[]ast.Expr, depth int) (ast.Expr, bool) {
	if h.items != nil {
		return h.magnitude(h.items.end, conds, depth+1) // items in [first, end), first ≥ 0 (itemRange)
	}
	switch l := loopStmt(h.c.List[h.c.First]).(type) {
	case *ast.RangeStmt:
		return h.magnitude(l.X, conds, depth+1)
	case *ast.ForStmt:
		_, cond, ok := forParts(l, h.c.Index, h.info)
		if !ok && h.step != nil {
			_, cond, ok = h.indexStepParts(l)
		}
		if ok {
			sAt, ok := h.variableStep()
			if !ok {
				return nil, false
			}
			m, ok := h.magnitude(cond.Y, conds, depth+1)
			if ok && sAt != nil {
				*conds = append(*conds, &ast.BinaryExpr{X: sAt, Op: token.GEQ, Y: intLit(1)},
					&ast.BinaryExpr{X: m, Op: token.LEQ, Y: &ast.BinaryExpr{X: maxInt(), Op: token.SUB, Y: sAt}})
			}
			return m, ok
		}
		if n, sc, ok := scaledBound(l, h.c.Index, h.info); ok && h.step == nil {
			if _, _, c, ok := h.scaledIndexRange(l); ok {
				*conds = append(*conds, c...)
				_ = sc
				return h.magnitude(n, conds, depth+1)
			}
		}
	}
	return nil, false
}

// scaledBound reads the loop for i := 0; i*s < n; i++ (or s*i): n and s.
func scaledBound(l *ast.ForStmt, v *types.Var, info *types.Info) (n, s ast.Expr, ok bool) {
	as, isAs := l.Init.(*ast.AssignStmt)
	if !isAs || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil, nil, false
	}
	if id, isID := as.Lhs[0].(*ast.Ident); !isID || info.Defs[id] != v {
		return nil, nil, false
	}
	if lit, isLit := ast.Unparen(as.Rhs[0]).(*ast.BasicLit); !isLit || lit.Value != "0" {
		return nil, nil, false
	}
	isV := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == v
	}
	if p, isInc := l.Post.(*ast.IncDecStmt); !isInc || p.Tok != token.INC || !isV(p.X) {
		return nil, nil, false
	}
	c, isBin := ast.Unparen(l.Cond).(*ast.BinaryExpr)
	if !isBin || c.Op != token.LSS {
		return nil, nil, false
	}
	m, isMul := ast.Unparen(c.X).(*ast.BinaryExpr)
	if !isMul || m.Op != token.MUL {
		return nil, nil, false
	}
	switch {
	case isV(m.X):
		return c.Y, m.Y, true
	case isV(m.Y):
		return c.Y, m.X, true
	}
	return nil, nil, false
}

// scaledIndexRange is indexRange for the loop for i := 0; i*s < n; i++
// (blocks of s): with s ≥ 1 and n ≤ maxInt - s, i*s is exact at every
// test (0 at the first; i*s < n before a step, so (i+1)*s < n + s after
// it), hence every index run has 0 ≤ i ≤ i*s < n: the index ranges over
// [0, n-1], an upper bound, which is all the band test needs of its last
// value, and it steps to at most n.
func (h *heapPass) scaledIndexRange(l *ast.ForStmt) (first, last poly, conds []ast.Expr, ok bool) {
	n, s, ok := scaledBound(l, h.c.Index, h.info)
	if !ok {
		return poly{}, poly{}, nil, false
	}
	last, ok = h.polyOf(n, 0)
	if !ok || last.has("@i") || len(last.symbols("@j")) > 0 {
		return poly{}, poly{}, nil, false
	}
	if sp, ok := h.polyOf(s, 0); !ok || sp.has("@i") || len(sp.symbols("@j")) > 0 {
		return poly{}, poly{}, nil, false
	}
	mN, ok := h.magnitude(n, &conds, 0)
	if !ok {
		return poly{}, poly{}, nil, false
	}
	var divs []ast.Expr
	sAt, ok := h.atStart(s, nil, &divs, 0)
	if !ok || len(divs) > 0 {
		return poly{}, poly{}, nil, false
	}
	conds = append(conds,
		&ast.BinaryExpr{X: sAt, Op: token.GEQ, Y: intLit(1)},
		&ast.BinaryExpr{X: mN, Op: token.LEQ, Y: &ast.BinaryExpr{X: maxInt(), Op: token.SUB, Y: sAt}})
	return polyConst(0), last.add(polyConst(1), -1), conds, true
}

// are ints on every platform.
const maxInt32 = 1<<31 - 1

// litValue is the value of an integer literal intLit made.
func litValue(e ast.Expr) (int64, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		return 0, false
	}
	v, err := strconv.ParseInt(lit.Value, 10, 64)
	return v, err == nil
}

// indexStepParts matches the construct's loop for i := init; i < hi (or
// <=); i += s, s the step (constant or not; indexRange and
// indexMagnitude check it).
func (h *heapPass) indexStepParts(l *ast.ForStmt) (ast.Expr, *ast.BinaryExpr, bool) {
	p, ok := l.Post.(*ast.AssignStmt)
	if !ok || p.Tok != token.ADD_ASSIGN || len(p.Lhs) != 1 || len(p.Rhs) != 1 {
		return nil, nil, false
	}
	one := *l
	one.Post = &ast.IncDecStmt{X: p.Lhs[0], Tok: token.INC}
	return forParts(&one, h.c.Index, h.info)
}

// variableStep is the construct's loop step as evaluated at its start
// when it is an invariant int value that is not a constant (i += bs); nil
// when the step is a constant or there is none. It fails for any other
// step.
func (h *heapPass) variableStep() (ast.Expr, bool) {
	if h.step == nil {
		return nil, true
	}
	if _, isConst := h.r.finder.intConst(h.step); isConst {
		return nil, true
	}
	if !h.isInt(h.step) || !h.invariant(h.step, 0) {
		return nil, false
	}
	var divs []ast.Expr
	e, ok := h.atStart(h.step, nil, &divs, 0)
	return e, ok && len(divs) == 0
}

// itemRange is indexRange for a callback's items (cbitems.go): the values
// of the helper's feed, [first, end), first required ≥ 0, their
// arithmetic not wrapping.
func (h *heapPass) itemRange() (first, last poly, conds []ast.Expr, ok bool) {
	first, ok1 := h.polyOf(h.items.first, 0)
	end, ok2 := h.polyOf(h.items.end, 0)
	if !ok1 || !ok2 || first.has("@i") || end.has("@i") || len(first.symbols("@j")) > 0 || len(end.symbols("@j")) > 0 {
		return poly{}, poly{}, nil, false
	}
	if _, ok := h.magnitude(h.items.first, &conds, 0); !ok {
		return poly{}, poly{}, nil, false
	}
	if _, ok := h.magnitude(h.items.end, &conds, 0); !ok {
		return poly{}, poly{}, nil, false
	}
	if k, isConst := first.constant(); !isConst || k < 0 {
		var divs []ast.Expr
		s, ok := h.atStart(h.items.first, nil, &divs, 0)
		if !ok || len(divs) > 0 {
			return poly{}, poly{}, nil, false
		}
		conds = append(conds, &ast.BinaryExpr{X: s, Op: token.GEQ, Y: intLit(0)})
	}
	return first, end.add(polyConst(1), -1), conds, true
}
