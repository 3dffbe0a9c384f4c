package analysis

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// This file decides which elements an iteration of a parallel loop owns:
// subscripts written in terms of the loop's index i (k*i+d), of a chunk
// variable j of an inner loop over [f(i), f(i+step)), or flattened rows
// x*w+t with 0 ≤ t < w. Two iterations never own the same element.

// linear is Σ atoms·coefficient + k, over canonical atoms: a poly
// (affine.go) whose terms are all of degree one, so that the two proofs
// share one representation and its arithmetic.
type linear = poly

// lin reads e as a linear form: constants, loop-invariant values (atoms),
// the owned variables (atoms "own:…"), sums and constant multiples. Locals
// assigned once are replaced by their value.
func (h *heapPass) lin(e ast.Expr, depth int) (linear, bool) {
	e = ast.Unparen(e)
	if k, ok := h.r.finder.intConst(e); ok {
		return linear{k: k}, true
	}
	if depth > 8 {
		return linear{}, false
	}
	atom := func(s string) (linear, bool) { return linear{terms: map[string]int64{s: 1}}, true }
	switch x := e.(type) {
	case *ast.Ident:
		v, _ := h.info.Uses[x].(*types.Var)
		if v == nil {
			return linear{}, false
		}
		if b := h.bind[v]; b != nil {
			return h.lin(b, depth+1)
		}
		if fam, ok := h.family(v); ok {
			return atom("own:" + fam)
		}
		if d := h.def(v); d != nil {
			return h.lin(d, depth+1)
		}
		if h.invariant(x, 0) {
			return atom(h.canon(x))
		}
	case *ast.CallExpr:
		if h.invariant(x, 0) {
			return atom(h.canon(x))
		}
	case *ast.BinaryExpr:
		a, okA := h.lin(x.X, depth+1)
		b, okB := h.lin(x.Y, depth+1)
		if !okA || !okB {
			return linear{}, false
		}
		switch x.Op {
		case token.ADD:
			return a.add(b, 1), true
		case token.SUB:
			return a.add(b, -1), true
		case token.MUL:
			if k, ok := a.constant(); ok {
				return b.scale(k), true
			}
			if k, ok := b.constant(); ok {
				return a.scale(k), true
			}
		}
	}
	return linear{}, false
}

// form is the ownership form of the subscript e: equal forms in different
// iterations never denote the same element. It is "" when e is not owned.
func (h *heapPass) form(e ast.Expr) string {
	if !wide(h.info.TypeOf(e)) {
		return "" // i*2 of an int8 wraps within a loop of 64 iterations
	}
	if l, ok := h.lin(e, 0); ok && len(l.terms) == 1 {
		for a, k := range l.terms {
			if strings.HasPrefix(a, "own:") && k != 0 {
				if !h.wrapFree(k, strings.TrimPrefix(a, "own:")) {
					return "" // k*x wraps onto itself within the loop (nowrap.go)
				}
				return fmt.Sprintf("%s·%d%+d", a, k, l.k)
			}
		}
	}
	return h.rowForm(e)
}

// rowForm matches e against x*w + t with x owned, w invariant and
// 0 ≤ t < w: element t of row x of a flattened matrix with rows of w,
// under the guard that x*w+t does not wrap.
func (h *heapPass) rowForm(e ast.Expr) string {
	var terms []term
	flatten(e, 1, &terms)
	row := -1
	var x *types.Var
	var w ast.Expr
	for k, t := range terms {
		b, ok := ast.Unparen(t.e).(*ast.BinaryExpr)
		if !ok || b.Op != token.MUL || t.sign < 0 || row >= 0 {
			continue
		}
		for _, p := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			id, ok := ast.Unparen(p[0]).(*ast.Ident)
			if !ok {
				continue
			}
			v, _ := h.info.Uses[id].(*types.Var)
			if _, owned := h.family(v); v != nil && owned && h.invariant(p[1], 0) {
				row, x, w = k, v, p[1]
				break
			}
		}
	}
	if row < 0 {
		return ""
	}
	lo, hi := linear{}, linear{}
	for k, t := range terms {
		if k == row {
			continue
		}
		tl, th, ok := h.bounds(t.e)
		if !ok {
			return ""
		}
		if t.sign < 0 {
			tl, th = th.scale(-1), tl.scale(-1)
		}
		lo, hi = lo.add(tl, 1), hi.add(th, 1)
	}
	wl, ok := h.lin(w, 0)
	if !ok {
		return ""
	}
	if k, ok := lo.constant(); !ok || k < 0 {
		return ""
	}
	if k, ok := wl.add(hi, -1).constant(); !ok || k <= 0 {
		return ""
	}
	fam, _ := h.family(x)
	return h.rowGuard(e, x, fam, w) // owned while x*w+t does not wrap
}

