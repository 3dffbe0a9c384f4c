package rewrite

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"slices"
	"strconv"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// Check coalescing (issue 4): in checked code of the pruned build, the
// checks of a simple sequential loop that would repeat for every iteration
// run once, before the loop, with the sites the per-iteration checks have:
//
//	for j := range n {                  if 0 < n && r < len(a) && n <= len(a[r]) {
//		x.sum += a[r][j]          →          _ga_rt.ReadSpan(_ga_k1, a[r], 0, n, 3)
//	}                                        _ga_rt.RW(_ga_k1, &x.sum, 2)
//	                                         for j := range n {
//	                                            (x.sum) += (a[r][j])
//	                                         }
//	                                      } else {
//	                                         for j := range n {
//	                                            *_ga_rt.RW(_ga_k1, &x.sum, 5) += *_ga_rt.R(_ga_k1, &a[r][j], 6)
//	                                         }
//	                                      }
//
// When the condition fails, the loop checks every access as before
// (coalesce_fast.go: the loop is written twice). No line is added inside
// the user's code; both copies carry the loop's /*line*/ directives.
//
// The rule. A loop is coalesced when
//   - it is `for j := lo; j < hi; j++` (or j <= hi, or j += 1), `for j := range n`
//     (or `for range n`, no j) or
//     `for j[, v] := range s` (s a slice; for a loop over an expression,
//     the temporary rangetemp.go made it range over) or over an array or
//     a pointer to an array (len(s) iterations, a constant; a value of a
//     pointer's elements is the span s[:] with s != nil, an array value's
//     copy is the header's check, rangelen.go), j an int that
//     nothing but the loop assigns,
//     hi (for the three-clause form) loop-invariant;
//   - its body has no break, goto, labelled continue, label, return, go,
//     defer, select, send, receive, nested loop (but those of
//     coalesce_nest.go, which check nothing per iteration), function literal,
//     composite literal, address operator, slice expression or type
//     assertion, no map index, no `:=` that redeclares, and no call but
//     len, cap, min, max, functions of package math and conversions that
//     cannot panic (if, switch and a plain continue make what they guard
//     conditional, see bodyStmt): so once it starts, nothing forks,
//     joins, blocks or synchronises inside it, and every iteration runs to
//     its end unless an operation panics;
//   - every operation of the body that can panic is made safe by a
//     condition tested before the loop: an index x[k] with x and k
//     loop-invariant (k < len(x)), or x[j+d] with x invariant and d a
//     constant (lo+d ≥ 0 and hi+d ≤ len(x); an array x at an invariant
//     location, a pointer to an array x != nil, both spanned as x[:]),
//     or x[j+S+d] with S
//     loop-invariant (rt.SpanIn, coalesce_affine.go), or x[coef*j+S+d]
//     with coef loop-invariant (rt.StrideIn, coalesce_stride.go: checked
//     where it is); a dereference of an invariant
//     pointer (p != nil); integer division by an invariant (y != 0) and a
//     shift by an invariant signed count (y >= 0).
//
// When the conditions hold and lo < hi, the loop runs every iteration to
// its end, so each access of a top-level statement of the body (not under
// && or ||) happens in every iteration: x[j+d] touches exactly
// x[lo+d:hi+d], and an access whose address is loop-invariant touches its
// one location in every iteration. Those are the checks moved before the
// loop (x[j+d] as a ReadSpan or WriteSpan, with x of a non-aggregate
// element type, and a range loop's value of any type, whose span reads
// every leaf of each element as RA does; an invariant one as itself).
//
// Loop-invariant: an expression the loop's writes cannot change: its
// variables are declared outside the loop and not assigned in it, and no
// location it reads may overlap a location the loop writes (overlap below:
// by variable, field, and element type, since without unsafe memory of one
// type cannot be reached as another that does not contain it); nor can
// another block's: every location it reads is one the static stage proved
// no other block writes while the loop runs (coalesce_overlap.go's
// othersWrite: private, read-only, independent, or a global nothing
// assigns), not one the pruned build checks. A package
// that imports unsafe, or whose import graph has a package outside the
// standard library that imports unsafe or reflect (analysis views.go), is
// not coalesced.
//
// Order. Reports name the sites of the accesses a block made to a location
// in the order it made them (a later access supersedes an earlier one in
// the locked protocol's histories), so checks moved before the loop must
// meet each location in the loop's order. The checked accesses of the loop
// fall into groups that may share memory (overlap); a group moves only as
// a whole, and only when its accesses are all invariant (each location
// then sees one iteration's sequence, which repeating does not change) or
// all x[j+d] elements: then the spans are checked by decreasing d, in body
// order for equal d, which is the order in which the loop meets each
// element, provided two different slices of the group are the same array
// from the same element or disjoint (rt.SameOrApart, tested before the
// loop). Accesses of the loop's header never move, nor does any group they
// are in.
type coalescing struct {
	loop    ast.Stmt
	j       *types.Var
	lo, hi  ast.Expr // the iterations are [lo, hi); lo nil means 0
	hiLen   bool     // hi is len(hi) (range over a slice)
	incl    bool     // the loop's test is j <= hi; hi is then made hi+1 once it was found invariant and safe
	name    string   // the variable holding the task for the checks in the loop
	cands   map[ast.Expr]*cand
	feet    map[ast.Expr]*cand // conditional x[j+S+d], and strided x[coef*j+S+d]: where they may touch (coalesce_partial.go, coalesce_stride.go)
	strides map[string]*stride // the StrideIn tests of the strided accesses, by text
	conds   []ast.Expr         // evaluation-safety conditions, in order
	nhead   int                // conds[:nhead] are those of the bounds lo and hi
	bounds  map[string]*bound
	writes  []loc // the locations the loop writes
	taken   map[*types.Var]bool
	temp    *ast.Ident        // the temporary a range loop ranges over (rangetemp.go), nil for none
	ptr     ast.Expr          // X of a range with a value over a pointer to an array: tested != nil
	values  map[ast.Expr]bool // the values of nested range loops whose reads are candidates (coalesce_nest.go)
	ok      bool              // the body qualifies so far
	cut     bool              // a continue may end an iteration here: what follows is conditional
	checks  []*loopCheck
}

