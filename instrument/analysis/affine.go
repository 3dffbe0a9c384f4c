package analysis

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// This file holds the representation the dependence tests of depend.go
// work on: an integer value of the goroutine body as a polynomial in
// symbols, c + Σ coeff·monomial, each monomial a product of symbols:
//
//   - "@i", the construct's loop index;
//   - "@j<pos>", a loop variable of the goroutine body whose range is known
//     (for j := lo; j < hi; j++, range n, range s);
//   - a loop-invariant value (a local nothing writes while the construct
//     runs, a parameter, len of a stable slice), named by its canon.
//
// Coefficients are symbolic when a monomial has several symbols (i*N is
// the monomial "@i × N" with coefficient 1). Values are read with the
// arithmetic of mathematical integers; the proofs built on them hold only
// while the program's own arithmetic does not wrap, which depend.go makes a
// run-time condition (noWrap).

// poly is c + Σ coeff·monomial.
type poly struct {
	terms map[string]int64 // monomial (symbols sorted, joined by " × ") → coefficient
	k     int64
}

const symSep = " × "

func polyConst(k int64) poly { return poly{k: k} }

func polySym(s string) poly { return poly{terms: map[string]int64{s: 1}} }

func (p poly) add(q poly, sign int64) poly {
	out := poly{terms: map[string]int64{}, k: p.k + sign*q.k}
	for m, c := range p.terms {
		out.terms[m] += c
	}
	for m, c := range q.terms {
		out.terms[m] += sign * c
	}
	for m, c := range out.terms {
		if c == 0 {
			delete(out.terms, m)
		}
	}
	return out
}

func (p poly) scale(c int64) poly {
	out := poly{terms: map[string]int64{}, k: p.k * c}
	for m, x := range p.terms {
		if x*c != 0 {
			out.terms[m] = x * c
		}
	}
	return out
}

// mul multiplies two polynomials; it fails past degree 4 (no subscript
// the tests can use is of higher degree).
func (p poly) mul(q poly) (poly, bool) {
	out := p.scale(q.k)
	out = out.add(poly{terms: map[string]int64{}}, 1)
	for m, c := range q.terms {
		if p.k != 0 {
			out.terms[m] += p.k * c
		}
	}
	for m1, c1 := range p.terms {
		for m2, c2 := range q.terms {
			syms := append(strings.Split(m1, symSep), strings.Split(m2, symSep)...)
			if len(syms) > 4 {
				return poly{}, false
			}
			sort.Strings(syms)
			out.terms[strings.Join(syms, symSep)] += c1 * c2
		}
	}
	for m, c := range out.terms {
		if c == 0 {
			delete(out.terms, m)
		}
	}
	return out, true
}

// constant reports p's value when it has no symbols.
func (p poly) constant() (int64, bool) { return p.k, len(p.terms) == 0 }

// split writes p as s·coef + rest, rest free of the symbol s. It fails
// when s appears squared.
func (p poly) split(s string) (coef, rest poly, ok bool) {
	coef, rest = poly{terms: map[string]int64{}}, poly{terms: map[string]int64{}, k: p.k}
	for m, c := range p.terms {
		syms := strings.Split(m, symSep)
		n := 0
		var others []string
		for _, x := range syms {
			if x == s {
				n++
			} else {
				others = append(others, x)
			}
		}
		switch n {
		case 0:
			rest.terms[m] = c
		case 1:
			if len(others) == 0 {
				coef.k += c
			} else {
				coef.terms[strings.Join(others, symSep)] += c
			}
		default:
			return poly{}, poly{}, false
		}
	}
	return coef, rest, true
}

// has reports whether the symbol s appears in p.
func (p poly) has(s string) bool {
	for m := range p.terms {
		for _, x := range strings.Split(m, symSep) {
			if x == s {
				return true
			}
		}
	}
	return false
}

// symbols lists the symbols of p with the given prefix, in order.
func (p poly) symbols(prefix string) []string {
	seen := map[string]bool{}
	var out []string
	for m := range p.terms {
		for _, x := range strings.Split(m, symSep) {
			if strings.HasPrefix(x, prefix) && !seen[x] {
				seen[x] = true
				out = append(out, x)
			}
		}
	}
	sort.Strings(out)
	return out
}

// key prints p deterministically: equal keys, equal polynomials.
func (p poly) key() string {
	ms := make([]string, 0, len(p.terms))
	for m := range p.terms {
		ms = append(ms, m)
	}
	sort.Strings(ms)
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&b, "%+d·%s ", p.terms[m], m)
	}
	fmt.Fprintf(&b, "%+d", p.k)
	return b.String()
}