type term struct {
	e    ast.Expr
	sign int64
}

// flatten splits e into its signed summands.
func flatten(e ast.Expr, sign int64, out *[]term) {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && (b.Op == token.ADD || b.Op == token.SUB) {
		flatten(b.X, sign, out)
		if b.Op == token.SUB {
			sign = -sign
		}
		flatten(b.Y, sign, out)
		return
	}
	*out = append(*out, term{e, sign})
}

// bounds is the least and greatest value of e: a linear invariant value,
// or a loop variable of the goroutine body counting from lo up to hi.
func (h *heapPass) bounds(e ast.Expr) (lo, hi linear, ok bool) {
	if id, isID := ast.Unparen(e).(*ast.Ident); isID {
		if v, _ := h.info.Uses[id].(*types.Var); v != nil {
			if lo, hi, ok := h.loopRange(v); ok {
				return lo, hi, true
			}
		}
	}
	l, ok := h.lin(e, 0)
	if !ok {
		return linear{}, linear{}, false
	}
	for a := range l.terms {
		if strings.HasPrefix(a, "own:") {
			return linear{}, linear{}, false
		}
	}
	return l, l, true
}

// loopRange is the range of values of a loop variable of the goroutine
// body that only its loop assigns: for v := lo; v < hi (or v <= hi); v++,
// and for v := range n or range s (0 to n-1, len(s)-1).
func (h *heapPass) loopRange(v *types.Var) (lo, hi linear, ok bool) {
	if !h.loopOwnedVar(v) {
		return linear{}, linear{}, false
	}
	switch l := h.loopOf[v].(type) {
	case *ast.ForStmt:
		init, cond, ok := forParts(l, v, h.info)
		if !ok {
			return linear{}, linear{}, false
		}
		lo, ok1 := h.lin(init, 0)
		hi, ok2 := h.lin(cond.Y, 0)
		if !ok1 || !ok2 {
			return linear{}, linear{}, false
		}
		if cond.Op == token.LSS {
			hi = hi.add(linear{k: 1}, -1)
		}
		return lo, hi, true
	case *ast.RangeStmt:
		if id, isID := l.Key.(*ast.Ident); !isID || h.info.Defs[id] != v {
			return linear{}, linear{}, false
		}
		n := l.X
		if elemType(h.info.TypeOf(l.X)) != nil {
			n = &ast.CallExpr{Fun: ast.NewIdent("len"), Args: []ast.Expr{l.X}}
			if !h.invariant(l.X, 0) {
				return linear{}, linear{}, false
			}
			return linear{}, linear{terms: map[string]int64{"len(" + h.canon(l.X) + ")": 1}, k: -1}, true
		}
		hi, ok := h.lin(n, 0)
		if !ok {
			return linear{}, linear{}, false
		}
		return linear{}, hi.add(linear{k: 1}, -1), true
	}
	return linear{}, linear{}, false
}

// forParts matches for v := init; v < hi (or <=); v++ (or v += 1) and
// returns init and the condition, with v on the left.
func forParts(l *ast.ForStmt, v *types.Var, info *types.Info) (ast.Expr, *ast.BinaryExpr, bool) {
	as, ok := l.Init.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil, nil, false
	}
	if id, ok := as.Lhs[0].(*ast.Ident); !ok || info.Defs[id] != v {
		return nil, nil, false
	}
	isV := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == v
	}
	c, ok := l.Cond.(*ast.BinaryExpr)
	if !ok {
		return nil, nil, false
	}
	switch {
	case (c.Op == token.LSS || c.Op == token.LEQ) && isV(c.X):
	case (c.Op == token.GTR || c.Op == token.GEQ) && isV(c.Y):
		op := map[token.Token]token.Token{token.GTR: token.LSS, token.GEQ: token.LEQ}[c.Op]
		c = &ast.BinaryExpr{X: c.Y, Op: op, Y: c.X}
	default:
		return nil, nil, false
	}
	switch p := l.Post.(type) {
	case *ast.IncDecStmt:
		if p.Tok != token.INC || !isV(p.X) {
			return nil, nil, false
		}
	case *ast.AssignStmt:
		if p.Tok != token.ADD_ASSIGN || len(p.Lhs) != 1 || !isV(p.Lhs[0]) {
			return nil, nil, false
		}
		if k, ok := intConst(info, p.Rhs[0]); !ok || k != 1 {
			return nil, nil, false
		}
	default:
		return nil, nil, false
	}
	return as.Rhs[0], c, true
}