// cand is an access of the body that may be checked before the loop.
type cand struct {
	base  ast.Expr // elem: the slice x of x[j+S+d]; nil for an invariant address
	sym   ast.Expr // the loop-invariant symbolic part S of the offset, nil for none
	d     int
	order int  // evaluation order of its check in an iteration
	whole bool // a footprint that may be anywhere in base (a strided access, coalesce_stride.go)
	fixed bool // the whole of base, base[0:len(base)], in every iteration: a nested loop's values (coalesce_nest.go)
}

// bound collects the offsets d of the x[j+S+d] of one slice x and one S.
type bound struct {
	x          ast.Expr
	sym        ast.Expr
	dmin, dmax int
}

// loopCheck is a check the rewriter made inside the loop.
type loopCheck struct {
	a    ast.Expr
	fn   string
	site uint32
	cand *cand
	foot *cand      // a conditional element access: its footprint
	task *dst.Ident // the task argument of a candidate's check
}

// coalesceStart returns the coalescing state for loop statement s when its
// form and body qualify, and makes it the walker's; else nil.
func (w *walker) coalesceStart(s dst.Stmt) *coalescing {
	if w.task == "" || w.cfg.Elementwise || w.coal != nil || importsUnsafe(w.pkg.Types) || w.res.Views() != "" {
		return nil
	}
	c := &coalescing{cands: map[ast.Expr]*cand{}, feet: map[ast.Expr]*cand{}, strides: map[string]*stride{}, bounds: map[string]*bound{}, values: map[ast.Expr]bool{}, ok: true}
	var body *ast.BlockStmt
	switch a := w.astOf(s).(type) {
	case *ast.ForStmt:
		body = a.Body
		if !w.forShape(c, a) {
			return nil
		}
	case *ast.RangeStmt:
		body = a.Body
		if !w.rangeShape(c, a, s.(*dst.RangeStmt)) {
			return nil
		}
	default:
		return nil
	}
	c.loop = w.astOf(s).(ast.Stmt)
	if !w.predeclaredAt(c.loop.Pos(), "len", "uint64", "nil") {
		return nil // the conditions name them: a local called len would not compile
	}
	c.name = fmt.Sprintf("_ga_h%d", w.pkg.Fset.Position(c.loop.Pos()).Offset)
	c.taken = w.addrTaken()
	c.writes = w.loopWrites(c, body)
	if !c.ok {
		return nil
	}
	// The bounds are evaluated before the loop: they must be safe too.
	for _, e := range []ast.Expr{c.lo, c.hi} {
		if e != nil && !w.safe(c, e) {
			return nil
		}
	}
	if c.lo != nil && !w.invariant(c, c.lo) || !w.invariant(c, c.hi) {
		return nil
	}
	if c.ptr != nil && c.cands[rangeValue(w.astOf(s).(*ast.RangeStmt))] != nil {
		if w.nonNil(c, c.ptr); !c.ok {
			return nil
		}
	}
	if c.incl {
		// j <= n runs j < n+1. When n+1 wraps (n is the largest int) the
		// loop never ends, and the test lo < hi made before it fails: the
		// loop runs as written. A constant n+1 does not wrap, it fails to
		// compile (j <= math.MaxInt): a constant bound at or above the
		// largest 32-bit int refuses (no loop that large runs to its end).
		if tv := w.info.Types[c.hi]; tv.Value != nil && constant.Compare(constant.ToInt(tv.Value), token.GEQ, constant.MakeInt64(math.MaxInt32)) {
			return nil
		}
		c.hi = plusConst(c.hi, 1)
	}
	c.nhead = len(c.conds)
	order := 0
	for _, st := range body.List {
		w.bodyStmt(c, st, &order)
	}
	if !c.ok || len(c.cands) == 0 {
		return nil
	}
	w.coal = c
	return c
}

// forShape reads `for j := lo; j < hi; j++` (or j <= hi).
func (w *walker) forShape(c *coalescing, a *ast.ForStmt) bool {
	init, ok := a.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
		return false
	}
	if !w.loopVar(c, init.Lhs[0]) {
		return false
	}
	cond, ok := a.Cond.(*ast.BinaryExpr)
	if !ok || cond.Op != token.LSS && cond.Op != token.LEQ || !w.isVar(cond.X, c.j) {
		return false
	}
	switch p := a.Post.(type) {
	case *ast.IncDecStmt:
		ok = p.Tok == token.INC && w.isVar(p.X, c.j)
	case *ast.AssignStmt:
		ok = p.Tok == token.ADD_ASSIGN && w.isVar(p.Lhs[0], c.j) && w.constInt(p.Rhs[0]) == 1
	default:
		ok = false
	}
	c.lo, c.hi, c.incl = init.Rhs[0], cond.Y, cond.Op == token.LEQ
	return ok
}

