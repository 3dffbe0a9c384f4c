package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// This file is the memory model of check coalescing (coalesce.go): which
// locations a loop writes, which expressions stay the same while it runs,
// and which locations may share memory.

// locKind is how a location is reached.
type locKind int

const (
	locVar   locKind = iota // inside variable v, reached without indirection
	locField                // field v of a struct of type owner, reached through a pointer or element
	locElem                 // an element of type typ of a slice or array reached indirectly
	locDeref                // *p of type typ
	locAny                  // unknown: overlaps everything
)

// loc is a location, as precisely as types tell it without unsafe.
type loc struct {
	kind  locKind
	v     *types.Var // locVar: the variable; locField: the field
	typ   types.Type // the location's type
	owner types.Type // locField: the struct type
}

// locOf is the location of the addressable expression e.
func (w *walker) locOf(e ast.Expr) loc {
	if v := analysis.RootVar(e, w.info); v != nil {
		return loc{kind: locVar, v: v, typ: v.Type()}
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		if s := w.info.Selections[x]; s != nil && s.Kind() == types.FieldVal {
			owner := w.info.TypeOf(x.X)
			if p, ok := underlying(owner).(*types.Pointer); ok {
				owner = p.Elem()
			}
			return loc{kind: locField, v: s.Obj().(*types.Var), typ: w.info.TypeOf(x), owner: owner}
		}
	case *ast.IndexExpr:
		return loc{kind: locElem, typ: w.info.TypeOf(x)}
	case *ast.StarExpr:
		return loc{kind: locDeref, typ: w.info.TypeOf(x)}
	}
	return loc{kind: locAny}
}

// overlap reports whether locations a and b may share memory; taken says
// which variables have their address taken.
func overlap(a, b loc, taken map[*types.Var]bool) bool {
	if a.kind > b.kind {
		a, b = b, a
	}
	switch {
	case b.kind == locAny:
		return true
	case a.kind == locVar && b.kind == locVar:
		return a.v == b.v
	case a.kind == locVar:
		if !taken[a.v] {
			return false
		}
		if b.kind == locField {
			return contains(a.typ, b.owner)
		}
		return typesOverlap(a.typ, b.typ)
	case a.kind == locField && b.kind == locField:
		// Two field objects of one name are one memory when their structs
		// are one layout: tags differ (a *slot converts to a *cell), or a
		// type parameter is in either (box[T].v and box[int].v). A
		// selector names one field of a type, so the names tell.
		sameOwner := contains(a.owner, b.owner) && contains(b.owner, a.owner)
		return a.v == b.v || contains(a.typ, b.owner) || contains(b.typ, a.owner) || sameOwner && a.v.Name() == b.v.Name()
	case a.kind == locField && b.kind == locElem:
		// An element can be the struct, or lie in an array the field holds.
		return contains(b.typ, a.owner) || !types.Identical(a.typ.Underlying(), b.typ.Underlying()) && contains(a.typ, b.typ)
	case a.kind == locField:
		return typesOverlap(b.typ, a.owner) || typesOverlap(b.typ, a.typ)
	}
	return typesOverlap(a.typ, b.typ)
}

func typesOverlap(a, b types.Type) bool { return contains(a, b) || contains(b, a) }

// contains reports whether a value of type a may hold a value of type b:
// the same underlying type (tags ignored: a pointer converts between
// structs that differ only in tags), or a field or element of a that
// contains b; a type parameter may be anything (pick[I ~int]'s idx []I and
// marks []int are one slice when I is int). It is analysis's part
// relation, so the static stage and the coalescer agree.
func contains(a, b types.Type) bool { return analysis.PartOf(b, a) }

// loopWrites returns the locations the body writes; a write of j, or a :=
// that assigns an existing variable, disqualifies the loop.
func (w *walker) loopWrites(c *coalescing, body *ast.BlockStmt) []loc {
	var out []loc
	write := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok && id.Name == "_" {
			return
		}
		l := w.locOf(e)
		if l.kind == locVar && l.v == c.j {
			c.ok = false
		}
		out = append(out, l)
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			for _, l := range s.Lhs {
				if s.Tok != token.DEFINE {
					write(l)
				} else if id, ok := l.(*ast.Ident); ok && id.Name != "_" && w.info.Defs[id] == nil {
					c.ok = false // redeclared: checked by redeclaredChecks, not wrapLoc
				}
			}
		case *ast.IncDecStmt:
			write(s.X)
		case *ast.RangeStmt:
			if !w.nestable(s) {
				c.ok = false // a nested loop other than coalesce_nest.go's
			}
		}
		return true
	})
	return out
}

// declaredIn reports whether v is declared inside the loop (j included).
func (c *coalescing) declaredIn(v *types.Var) bool {
	return v.Pos() >= c.loop.Pos() && v.Pos() < c.loop.End()
}