// family names the set of values an owned variable takes in one iteration:
// "idx" for the loop's own index (one value), or the chunk [f(i), f(i+step))
// of an inner loop for j := f(i); j < f(i+step) (or a min with it); j++.
func (h *heapPass) family(v *types.Var) (string, bool) {
	if v == nil {
		return "", false
	}
	if v == h.c.Index {
		return "idx", true
	}
	l, ok := h.loopOf[v].(*ast.ForStmt)
	if !ok || !h.loopOwnedVar(v) {
		return "", false
	}
	init, cond, ok := forParts(l, v, h.info)
	if !ok || cond.Op != token.LSS {
		return "", false
	}
	return h.chunk(init, cond.Y)
}

// chunk reports whether [lo, hi) is an owned interval, [f(i), f(i+step)),
// or a part of one (hi = min(f(i+step), …)), with f monotone in i.
func (h *heapPass) chunk(lo, hi ast.Expr) (string, bool) {
	if !wide(h.info.TypeOf(lo)) || !wide(h.info.TypeOf(hi)) || !h.monotone(lo, 0) {
		return "", false
	}
	shifted := h.shifted(lo, hi)
	if call, ok := h.resolve(hi).(*ast.CallExpr); ok && !shifted && isBuiltin(call, "min", h.info) {
		for _, a := range call.Args {
			shifted = shifted || h.shifted(lo, a)
		}
	}
	if !shifted {
		return "", false
	}
	return h.chunkFamily(lo, hi)
}

// chunkFamily names the family of the chunk [lo, hi): f is monotone, and
// so the chunks disjoint, only while its arithmetic does not wrap (w*n/k
// with a huge n wraps and repeats values), so the family carries the
// run-time condition that every step of lo and hi stays within maxInt in
// every iteration (magnitude), a guard keyed in its name: a form of the
// family is then owned only under it (prove's usesIndex). A chunk whose
// magnitudes cannot be bounded is no family.
func (h *heapPass) chunkFamily(lo, hi ast.Expr) (string, bool) {
	var conds []ast.Expr
	if _, ok := h.magnitude(lo, &conds, 0); !ok {
		return "", false
	}
	if _, ok := h.magnitude(hi, &conds, 0); !ok {
		return "", false
	}
	if h.chunkLos == nil {
		h.chunkLos = map[string]ast.Expr{}
	}
	if len(conds) == 0 {
		h.chunkLos["iv:"+h.canon(lo)] = lo
		return "iv:" + h.canon(lo), true
	}
	if !h.universalAtStart("int", "uint") {
		return "", false
	}
	var uniq []ast.Expr
	seen := map[string]bool{}
	for _, c := range conds {
		if s := types.ExprString(c); !seen[s] {
			seen[s] = true
			uniq = append(uniq, c)
		}
	}
	key := h.injective("nowrapchunk:"+h.canon(lo), GuardSpan{Path: lo, Injective: true, Chunk: true, Cond: conjunction(uniq)})
	h.chunkLos["iv:"+key+"["+h.canon(lo)+"]"] = lo
	return "iv:" + key + "[" + h.canon(lo) + "]", true
}

// loopOwnedVar reports whether only v's loop statement assigns v.
func (h *heapPass) loopOwnedVar(v *types.Var) bool {
	w := h.r.writes[v]
	l := h.loopOf[v]
	if w == nil || w.elsewhere || l == nil {
		return false
	}
	fs, _ := l.(*ast.ForStmt)
	for _, p := range w.at {
		if fs == nil || fs.Post == nil || p < fs.Post.Pos() || p >= fs.Post.End() {
			return false
		}
	}
	return true
}