// rangeShape reads `for j := range n` and `for j[, v] := range s`. A loop
// ranging over a temporary holding X (rangetemp.go) is a loop over that
// temporary: c.temp, a name the type information does not know.
func (w *walker) rangeShape(c *coalescing, a *ast.RangeStmt, s *dst.RangeStmt) bool {
	if a.Key == nil && a.Tok != token.ILLEGAL { // for range n: no variable (c.j nil)
		return false
	}
	if a.Key != nil && (a.Tok != token.DEFINE || !w.loopVar(c, a.Key)) {
		return false
	}
	x := a.X
	if tmp := w.rangeTemp(a, s); tmp != "" {
		c.temp = ast.NewIdent(tmp)
		x = c.temp
	}
	base := x
	switch t := underlying(w.info.TypeOf(a.X)).(type) {
	case *types.Slice:
		c.hi, c.hiLen = x, true
	case *types.Basic:
		if a.Value != nil || !isInteger(w.info.TypeOf(a.X)) {
			return false
		}
		c.hi = a.X
	case *types.Array:
		// len(X) iterations, a constant. With a value the loop copied X
		// before it started: that read is the header's check, and the
		// iterations read no element (rangelen.go), so no value candidate.
		c.hi = intLit(int(t.Len()))
		return true
	case *types.Pointer:
		arr, ok := t.Elem().Underlying().(*types.Array)
		if !ok {
			return false
		}
		c.hi = intLit(int(arr.Len()))
		if rangeValue(a) == nil {
			return true
		}
		// Each iteration reads *X's element: X != nil before the loop
		// (coalesceStart, once the loop's writes are known), and the span
		// is over X[:].
		c.ptr = x
		base = &ast.SliceExpr{X: x}
	default:
		return false
	}
	if rangeValue(a) != nil && (c.temp != nil || pure(a.X)) {
		c.cands[a.Value] = &cand{base: base, order: -1} // the value's check, at the body's start
		c.bound(x, nil, 0)
	}
	return true
}

// arrayLen is the length of x when it is an array or a pointer to one (x
// may be the temporary of the loop, of the type of the loop's X).
func (w *walker) arrayLen(c *coalescing, x ast.Expr) (int, bool) {
	t := w.info.TypeOf(x)
	if r, ok := c.loop.(*ast.RangeStmt); ok && c.temp != nil && x == c.temp {
		t = w.info.TypeOf(r.X)
	}
	if p, ok := underlying(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if a, ok := underlying(t).(*types.Array); ok {
		return int(a.Len()), true
	}
	return 0, false
}

// intLit is the constant n as a bound the coalescer made.
func intLit(n int) ast.Expr {
	return &ast.BasicLit{Kind: token.INT, Value: itoa(n)}
}

// loopVar records e as the loop's int variable.
func (w *walker) loopVar(c *coalescing, e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := w.info.Defs[id].(*types.Var)
	if !ok || !types.Identical(v.Type(), types.Typ[types.Int]) {
		return false
	}
	c.j = v
	return true
}

func (w *walker) isVar(e ast.Expr, v *types.Var) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && v != nil && w.info.Uses[id] == v
}

// constInt is the value of an integer constant expression, or 0.
func (w *walker) constInt(e ast.Expr) int {
	if b, ok := e.(*ast.BasicLit); ok && w.info.Types[e].Value == nil { // made by coalescing
		n, _ := strconv.Atoi(b.Value)
		return n
	}
	tv, ok := w.info.Types[e]
	if !ok || tv.Value == nil {
		return 0
	}
	v := constant.ToInt(tv.Value) // an untyped 1.0 used as an int is 1
	if v.Kind() != constant.Int {
		return 0
	}
	n, _ := constant.Int64Val(v)
	return int(n)
}

func (w *walker) isConst(e ast.Expr) bool {
	if b, ok := e.(*ast.BasicLit); ok {
		return b.Kind == token.INT
	}
	tv, ok := w.info.Types[e]
	return ok && tv.Value != nil
}

func (c *coalescing) bound(x, sym ast.Expr, d int) {
	k := types.ExprString(x)
	if sym != nil {
		k += " + " + types.ExprString(sym)
	}
	if b := c.bounds[k]; b != nil {
		b.dmin, b.dmax = min(b.dmin, d), max(b.dmax, d)
		return
	}
	c.bounds[k] = &bound{x: x, sym: sym, dmin: d, dmax: d}
}

func (c *coalescing) cond(e ast.Expr) {
	if !slices.ContainsFunc(c.conds, func(x ast.Expr) bool { return types.ExprString(x) == types.ExprString(e) }) {
		c.conds = append(c.conds, e)
	}
}

func importsUnsafe(p *types.Package) bool {
	return slices.ContainsFunc(p.Imports(), func(q *types.Package) bool { return q.Path() == "unsafe" })
}