// affineState is what the dependence tests of one heap pass remember: the
// expression each invariant symbol stands for, the loop variables of the
// goroutine body with their ranges, and the sub-slices whose uses stay
// within their bounds.
type affineState struct {
	atoms     map[string]ast.Expr           // invariant symbol → an expression of it
	inner     map[string]*types.Var         // "@j<pos>" → the loop variable
	contained map[*ast.SliceExpr]bool       // sub-slices X[lo:hi] only indexed, ranged over, copied or cleared
	subOf     map[*types.Var]*ast.SliceExpr // s := X[lo:hi], s contained
	conds     map[*heapRoot][]ast.Expr      // run-time conditions of a root's band forms
	feet      map[*heapRoot][]foot          // the footprints of a root's accesses
	noFoot    map[*heapRoot]bool            // a root with an access whose footprint is unknown
	hulls     map[*heapRoot][]ast.Expr      // the conditions of a root proven by its hull
	through   map[ast.Expr]*heapRoot        // accesses through a contained sub-slice: the root it is taken of (nil: none)
	raws      map[*heapRoot][]rawAccess     // a flat root's X[e] accesses, e as read (exact.go)
	monoSyms  bool                          // polyOf reads monotone values of the index as symbols (exact.go)
	wholes    int                           // the fresh symbols of rows coordinates used whole (rows.go), so far
	mono      map[string]ast.Expr           // those symbols' expressions
	lens      map[ast.Expr]*ast.CallExpr    // len(x) of the slices inner loops range over (lenOf)
}

func (h *heapPass) affine() *affineState {
	if h.aff == nil {
		h.aff = &affineState{atoms: map[string]ast.Expr{}, inner: map[string]*types.Var{}, contained: map[*ast.SliceExpr]bool{},
			subOf: map[*types.Var]*ast.SliceExpr{}, conds: map[*heapRoot][]ast.Expr{}, feet: map[*heapRoot][]foot{},
			noFoot: map[*heapRoot]bool{}, hulls: map[*heapRoot][]ast.Expr{}, through: map[ast.Expr]*heapRoot{},
			raws: map[*heapRoot][]rawAccess{}, mono: map[string]ast.Expr{}}
		h.findContained()
	}
	return h.aff
}