// monotone reports whether e is a function of the loop index i that never
// decreases or never increases: i appears once, combined with invariant
// values by +, -, *, / and min or max. (Chunk bounds such as c*n/k; an
// overflowing product is outside the model.)
func (h *heapPass) monotone(e ast.Expr, depth int) bool {
	e = ast.Unparen(e)
	if depth > 8 {
		return false
	}
	switch x := e.(type) {
	case *ast.Ident:
		v, _ := h.info.Uses[x].(*types.Var)
		if v != nil && v == h.c.Index {
			return true
		}
		if b := h.bind[v]; b != nil {
			return h.monotone(b, depth+1) // a parameter bound to the call's argument (a callback's lo)
		}
		if d := h.def(v); d != nil {
			return h.monotone(d, depth+1)
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.ADD, token.SUB, token.MUL:
			return h.monotone(x.X, depth+1) && h.invariant(x.Y, 0) || h.invariant(x.X, 0) && h.monotone(x.Y, depth+1)
		case token.QUO:
			return h.monotone(x.X, depth+1) && h.invariant(x.Y, 0)
		}
	case *ast.CallExpr:
		if isBuiltin(x, "min", h.info) || isBuiltin(x, "max", h.info) {
			n := 0
			for _, a := range x.Args {
				switch {
				case h.invariant(a, 0):
				case h.monotone(a, depth+1):
					n++
				default:
					return false
				}
			}
			return n == 1
		}
	}
	return false
}

// shifted reports whether b is a with the loop index i replaced by
// i+step (or step+i).
func (h *heapPass) shifted(a, b ast.Expr) bool {
	a, b = h.resolve(a), h.resolve(b)
	if id, ok := a.(*ast.Ident); ok && h.info.Uses[id] == h.c.Index {
		s, ok := b.(*ast.BinaryExpr)
		if !ok || s.Op != token.ADD {
			return false
		}
		isI := func(e ast.Expr) bool {
			id, ok := h.resolve(e).(*ast.Ident)
			return ok && h.info.Uses[id] == h.c.Index
		}
		return isI(s.X) && h.isStep(s.Y) || isI(s.Y) && h.isStep(s.X)
	}
	switch x := a.(type) {
	case *ast.Ident:
		y, ok := b.(*ast.Ident)
		return ok && h.info.Uses[x] != nil && h.info.Uses[x] == h.info.Uses[y]
	case *ast.BasicLit:
		y, ok := b.(*ast.BasicLit)
		return ok && x.Value == y.Value
	case *ast.BinaryExpr:
		y, ok := b.(*ast.BinaryExpr)
		return ok && x.Op == y.Op && h.shifted(x.X, y.X) && h.shifted(x.Y, y.Y)
	case *ast.SelectorExpr:
		y, ok := b.(*ast.SelectorExpr)
		return ok && h.info.Uses[x.Sel] == h.info.Uses[y.Sel] && h.shifted(x.X, y.X)
	case *ast.StarExpr:
		y, ok := b.(*ast.StarExpr)
		return ok && h.shifted(x.X, y.X)
	case *ast.UnaryExpr:
		y, ok := b.(*ast.UnaryExpr)
		return ok && x.Op == y.Op && h.shifted(x.X, y.X)
	case *ast.CallExpr:
		y, ok := b.(*ast.CallExpr)
		if !ok || len(x.Args) != len(y.Args) || !h.shifted(x.Fun, y.Fun) {
			return false
		}
		for k := range x.Args {
			if !h.shifted(x.Args[k], y.Args[k]) {
				return false
			}
		}
		return true
	}
	return false
}

// isStep reports whether e is the loop's step: 1 for range loops and i++,
// the invariant s of i += s.
func (h *heapPass) isStep(e ast.Expr) bool {
	if h.step == nil {
		k, ok := h.r.finder.intConst(e)
		return ok && k == 1
	}
	if k, ok := h.r.finder.intConst(h.step); ok {
		k2, ok2 := h.r.finder.intConst(e)
		return ok2 && k == k2
	}
	return h.canon(e) == h.canon(h.step)
}

// resolve replaces a local assigned once by its value, and drops parens.
func (h *heapPass) resolve(e ast.Expr) ast.Expr {
	return h.substitute(e, func(*types.Var) bool { return true })
}

// substitute replaces, repeatedly, a local assigned once for which ok
// holds by its value, and drops parens.
func (h *heapPass) substitute(e ast.Expr, ok func(*types.Var) bool) ast.Expr {
	for range 8 {
		e = ast.Unparen(e)
		id, isID := e.(*ast.Ident)
		if !isID {
			return e
		}
		v, _ := h.info.Uses[id].(*types.Var)
		if b := h.bind[v]; b != nil {
			e = b
			continue
		}
		d := h.def(v)
		if d == nil || !ok(v) {
			return e
		}
		e = d
	}
	return e
}