// bodyStmt checks one top-level statement of the body: its accesses happen
// in every iteration, except under && and ||.
func (w *walker) bodyStmt(c *coalescing, s ast.Stmt, order *int) {
	uncond := !c.cut
	switch s := s.(type) {
	case *ast.AssignStmt:
		for _, e := range append(slices.Clone(s.Lhs), s.Rhs...) {
			w.expr(c, e, uncond, order)
		}
		w.safeAssign(c, s)
	case *ast.IncDecStmt:
		w.expr(c, s.X, uncond, order)
	case *ast.BranchStmt:
		w.nested(c, s, order)
	case *ast.DeclStmt:
		ast.Inspect(s, func(n ast.Node) bool {
			if vs, ok := n.(*ast.ValueSpec); ok {
				for _, e := range vs.Values {
					w.expr(c, e, uncond, order)
				}
				return false
			}
			return true
		})
	case *ast.EmptyStmt:
	case *ast.BlockStmt:
		w.nested(c, s, order)
	case *ast.IfStmt:
		w.nested(c, s, order)
	case *ast.SwitchStmt:
		w.nested(c, s, order)
	case *ast.RangeStmt:
		w.nestedLoop(c, s, uncond, order) // coalesce_nest.go
	default:
		c.ok = false
	}
}

// nested checks a statement whose accesses do not happen in every iteration.
func (w *walker) nested(c *coalescing, s ast.Stmt, order *int) {
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			w.safeAssign(c, n)
			return true
		case *ast.IncDecStmt, *ast.DeclStmt, *ast.EmptyStmt, *ast.BlockStmt, *ast.IfStmt, *ast.SwitchStmt, *ast.CaseClause:
			return true
		case *ast.BranchStmt:
			if n.Tok != token.CONTINUE || n.Label != nil {
				c.ok = false
			}
			c.cut = true // the statements after this one may not run
			return false
		case *ast.RangeStmt:
			w.nestedLoop(c, n, false, order)
			return false
		case ast.Expr:
			w.expr(c, n, false, order)
			return false
		case ast.Stmt:
			c.ok = false
		}
		return c.ok
	})
}

// expr checks expression e of the body, in evaluation order (operands
// first, left to right), and records candidates when e is evaluated in
// every iteration (uncond).
func (w *walker) expr(c *coalescing, e ast.Expr, uncond bool, order *int) {
	if !c.ok || e == nil {
		return
	}
	if tv, ok := w.info.Types[e]; ok && (tv.IsType() || tv.Value != nil) {
		return
	}
	switch x := e.(type) {
	case *ast.Ident:
		if v, ok := w.info.Uses[x].(*types.Var); ok && v == c.j {
			return
		}
	case *ast.BasicLit:
	case *ast.ParenExpr:
		w.expr(c, x.X, uncond, order)
		return
	case *ast.SelectorExpr:
		if s := w.info.Selections[x]; s != nil {
			if s.Kind() != types.FieldVal {
				c.ok = false
				return
			}
			if viaEmbeddedPointer(w.info.TypeOf(x.X), s.Index()) {
				c.ok = false // a.n through a.B, an embedded *B: the pointer to test is a.B, which has no syntax here
				return
			}
			w.expr(c, x.X, uncond, order)
			if s.Indirect() || isPointer(w.info.TypeOf(x.X)) {
				w.nonNil(c, x.X)
			}
		}
	case *ast.StarExpr:
		w.expr(c, x.X, uncond, order)
		w.nonNil(c, x.X)
	case *ast.IndexExpr:
		w.expr(c, x.X, uncond, order)
		w.expr(c, x.Index, uncond, order)
		if uncond && w.elemCand(c, x, *order) {
			*order++
			return
		}
		if f := w.strided(c, x, *order); f != nil {
			c.feet[x] = f // checked where it is; its bounds are a StrideIn test
			*order++
			return
		}
		w.inBounds(c, x)
		if f := w.footprint(c, x, *order); f != nil {
			c.feet[x] = f
			*order++
		}
	case *ast.UnaryExpr:
		if x.Op == token.AND || x.Op == token.ARROW {
			c.ok = false
			return
		}
		w.expr(c, x.X, uncond, order)
		return
	case *ast.BinaryExpr:
		w.expr(c, x.X, uncond, order)
		w.expr(c, x.Y, uncond && x.Op != token.LAND && x.Op != token.LOR, order)
		w.safeOp(c, x)
		return
	case *ast.CallExpr:
		w.call1(c, x, uncond, order)
		return
	default:
		c.ok = false
		return
	}
	if uncond && w.addrInvariant(c, e) {
		c.cands[e] = &cand{order: *order}
		*order++
	}
}

// call1 accepts len, cap, min, max and conversions that cannot panic.
func (w *walker) call1(c *coalescing, x *ast.CallExpr, uncond bool, order *int) {
	fun := ast.Unparen(x.Fun)
	if tv := w.info.Types[fun]; tv.IsType() {
		switch underlying(tv.Type).(type) {
		case *types.Array, *types.Pointer:
			c.ok = false // from a slice: may panic
		}
		switch fun.(type) {
		case *ast.Ident, *ast.SelectorExpr:
		default:
			c.ok = false // copyExpr copies a type only as a name
		}
	} else if w.mathFunc(fun) {
		// no panic, no synchronisation: a pure function of its arguments
	} else if id, ok := fun.(*ast.Ident); !ok || !slices.Contains([]string{"len", "cap", "min", "max"}, id.Name) {
		c.ok = false
	} else if _, builtin := w.info.Uses[id].(*types.Builtin); !builtin {
		c.ok = false
	}
	for _, a := range x.Args {
		w.expr(c, a, uncond, order)
	}
}