// invariant reports whether e has the same value in every iteration and
// before the loop: no variable of the loop, nothing the loop writes, and
// nothing another block may write while the loop runs (othersWrite).
func (w *walker) invariant(c *coalescing, e ast.Expr) bool {
	if c.temp != nil && e == c.temp {
		return true // assigned once, before the loop, and named nowhere else
	}
	if tv, ok := w.info.Types[e]; ok && tv.Value != nil {
		return true
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.BasicLit: // a constant the coalescer made (an array's length)
		return true
	case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
		if sel, ok := x.(*ast.SelectorExpr); ok && w.info.Selections[sel] == nil {
			if _, ok := w.info.Uses[sel.Sel].(*types.Var); !ok {
				return false
			}
		}
		if ix, ok := x.(*ast.IndexExpr); ok {
			if _, str := underlying(w.info.TypeOf(ix.X)).(*types.Basic); str {
				return w.invariant(c, ix.X) && w.invariant(c, ix.Index)
			}
		}
		if !w.addrInvariant(c, x) || w.othersWrite(x) {
			return false
		}
		l := w.locOf(x)
		for _, wr := range c.writes {
			if overlap(l, wr, c.taken) {
				return false
			}
		}
		return true
	case *ast.BinaryExpr:
		return w.invariant(c, x.X) && w.invariant(c, x.Y)
	case *ast.UnaryExpr:
		return x.Op != token.AND && x.Op != token.ARROW && w.invariant(c, x.X)
	case *ast.CallExpr:
		fun := ast.Unparen(x.Fun)
		if tv := w.info.Types[fun]; !tv.IsType() && !tv.IsBuiltin() {
			return false
		}
		for _, a := range x.Args {
			if !w.invariant(c, a) {
				return false
			}
		}
		return true
	}
	return false
}

// othersWrite reports whether a block other than the one running the
// loop may write the location e while it runs: the static stage proved
// nothing of e (the pruned build checks its reads). Such a value can
// change between the conditions tested before the loop and any iteration
// (sound_review2_guard_paths: iteration 0 doubles p.n, which bounds
// iteration 1's loop; when iteration 1's check of p.n in its header waited
// for the reporter, which iteration 0 held, it had spanned u[4:8] and then
// wrote u[8:16] unchecked, and its conflict with iteration 3's u[12:16]
// was lost). A bound, a slice or a
// pointer read through must not: the loop would run other iterations, or
// touch other memory, than the moved checks claim. The proofs count
// whatever the build checks, so -conservative coalesces the same loops.
func (w *walker) othersWrite(e ast.Expr) bool {
	if !addressable(e, w.info) || !w.sharedLoc(e) {
		return false
	}
	v := analysis.RootVar(e, w.info)
	if v != nil && (w.res.ReadOnlyCaptured(v, e.Pos()) || w.res.NeverWritten(v)) || w.provenReadOnly(v) || w.provenIndependent(e) {
		return false
	}
	_, proven := w.heapVerdictOf(w.provenHeap(), e, rtnames.R)
	return !proven
}

// addrInvariant reports whether the location e is the same in every
// iteration and before the loop.
func (w *walker) addrInvariant(c *coalescing, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := w.info.Uses[x].(*types.Var)
		return ok && !c.declaredIn(v)
	case *ast.SelectorExpr:
		s := w.info.Selections[x]
		if s == nil {
			_, ok := w.info.Uses[x.Sel].(*types.Var)
			return ok
		}
		if s.Kind() != types.FieldVal {
			return false
		}
		if s.Indirect() || isPointer(w.info.TypeOf(x.X)) {
			return w.invariant(c, x.X)
		}
		return w.addrInvariant(c, x.X)
	case *ast.IndexExpr:
		switch underlying(w.info.TypeOf(x.X)).(type) {
		case *types.Slice, *types.Pointer:
			return w.invariant(c, x.X) && w.invariant(c, x.Index)
		case *types.Array:
			return w.addrInvariant(c, x.X) && w.invariant(c, x.Index)
		}
	case *ast.StarExpr:
		return w.invariant(c, x.X)
	}
	return false
}

// addrTaken lists the variables of the file whose address is taken (&v,
// slicing an array variable, a pointer method on it) and every variable
// declared outside the file's functions.
func (w *walker) addrTaken() map[*types.Var]bool {
	taken := map[*types.Var]bool{}
	mark := func(e ast.Expr) {
		if v := analysis.RootVar(e, w.info); v != nil {
			taken[v] = true
		}
	}
	ast.Inspect(w.astFile, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				mark(x.X)
			}
		case *ast.SliceExpr:
			mark(x.X)
		case *ast.SelectorExpr:
			if s := w.info.Selections[x]; s != nil && s.Kind() != types.FieldVal {
				mark(x.X)
			}
		case *ast.Ident:
			if v, ok := w.info.Uses[x].(*types.Var); ok && (v.Pkg() != w.pkg.Types || v.Parent() == w.pkg.Types.Scope()) {
				taken[v] = true // a global: any function may take its address
			}
		}
		return true
	})
	return taken
}