// invariant reports whether e has one value throughout one goroutine of
// the construct: constants, locals nothing writes while the construct runs
// (declared before it) or assigned once from invariant values, stable
// fields, len and cap of stable slices, and arithmetic on them.
func (h *heapPass) invariant(e ast.Expr, depth int) bool {
	e = ast.Unparen(e)
	if _, ok := h.r.finder.intConst(e); ok {
		return true
	}
	if tv, ok := h.info.Types[e]; ok && tv.Value != nil {
		return true
	}
	if depth > 8 {
		return false
	}
	switch x := e.(type) {
	case *ast.Ident:
		v, _ := h.info.Uses[x].(*types.Var)
		if v == nil || v == h.index() {
			return false
		}
		if b := h.bind[v]; b != nil {
			return h.invariant(b, depth+1)
		}
		if h.outside(v) && h.r.ReadOnly(v, h.c) {
			return true
		}
		if d := h.def(v); d != nil {
			return h.invariant(d, depth+1)
		}
	case *ast.SelectorExpr:
		return h.stable(x)
	case *ast.StarExpr:
		return h.invariant(x.X, depth+1) && !h.written(h.info.TypeOf(x))
	case *ast.BinaryExpr:
		switch x.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.SHL, token.SHR:
			return h.invariant(x.X, depth+1) && h.invariant(x.Y, depth+1)
		}
	case *ast.CallExpr:
		if tv := h.info.Types[x.Fun]; tv.IsType() && len(x.Args) == 1 {
			return h.invariant(x.Args[0], depth+1)
		}
		if isBuiltin(x, "len", h.info) || isBuiltin(x, "cap", h.info) {
			return len(x.Args) == 1 && h.invariant(x.Args[0], depth+1)
		}
		if isBuiltin(x, "min", h.info) || isBuiltin(x, "max", h.info) {
			for _, a := range x.Args {
				if !h.invariant(a, depth+1) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// stable reports whether e, a local or a path of fields from one, denotes
// the same memory and holds the same value while the construct runs: the
// local is invariant, and no write of the construct can reach the fields
// (by type).
func (h *heapPass) stable(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, _ := h.info.Uses[x].(*types.Var)
		if b := h.bind[v]; b != nil {
			return h.stable(b)
		}
		if v != nil && !h.ownInstance(v) {
			return false
		}
		if v != nil && v.Pkg() == h.r.finder.pkg && v.Parent() == v.Pkg().Scope() {
			return !h.written(v.Type()) // a global of this package: nothing in the construct writes its type
		}
		return v != nil && v != h.index() && h.outside(v) && h.r.ReadOnly(v, h.c)
	case *ast.SelectorExpr:
		if sel, ok := h.info.Uses[x.Sel].(*types.Var); ok && h.info.Selections[x] == nil {
			return sel.Pkg() == h.r.finder.pkg && !h.written(sel.Type()) // pkg.V is another package's global: not followed
		}
		s := h.info.Selections[x]
		if s == nil || s.Kind() != types.FieldVal || !h.stable(x.X) {
			return false
		}
		if !s.Indirect() && !isPtr(h.info.TypeOf(x.X)) {
			return true // a part of a stable local
		}
		if h.items != nil {
			return h.items.stable(x) // no write of the pool's tree meets it (cbitems.go)
		}
		return !h.written(h.info.TypeOf(x))
	}
	return false
}

// ownInstance reports whether the variable v is one per instance of the
// construct: always when the construct is in a function declaration (the
// rewriter applies the proofs only to a function's root construct, never
// in a clone, so no other instance runs in its tree); in a function
// literal, which several goroutines may call at once (an enclosing
// construct's iterations, through a function value), only when the
// literal declares v itself. A proof that iterations own their elements of
// a captured slice says nothing of two instances of the literal.
func (h *heapPass) ownInstance(v *types.Var) bool {
	home := h.r.enclosingFuncLit(h.c.List[h.c.First])
	return home == nil || h.inBoundCallee(v) || within(v.Pos(), home)
}

// written reports whether any write of the construct may touch memory of
// type t.
func (h *heapPass) written(t types.Type) bool {
	if h.items != nil {
		return true // a callback's items list no writes by type (cbitems.go): anything may be written
	}
	for _, w := range h.writes {
		if h.overlap(w, t) { // views.go
			return true
		}
	}
	return false
}

// outside reports whether v is declared outside the construct's statements
// (so one value of it is seen by every goroutine).
func (h *heapPass) outside(v *types.Var) bool {
	if h.inBoundCallee(v) {
		return false // a callee walked in place runs in the goroutine
	}
	lo, hi := h.c.List[h.c.First].Pos(), h.c.List[h.c.Join].End()
	return v.Pos() < lo || v.Pos() >= hi
}

// def is the value of a local assigned exactly once, at its declaration,
// or nil.
func (h *heapPass) def(v *types.Var) ast.Expr {
	if v == nil {
		return nil
	}
	d := h.defs[v]
	if d == nil || !h.immutable(v) || !h.sameValue(v, d) {
		return nil
	}
	return d
}

// immutable reports whether nothing assigns v after its declaration.
func (h *heapPass) immutable(v *types.Var) bool {
	w := h.r.writes[v]
	return w != nil && !w.elsewhere && len(w.at) == 0
}

// sameValue reports whether d, evaluated where v is declared, still has
// v's value wherever v is used: every variable in d keeps its value as
// long as v is in scope (it is immutable, the loop index, or a loop
// variable of a loop whose body declares v), and d reads no memory unless
// v is declared inside the construct, where the memory read is stable.
func (h *heapPass) sameValue(v *types.Var, d ast.Expr) bool {
	inside := !h.outside(v)
	ok := true
	ast.Inspect(d, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			u, _ := h.info.Uses[x].(*types.Var)
			if u == nil || u.IsField() || u == v {
				return true
			}
			switch {
			case h.immutable(u), u == h.index(), h.bind[u] != nil:
			case inside && h.outside(u) && h.r.ReadOnly(u, h.c):
			case h.loopOf[u] != nil && h.loopOwnedVar(u) && within(v.Pos(), loopBody(h.loopOf[u])):
			default:
				ok = false
			}
		case *ast.StarExpr, *ast.IndexExpr, *ast.FuncLit:
			ok = ok && inside
		case *ast.SelectorExpr:
			if s := h.info.Selections[x]; s != nil && !inside {
				ok = false
			}
		case *ast.CallExpr:
			if !isBuiltin(x, "len", h.info) && !isBuiltin(x, "cap", h.info) && !isBuiltin(x, "min", h.info) && !isBuiltin(x, "max", h.info) {
				if tv := h.info.Types[x.Fun]; !tv.IsType() {
					ok = false
				}
			}
		}
		return ok
	})
	return ok
}