// elemCand records x[j+d] on an invariant slice as a candidate.
func (w *walker) elemCand(c *coalescing, x *ast.IndexExpr, order int) bool {
	sym, d, ok := w.affine(c, x.Index)
	if !ok {
		return false
	}
	switch t := underlying(w.info.TypeOf(x.X)).(type) {
	case *types.Slice:
		if aggregate(w.info.TypeOf(x)) || !w.invariant(c, x.X) || !w.safe(c, x.X) {
			return false
		}
		c.cands[x] = &cand{base: x.X, sym: sym, d: d, order: order}
	case *types.Array:
		// The array's elements as a slice, X[:]: its location must be the
		// same in every iteration (its contents may change).
		if aggregate(w.info.TypeOf(x)) || !addressable(x.X, w.info) || !w.addrInvariant(c, x.X) || !w.safe(c, x.X) {
			return false
		}
		c.cands[x] = &cand{base: &ast.SliceExpr{X: x.X}, sym: sym, d: d, order: order}
	case *types.Pointer: // to an array (indexing compiles): X != nil, and X[:]
		if aggregate(w.info.TypeOf(x)) || !w.invariant(c, x.X) || !w.safe(c, x.X) {
			return false
		}
		if _, arr := t.Elem().Underlying().(*types.Array); !arr {
			return false
		}
		w.nonNil(c, x.X)
		c.cands[x] = &cand{base: &ast.SliceExpr{X: x.X}, sym: sym, d: d, order: order}
	case *types.Basic: // a string: not checked, but it may panic
		if !w.invariant(c, x.X) || !w.safe(c, x.X) {
			return false
		}
	default:
		return false
	}
	c.bound(x.X, sym, d)
	return true
}

// inBounds requires x[k] (not a candidate) to be on an invariant operand at
// an invariant index, and adds k < len(x) to the conditions.
func (w *walker) inBounds(c *coalescing, x *ast.IndexExpr) {
	switch underlying(w.info.TypeOf(x.X)).(type) {
	case *types.Map, nil:
		c.ok = false
		return
	case *types.Array:
		if w.isConst(x.Index) {
			return // checked by the compiler
		}
	case *types.Pointer: // to an array: a dereference
		if w.nonNil(c, x.X); w.isConst(x.Index) {
			return // checked by the compiler
		}
	}
	if sym, d, ok := w.affine(c, x.Index); ok { // x[j+S+d] evaluated conditionally: still a bound
		if !w.baseInvariant(c, x.X) || !w.safe(c, x.X) {
			c.ok = false
			return
		}
		c.bound(x.X, sym, d)
		return
	}
	if !w.invariant(c, x.Index) || !w.invariant(c, x.X) && !w.addrInvariant(c, x.X) {
		c.ok = false
		return
	}
	c.cond(&ast.BinaryExpr{X: lenArg(x.Index, w.isConst(x.Index)), Op: token.LSS, Y: lenArg(lenOf(x.X), w.isConst(x.Index))})
}

// baseInvariant reports whether x, indexed at x[j+S+d], names the same
// elements in every iteration: an invariant slice or pointer, or an array
// at an invariant location (its elements may be written).
func (w *walker) baseInvariant(c *coalescing, x ast.Expr) bool {
	if _, arr := underlying(w.info.TypeOf(x)).(*types.Array); arr {
		return w.addrInvariant(c, x)
	}
	return w.invariant(c, x)
}

// lenArg is e as an operand of a bounds test: uint64(e) unless constant.
func lenArg(e ast.Expr, isConst bool) ast.Expr {
	if isConst {
		return e
	}
	return &ast.CallExpr{Fun: ast.NewIdent("uint64"), Args: []ast.Expr{e}}
}

// predeclaredAt reports whether each name denotes the predeclared object
// at pos: the coalesced loop's conditions are printed before it with
// len(…), uint64(…) and nil, which a local of those names (len := 3)
// would otherwise capture, breaking the build.
func (w *walker) predeclaredAt(pos token.Pos, names ...string) bool {
	scope := w.pkg.Types.Scope().Innermost(pos)
	if scope == nil {
		return false
	}
	for _, name := range names {
		if _, obj := scope.LookupParent(name, pos); obj != types.Universe.Lookup(name) {
			return false
		}
	}
	return true
}

func lenOf(x ast.Expr) ast.Expr {
	return &ast.CallExpr{Fun: ast.NewIdent("len"), Args: []ast.Expr{x}}
}

// nonNil requires the dereferenced pointer p to be invariant and adds p != nil.
func (w *walker) nonNil(c *coalescing, p ast.Expr) {
	if !w.invariant(c, p) {
		c.ok = false
		return
	}
	c.cond(&ast.BinaryExpr{X: p, Op: token.NEQ, Y: ast.NewIdent("nil")})
}

// safeAssign makes x /= y, x %= y, x <<= y and x >>= y safe.
func (w *walker) safeAssign(c *coalescing, s *ast.AssignStmt) {
	op := map[token.Token]token.Token{token.QUO_ASSIGN: token.QUO, token.REM_ASSIGN: token.REM, token.SHL_ASSIGN: token.SHL, token.SHR_ASSIGN: token.SHR}[s.Tok]
	if op != token.ILLEGAL && len(s.Lhs) == 1 && len(s.Rhs) == 1 {
		w.safeOp(c, &ast.BinaryExpr{X: s.Lhs[0], Op: op, Y: s.Rhs[0]})
	}
}

