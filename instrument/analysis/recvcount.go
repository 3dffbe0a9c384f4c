package analysis

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// A loop of starts and the loop of join receives after it count alike
// when their trip counts are provably equal (joincount.go): the same
// constant, the same length of the same slice, array, map or string
// (ranged over, or taken with len), or the same loop-invariant variable.
// A local variable defined once and never written again stands for its
// definition (`n := len(xs)` counts as len(xs)), so the two loops may be
// spelled differently. Anything else is refused with both counts named.

// sameCount explains why the receive loop recv does not provably run as
// many times as the loop of starts loop, or returns "". region is the
// construct's statements, in which the counts' variables must not change.
func (f *finder) sameCount(loop, recv ast.Stmt, region []ast.Stmt) string {
	const outlive = "; the last goroutines may outlive it"
	if c1, ok := f.constTrips(loop); ok {
		if c2, ok := f.constTrips(recv); ok {
			if c1 == c2 {
				return ""
			}
			return countWhy(itoa64(c2), itoa64(c1)) + outlive
		}
	}
	n1, n2 := f.tripCount(loop), f.tripCount(recv)
	if n1 == nil {
		return "the join receives a number of values that cannot be matched to the goroutine starts (the number of starts cannot be read from the loop)" + outlive
	}
	if n2 == nil {
		return "the join receives a number of values that cannot be matched to the goroutine starts (the number of receives cannot be read from the loop)" + outlive
	}
	t1, deps1 := f.countText(n1, 0)
	t2, deps2 := f.countText(n2, 0)
	if t1 != t2 {
		return countWhy(displayCount(t2), displayCount(t1)) + outlive
	}
	t1 = displayCount(t1)
	for _, m := range []ast.Expr{mapOf(f.info, loop), mapOf(f.info, recv)} {
		if m != nil && !f.mapOnlyRead(m, region) {
			return "the join receives a number of values that cannot be matched to the goroutine starts (map " + exprText(m) + " may change size while the loops run)" + outlive
		}
	}
	if f.writtenIn(n1, region) || f.writtenIn(n2, region) || f.writtenInLits(n1) || f.writtenInLits(n2) {
		return "the join receives a number of values that cannot be matched to the goroutine starts (" + t1 + " may change between the starts and the receives)" + outlive
	}
	for _, d := range append(deps1, deps2...) {
		if f.writtenIn(d, f.body.List) {
			return "the join receives a number of values that cannot be matched to the goroutine starts (" + t1 + " may change after it is counted)" + outlive
		}
	}
	return ""
}

func countWhy(recv, forks string) string {
	return "the join receives a number of values that cannot be matched to the goroutine starts (receives counted by " + recv + ", starts by " + forks + ")"
}

func itoa64(n int64) string { return constant.MakeInt64(n).ExactString() }

// countText is the text of a trip count with each local variable defined
// once and never written replaced by its definition, and constants by
// their value; deps are the definitions substituted, whose variables must
// not change in the function either.
func (f *finder) countText(e ast.Expr, depth int) (string, []ast.Expr) {
	e = ast.Unparen(e)
	if tv, ok := f.info.Types[e]; ok && tv.Value != nil {
		return tv.Value.ExactString(), nil
	}
	switch x := e.(type) {
	case *ast.Ident:
		if def := f.definedOnce(x); def != nil && depth < 4 {
			t, deps := f.countText(def, depth+1)
			return t, append(deps, def)
		}
		if v, ok := f.info.Uses[x].(*types.Var); ok && v.Pkg() != nil {
			return x.Name + "@" + itoa64(int64(v.Pos())), nil // the variable, not its spelling
		}
		return x.Name, nil
	case *ast.BinaryExpr:
		a, da := f.countText(x.X, depth)
		b, db := f.countText(x.Y, depth)
		return "(" + a + " " + x.Op.String() + " " + b + ")", append(da, db...)
	case *ast.CallExpr:
		if len(x.Args) == 1 {
			a, d := f.countText(x.Args[0], depth)
			return exprText(x.Fun) + "(" + a + ")", d
		}
	case *ast.SelectorExpr:
		a, d := f.countText(x.X, depth)
		return a + "." + x.Sel.Name, d
	case *ast.IndexExpr:
		a, da := f.countText(x.X, depth)
		b, db := f.countText(x.Index, depth)
		return a + "[" + b + "]", append(da, db...)
	}
	return exprText(e), nil
}

// definedOnce returns the expression a local variable of the function was
// defined with (`v := e`, `var v = e`, one value per name) when nothing in
// the function writes it afterwards, or nil.
func (f *finder) definedOnce(id *ast.Ident) ast.Expr {
	v, ok := f.info.Uses[id].(*types.Var)
	if !ok || f.body == nil || v.Pos() < f.body.Pos() || v.Pos() >= f.body.End() {
		return nil
	}
	var def ast.Expr
	ast.Inspect(f.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if l, ok := l.(*ast.Ident); ok && f.info.Defs[l] == v {
						def = n.Rhs[i]
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i, l := range n.Names {
					if f.info.Defs[l] == v {
						def = n.Values[i]
					}
				}
			}
		}
		return def == nil
	})
	if def == nil || !countExpr(def) || f.writtenIn(id, f.body.List) {
		return nil
	}
	return def
}

// displayCount is a count's text as the user wrote it, for notes.
func displayCount(t string) string {
	for {
		i := strings.IndexByte(t, '@')
		if i < 0 {
			return t
		}
		j := i + 1
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		t = t[:i] + t[j:]
	}
}

// mapOf is the map a loop ranges over, or nil.
func mapOf(info *types.Info, loop ast.Stmt) ast.Expr {
	r, ok := loop.(*ast.RangeStmt)
	if !ok {
		return nil
	}
	if t := info.TypeOf(r.X); t != nil {
		if _, ok := t.Underlying().(*types.Map); ok {
			return r.X
		}
	}
	return nil
}

// mapOnlyRead reports whether m is a variable declared in the function
// that the function uses only by ranging over it, taking its len and
// indexing it, and that region does not write: no call (delete, clear, a
// function it is passed to, a method) and no other reference to the map
// (a copy, a parameter's caller) can change its size.
func (f *finder) mapOnlyRead(m ast.Expr, region []ast.Stmt) bool {
	id, ok := ast.Unparen(m).(*ast.Ident)
	if !ok {
		return false
	}
	v := f.info.Uses[id]
	ok = v != nil && f.body != nil && v.Pos() > f.body.Pos() && v.Pos() < f.body.End()
	for _, s := range f.body.List {
		var stack []ast.Node
		ast.Inspect(s, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if x, isID := n.(*ast.Ident); isID && f.info.Uses[x] == v && len(stack) > 0 {
				switch p := stack[len(stack)-1].(type) {
				case *ast.RangeStmt:
					ok = ok && p.X == x
				case *ast.IndexExpr:
					ok = ok && p.X == x
				case *ast.CallExpr:
					fn, isFn := ast.Unparen(p.Fun).(*ast.Ident)
					ok = ok && isFn && fn.Name == "len"
				default:
					ok = false
				}
			}
			stack = append(stack, n)
			return ok
		})
	}
	return ok && !f.writtenIn(m, region)
}

// writtenInLits reports whether a function literal anywhere in the
// function may change e: one declared before the construct can be called
// inside it.
func (f *finder) writtenInLits(e ast.Expr) bool {
	found := false
	ast.Inspect(f.body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && f.writtenIn(e, lit.Body.List) {
			found = true
		}
		return !found
	})
	return found
}