func within(p token.Pos, n ast.Node) bool {
	return n != nil && n.Pos() <= p && p < n.End()
}

// canon prints e with each variable named by its declaration, so equal
// strings denote the same values.
func (h *heapPass) canon(e ast.Expr) string {
	var b strings.Builder
	var pr func(e ast.Expr)
	pr = func(e ast.Expr) {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			if v, ok := h.info.Uses[x].(*types.Var); ok && h.bind[v] != nil {
				pr(h.bind[v])
			} else if obj := h.info.Uses[x]; obj != nil && obj.Pos().IsValid() {
				fmt.Fprintf(&b, "%s@%d", x.Name, obj.Pos())
			} else {
				b.WriteString(x.Name)
			}
		case *ast.BasicLit:
			b.WriteString(x.Value)
		case *ast.BinaryExpr:
			b.WriteString("(")
			pr(x.X)
			b.WriteString(x.Op.String())
			pr(x.Y)
			b.WriteString(")")
		case *ast.SelectorExpr:
			pr(x.X)
			fmt.Fprintf(&b, ".%s@%d", x.Sel.Name, h.info.Uses[x.Sel].Pos())
		case *ast.StarExpr:
			b.WriteString("*")
			pr(x.X)
		case *ast.CallExpr:
			pr(x.Fun)
			b.WriteString("(")
			for k, a := range x.Args {
				if k > 0 {
					b.WriteString(",")
				}
				pr(a)
			}
			b.WriteString(")")
		case *ast.IndexExpr:
			pr(x.X)
			b.WriteString("[")
			pr(x.Index)
			b.WriteString("]")
		default:
			fmt.Fprintf(&b, "?%d", e.Pos()) // never equal to another expression
		}
	}
	pr(e)
	return b.String()
}

func isBuiltin(call *ast.CallExpr, name string, info *types.Info) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != name {
		return false
	}
	_, ok = info.Uses[id].(*types.Builtin)
	return ok
}

// wide reports whether t is an integer type of the machine's word or 64
// bits: arithmetic on it does not wrap within any loop that could run.
func wide(t types.Type) bool {
	b, ok := underlying(t).(*types.Basic)
	if !ok {
		return false
	}
	switch b.Kind() {
	case types.Int, types.Int64, types.Uint, types.Uint64, types.Uintptr, types.UntypedInt:
		return true
	}
	return false
}