// safeOp makes integer division and shifts safe.
func (w *walker) safeOp(c *coalescing, x *ast.BinaryExpr) {
	switch x.Op {
	case token.QUO, token.REM:
		if !isInteger(w.info.TypeOf(x.X)) {
			return
		}
		if w.isConst(x.Y) {
			return // a constant 0 does not compile
		}
		if !w.invariant(c, x.Y) {
			c.ok = false
			return
		}
		c.cond(&ast.BinaryExpr{X: x.Y, Op: token.NEQ, Y: &ast.BasicLit{Kind: token.INT, Value: "0"}})
	case token.SHL, token.SHR:
		if w.isConst(x.Y) || isUnsigned(w.info.TypeOf(x.Y)) {
			return
		}
		if !w.invariant(c, x.Y) {
			c.ok = false
			return
		}
		c.cond(&ast.BinaryExpr{X: x.Y, Op: token.GEQ, Y: &ast.BasicLit{Kind: token.INT, Value: "0"}})
	}
}

func isUnsigned(t types.Type) bool {
	b, ok := underlying(t).(*types.Basic)
	return ok && b.Info()&types.IsUnsigned != 0
}

// safe reports whether e, evaluated before the loop, cannot panic once the
// conditions recorded for it hold (they are added).
func (w *walker) safe(c *coalescing, e ast.Expr) bool {
	saved, cands := c.ok, c.cands
	c.ok = true
	order := 0
	w.expr(c, e, false, &order) // not evaluated by the loop: no candidate
	ok := c.ok
	c.ok, c.cands = saved, cands
	return ok
}

// checkTask is the task argument of a check the rewriter makes at site:
// inside a coalesced loop, a candidate's check takes the loop's variable,
// nil once the checks before the loop ran; every other check takes the task.
func (w *walker) checkTask(a ast.Expr, fn string, site uint32) dst.Expr {
	c := w.coal
	worker := w.res.WorkerBlock(a) // see workerTask
	if c == nil {
		return w.workerTask(worker)
	}
	k := &loopCheck{a: a, fn: fn, site: site, cand: c.cands[a], foot: c.feet[a]}
	if worker {
		k.cand, k.foot = nil, nil // stays in the loop, and keeps what may overlap it there
	}
	c.checks = append(c.checks, k)
	if k.cand == nil {
		return w.workerTask(worker)
	}
	k.task = dst.NewIdent(c.name)
	return k.task
}

// workerTask is the task of a check: with worker, an access in a pool
// worker's item that belongs to the worker's own block (analysis.
// WorkerBlock; the analysis allows none where the items start goroutines,
// so the task in scope is the worker's), checked with task.Worker().
func (w *walker) workerTask(worker bool) dst.Expr {
	if !worker {
		return w.taskExpr()
	}
	return &dst.CallExpr{Fun: &dst.SelectorExpr{X: w.taskExpr(), Sel: dst.NewIdent(rtnames.Worker)}}
}

// checkLoc is the location a check of the loop touches.
func (w *walker) checkLoc(c *coalescing, k *loopCheck) loc {
	if r, ok := c.loop.(*ast.RangeStmt); ok && k.a == r.Value || c.values[k.a] {
		return loc{kind: locElem, typ: w.info.TypeOf(k.a)} // the element the value holds
	}
	return w.locOf(k.a)
}

// coalesceSlow is a copy of loop s, made before it is rewritten, for the
// path on which the conditions fail (coalesce_fast.go); nil without c.
func (w *walker) coalesceSlow(c *coalescing, s dst.Stmt) dst.Stmt {
	if c == nil {
		return nil
	}
	return w.cloneMapped(s)
}

// coalesceEnd ends the walker's coalescing of loop (rewritten): it groups
// the loop's checks by the memory they may share, keeps in the loop the
// groups that cannot move, and returns the statement that replaces loop:
// the loop itself when nothing moves, else
//
//	if conditions { checks before the loop; loop without the moved checks } else { slow }
//
// with slow, the copy made before rewriting, rewritten with every check.
func (w *walker) coalesceEnd(c *coalescing, loop, slow dst.Stmt) dst.Stmt {
	if c == nil {
		return loop
	}
	w.coal = nil
	groups := w.groups(c)
	var moved [][]*loopCheck
	var after []dst.Expr // conditions of partial moves
	for _, g := range groups {
		if movableGroup(g) {
			moved = append(moved, g)
			continue
		}
		if slices.ContainsFunc(g, isFixed) {
			// kept: a whole span is no run of j (partialMove and pointMove order runs by j)
		} else if part, conds, ok := w.partialMove(c, g); ok {
			moved = append(moved, part)
			after = append(after, conds...)
			continue
		} else if conds, ok := w.pointMove(c, g); ok {
			moved = append(moved, g)
			after = append(after, conds...)
			continue
		}
		for _, k := range g {
			if k.task != nil {
				k.task.Name = w.task
				w.used[w.task] = true
			}
		}
	}
	if len(moved) == 0 {
		return loop
	}
	w.change()
	var checks []dst.Stmt
	var apart []dst.Expr
	strip := map[*dst.Ident]bool{}
	for _, g := range moved {
		checks = append(checks, w.movedChecks(c, g)...)
		apart = append(apart, w.apart(c, g)...)
		for _, k := range g {
			strip[k.task] = true
		}
	}
	apart = append(apart, after...)
	cond := w.loopCond(c, apart)
	w.seen(slow)
	silent := w.silent
	w.silent = true // its accesses were recorded when loop was rewritten
	w.stmt(slow)
	w.silent = silent
	stripChecks(loop, strip)
	return &dst.IfStmt{
		Cond: cond,
		Body: &dst.BlockStmt{List: append(checks, loop)},
		Else: &dst.BlockStmt{List: []dst.Stmt{slow}},
		Decs: dst.IfStmtDecorations{NodeDecs: dst.NodeDecs{Before: dst.NewLine, After: dst.NewLine}},
	}
}