// isInt reports whether e is of type int (or an untyped constant): the
// run-time conditions compute with int.
func (h *heapPass) isInt(e ast.Expr) bool {
	tv, ok := h.info.Types[e]
	if !ok {
		return false
	}
	if tv.Value != nil {
		return true
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	return ok && (b.Kind() == types.Int || b.Kind() == types.UntypedInt)
}

// polyOf reads e as a polynomial over the symbols above: constants, the
// loop index, the body's loop variables with a known range, invariant
// values, + - and *. Locals assigned once are replaced by their value.
func (h *heapPass) polyOf(e ast.Expr, depth int) (poly, bool) {
	p, ok := h.polyOf0(e, depth)
	if ok || h.aff == nil || !h.aff.monoSyms {
		return p, ok
	}
	// The exact test (exact.go) reads a value beyond polynomials that is a
	// monotone function of the loop index (a chunk bound w*n/k) as a
	// symbol of its own, each iteration's.
	if depth <= 8 && h.isInt(e) && !h.invariant(e, 0) && h.monotone(e, 0) {
		s := "@m:" + h.canon(h.resolve(e))
		h.aff.mono[s] = e
		return polySym(s), true
	}
	return p, ok
}

func (h *heapPass) polyOf0(e ast.Expr, depth int) (poly, bool) {
	e = ast.Unparen(e)
	if k, ok := litValue(e); ok {
		return polyConst(k), true // zeroLit, made here
	}
	if k, ok := h.r.finder.intConst(e); ok {
		return polyConst(k), true
	}
	if depth > 8 || !h.isInt(e) {
		return poly{}, false
	}
	st := h.affine()
	switch x := e.(type) {
	case *ast.Ident:
		v, _ := h.info.Uses[x].(*types.Var)
		if v == nil {
			return poly{}, false
		}
		if b := h.bind[v]; b != nil {
			return h.polyOf(b, depth+1)
		}
		if v == h.index() {
			return polySym("@i"), true
		}
		if _, _, ok := h.innerRange(v); ok {
			s := fmt.Sprintf("@j%d", v.Pos())
			st.inner[s] = v
			return polySym(s), true
		}
		if d := h.def(v); d != nil {
			if p, ok := h.polyOf(d, depth+1); ok {
				return p, true
			}
		}
		if h.invariant(x, 0) { // a value polyOf cannot read (bs := (n+k-1)/k), fixed while the construct runs
			s := h.canon(x)
			st.atoms[s] = x
			return polySym(s), true
		}
	case *ast.SelectorExpr:
		if h.items != nil && h.invariant(x, 0) { // a field that keeps its value while the pool runs (cbitems.go)
			s := h.canon(x)
			st.atoms[s] = x
			return polySym(s), true
		}
	case *ast.CallExpr:
		if isBuiltin(x, "len", h.info) && h.invariant(x, 0) {
			s := h.canon(x)
			st.atoms[s] = x
			return polySym(s), true
		}
	case *ast.BinaryExpr:
		a, okA := h.polyOf(x.X, depth+1)
		b, okB := h.polyOf(x.Y, depth+1)
		if !okA || !okB {
			return poly{}, false
		}
		switch x.Op {
		case token.ADD:
			return a.add(b, 1), true
		case token.SUB:
			return a.add(b, -1), true
		case token.MUL:
			return a.mul(b)
		}
	}
	return poly{}, false
}

// innerRange is the range of a loop variable of the goroutine body that
// only its loop assigns, as the expressions of its first value and of the
// bound it stays below (or at most): for v := lo; v < hi (or v <= hi);
// v++ (or v += s, under stepConds);
// range n; range s of a contained sub-slice s := X[lo:hi].
func (h *heapPass) innerRange(v *types.Var) (lo ast.Expr, hi innerBound, ok bool) {
	if v == nil || h.loopOf[v] == nil || !h.loopOwnedVar(v) {
		return nil, innerBound{}, false
	}
	switch l := h.loopOf[v].(type) {
	case *ast.ForStmt:
		init, cond, ok := forParts(l, v, h.info)
		if ok {
			return init, innerBound{e: cond.Y, incl: cond.Op == token.LEQ}, true
		}
		init, cond, step, ok := h.stepParts(l, v)
		if !ok {
			return nil, innerBound{}, false
		}
		return init, innerBound{e: cond.Y, incl: cond.Op == token.LEQ, step: step}, true
	case *ast.RangeStmt:
		if id, isID := l.Key.(*ast.Ident); !isID || h.info.Defs[id] != v {
			return nil, innerBound{}, false
		}
		if b, isInt := underlying(h.info.TypeOf(l.X)).(*types.Basic); isInt && b.Info()&types.IsInteger != 0 {
			return zeroLit, innerBound{e: l.X}, true
		}
		if sl := h.subSlice(l.X); sl != nil && sl.High != nil {
			lo := sl.Low
			if lo == nil {
				lo = zeroLit
			}
			return zeroLit, innerBound{e: sl.High, minus: lo}, true
		}
		if _, isSlice := underlying(h.info.TypeOf(l.X)).(*types.Slice); isSlice && h.items != nil && h.invariant(l.X, 0) {
			return zeroLit, innerBound{e: h.lenOf(l.X)}, true // range weights: below len(weights), fixed (cbitems.go)
		}
	}
	return nil, innerBound{}, false
}

// innerBound is the bound a loop variable stays below (at most, with
// incl): e, or e - minus (range over X[lo:hi]: below hi-lo).
type innerBound struct {
	e     ast.Expr
	incl  bool
	minus ast.Expr
	step  ast.Expr // v += step, an invariant; nil for v++ (stepConds)
}

var zeroLit = &ast.BasicLit{Kind: token.INT, Value: "0"}

// subSlice is the contained sub-slice x stands for (x itself, or a local
// s := X[lo:hi]), or nil.
func (h *heapPass) subSlice(x ast.Expr) *ast.SliceExpr {
	st := h.affine()
	switch e := ast.Unparen(x).(type) {
	case *ast.SliceExpr:
		if st.contained[e] {
			return e
		}
	case *ast.Ident:
		if v, _ := h.info.Uses[e].(*types.Var); v != nil {
			return st.subOf[v]
		}
	}
	return nil
}

// lenOf is len(x), written for x, a slice whose length is invariant: a
// call of the builtin the type information knows, made once per x so
// that its atom is one symbol.
func (h *heapPass) lenOf(x ast.Expr) ast.Expr {
	st := h.affine()
	if st.lens == nil {
		st.lens = map[ast.Expr]*ast.CallExpr{}
	}
	x = ast.Unparen(x)
	if c := st.lens[x]; c != nil {
		return c
	}
	fn := ast.NewIdent("len")
	fn.NamePos = x.Pos()
	h.info.Uses[fn] = types.Universe.Lookup("len")
	c := &ast.CallExpr{Fun: fn, Lparen: x.Pos(), Args: []ast.Expr{x}, Rparen: x.End()}
	h.info.Types[c] = types.TypeAndValue{Type: types.Typ[types.Int]}
	st.lens[x] = c
	return c
}