// groups partitions the loop's checks into the sets that may share memory,
// ordered by their first check in an iteration.
func (w *walker) groups(c *coalescing) [][]*loopCheck {
	n := len(c.checks)
	locs := make([]loc, n)
	for i, k := range c.checks {
		locs[i] = w.checkLoc(c, k)
	}
	root := make([]int, n)
	for i := range root {
		root[i] = i
	}
	find := func(i int) int {
		for root[i] != i {
			i = root[i]
		}
		return i
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if overlap(locs[i], locs[j], c.taken) {
				root[find(j)] = find(i)
			}
		}
	}
	byRoot := map[int][]*loopCheck{}
	var roots []int
	for i, k := range c.checks {
		r := find(i)
		if byRoot[r] == nil {
			roots = append(roots, r)
		}
		byRoot[r] = append(byRoot[r], k)
	}
	out := make([][]*loopCheck, 0, len(roots))
	for _, r := range roots {
		out = append(out, byRoot[r])
	}
	return out
}

// movableGroup: every check of g is a candidate, and all are invariant, or
// all are elements x[j+d], or all are whole spans (nested loops' values,
// which read every element in every iteration: reads in body order).
func movableGroup(g []*loopCheck) bool {
	for _, k := range g {
		if k.cand == nil || (k.cand.base == nil) != (g[0].cand.base == nil) || k.cand.fixed != g[0].cand.fixed {
			return false
		}
	}
	return true
}

func isFixed(k *loopCheck) bool { return k.cand != nil && k.cand.fixed }

// movedChecks are the checks of group g before the loop, in the order each
// location meets them in the loop: body order for invariant addresses; by
// decreasing offset, then body order, for spans.
func (w *walker) movedChecks(c *coalescing, g []*loopCheck) []dst.Stmt {
	g = slices.Clone(g)
	class := symClasses(g)
	slices.SortStableFunc(g, func(a, b *loopCheck) int {
		if ca, cb := class[symKey(a.cand.sym)], class[symKey(b.cand.sym)]; ca != cb {
			return ca - cb // spans apart (SpansApart): any order
		}
		if a.cand.d != b.cand.d {
			return b.cand.d - a.cand.d
		}
		return a.cand.order - b.cand.order
	})
	var out []dst.Stmt
	for _, k := range g {
		site := siteLit(k.site)
		if k.cand.base == nil {
			out = append(out, &dst.ExprStmt{X: w.rtCall(k.fn, w.taskExpr(), &dst.UnaryExpr{Op: token.AND, X: copyExpr(k.a)}, site)})
			continue
		}
		lo, hi := w.spanOf(c, k.cand)
		span := func(fn string) dst.Stmt {
			return &dst.ExprStmt{X: w.rtCall(fn, w.taskExpr(), copyExpr(k.cand.base), lo, hi, siteLit(k.site))}
		}
		if k.fn == rtnames.R || k.fn == rtnames.RA { // RA: a range value of a struct or array type, read at every leaf
			out = append(out, span(rtnames.ReadSpan))
		} else { // W, and RW, which checks the write alone (see rt.RW)
			out = append(out, span(rtnames.WriteSpan))
		}
	}
	return out
}

// apart returns SameOrApart(x, y) for each two different slices of g
// whose offsets have the same symbolic part, and SpansApart for each two
// element checks whose offsets differ symbolically (coalesce_affine.go).
func (w *walker) apart(c *coalescing, g []*loopCheck) []dst.Expr {
	var out []dst.Expr
	seen := map[string]bool{}
	add := func(e dst.Expr, key string) {
		if !seen[key] {
			seen[key] = true
			out = append(out, e)
		}
	}
	for i, a := range g {
		for _, b := range g[i+1:] {
			if a.cand.base == nil || b.cand.base == nil {
				continue
			}
			xa, xb := types.ExprString(a.cand.base), types.ExprString(b.cand.base)
			if symKey(a.cand.sym) == symKey(b.cand.sym) {
				if xa != xb {
					add(w.rtCall(rtnames.SameOrApart, copyExpr(a.cand.base), copyExpr(b.cand.base)), "same "+min(xa, xb)+" "+max(xa, xb))
				}
				continue
			}
			alo, ahi := w.spanOf(c, a.cand)
			blo, bhi := w.spanOf(c, b.cand)
			e := w.rtCall(rtnames.SpansApart, copyExpr(a.cand.base), alo, ahi, copyExpr(b.cand.base), blo, bhi)
			add(e, fmt.Sprintf("span %s %s %d %s %s %d", xa, symKey(a.cand.sym), a.cand.d, xb, symKey(b.cand.sym), b.cand.d))
		}
	}
	return out
}

// loopCond is the condition under which the checks move before the loop:
// the bounds can be evaluated, the loop runs at least once, nothing in it
// can panic, and the slices of each moved group are the same or apart.
func (w *walker) loopCond(c *coalescing, apart []dst.Expr) dst.Expr {
	lo, hi := c.lo, c.hi
	if lo == nil {
		lo = &ast.BasicLit{Kind: token.INT, Value: "0"}
	}
	if c.hiLen {
		hi = lenOf(hi)
	}
	conds := slices.Clone(c.conds[:c.nhead])
	conds = append(conds, &ast.BinaryExpr{X: lo, Op: token.LSS, Y: hi})
	conds = append(conds, c.conds[c.nhead:]...)
	keys := make([]string, 0, len(c.bounds))
	for k := range c.bounds {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var fits []dst.Expr // SpanIn tests of the symbolic offsets, after the conditions that make them safe
	fits = append(fits, w.strideIns(c, lo, hi)...)
	for _, k := range keys {
		b := c.bounds[k]
		if b.sym != nil {
			fits = append(fits, w.spanIn(c, b)...)
			continue
		}
		if !w.isConst(lo) || w.constInt(lo)+b.dmin < 0 {
			conds = append(conds, &ast.BinaryExpr{X: lo, Op: token.GEQ, Y: &ast.BasicLit{Kind: token.INT, Value: itoa(-b.dmin)}})
		}
		if n, ok := w.arrayLen(c, b.x); ok && w.isConst(hi) && w.constInt(hi)+b.dmax <= n {
			continue // hi+dmax <= len(x), both constants
		}
		if !c.hiLen || b.dmax > 0 || types.ExprString(b.x) != types.ExprString(c.hi) {
			conds = append(conds, &ast.BinaryExpr{X: hi, Op: token.LEQ, Y: plusConst(lenOf(b.x), -b.dmax)})
		}
	}
	var out dst.Expr
	and := func(e dst.Expr) {
		if out == nil {
			out = e
		} else {
			out = &dst.BinaryExpr{X: out, Op: token.LAND, Y: e}
		}
	}
	seen := map[string]bool{} // one lo >= d per slice would repeat: go vet's bool check fails go test on x >= 0 && x >= 0
	for _, e := range conds {
		k := types.ExprString(e)
		if seen[k] {
			continue
		}
		seen[k] = true
		x := copyExpr(e)
		if p, ok := x.(*dst.ParenExpr); ok {
			x = p.X // an operand of && needs no parentheses
		}
		and(x)
	}
	for _, e := range append(fits, apart...) {
		and(e)
	}
	return out
}

// offsetExpr is lo+d as an argument: folded when lo is a constant.
func (w *walker) offsetExpr(lo ast.Expr, d int) dst.Expr {
	if w.isConst(lo) {
		return &dst.BasicLit{Kind: token.INT, Value: itoa(w.constInt(lo) + d)}
	}
	x := copyExpr(plusConst(lo, d))
	if p, ok := x.(*dst.ParenExpr); ok {
		x = p.X
	}
	return x
}

// plusConst is e+d (e-|d| for d < 0, e for 0).
func plusConst(e ast.Expr, d int) ast.Expr {
	switch {
	case d > 0:
		return &ast.BinaryExpr{X: e, Op: token.ADD, Y: &ast.BasicLit{Kind: token.INT, Value: itoa(d)}}
	case d < 0:
		return &ast.BinaryExpr{X: e, Op: token.SUB, Y: &ast.BasicLit{Kind: token.INT, Value: itoa(-d)}}
	}
	return e
}

// copyExpr is a fresh dst copy of an expression coalescing evaluates
// before the loop (operands parenthesised where they are not atoms).
func copyExpr(e ast.Expr) dst.Expr {
	switch x := e.(type) {
	case *ast.Ident:
		return dst.NewIdent(x.Name)
	case *ast.BasicLit:
		if x.Value[0] == '-' {
			return &dst.ParenExpr{X: &dst.BasicLit{Kind: x.Kind, Value: x.Value}}
		}
		return &dst.BasicLit{Kind: x.Kind, Value: x.Value}
	case *ast.ParenExpr:
		return &dst.ParenExpr{X: copyExpr(x.X)}
	case *ast.SelectorExpr:
		return &dst.SelectorExpr{X: copyExpr(x.X), Sel: dst.NewIdent(x.Sel.Name)}
	case *ast.IndexExpr:
		return &dst.IndexExpr{X: copyExpr(x.X), Index: copyExpr(x.Index)}
	case *ast.StarExpr:
		return &dst.ParenExpr{X: &dst.StarExpr{X: copyExpr(x.X)}}
	case *ast.UnaryExpr:
		return &dst.ParenExpr{X: &dst.UnaryExpr{Op: x.Op, X: copyExpr(x.X)}}
	case *ast.BinaryExpr:
		return &dst.ParenExpr{X: &dst.BinaryExpr{X: copyExpr(x.X), Op: x.Op, Y: copyExpr(x.Y)}}
	case *ast.SliceExpr: // X[:] of an array or a pointer to one (a span's base)
		if x.Low != nil || x.High != nil || x.Max != nil {
			break
		}
		return &dst.SliceExpr{X: copyExpr(x.X)}
	case *ast.CallExpr:
		call := &dst.CallExpr{Fun: copyExpr(x.Fun)}
		for _, a := range x.Args {
			call.Args = append(call.Args, copyExpr(a))
		}
		return call
	}
	panic(fmt.Sprintf("internal error: coalescing copies %T", e))
}
