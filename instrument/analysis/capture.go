package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// ReadOnlyCaptured reports whether the read at pos of the local variable v
// is inside a function literal that captures v once v can no longer
// change: every write of v is made by the function declaring it (its
// address never taken), in the source before the outermost literal of that
// function holding pos, and no loop of that function holds both a write
// and the literal (nor does the function jump back with goto). Whenever
// the literal runs, from whatever goroutine, v then holds the value it had
// when the literal was made, in the block that made it, before any
// goroutine that may call the literal was forked: its reads need no check.
// This covers the callbacks that real parallel code passes to its helpers
// (a kernel's captured sizes, factors and slices), which run with no
// construct of their own around them.
func (r *Result) ReadOnlyCaptured(v *types.Var, pos token.Pos) bool {
	w := r.writes[v]
	if w == nil || w.elsewhere || w.decl == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return false
	}
	sh := r.shapeOf(w.decl)
	var lit ast.Node
	for _, l := range sh.lits {
		if l.Pos() <= pos && pos < l.End() {
			lit = l
			break
		}
	}
	if lit == nil || sh.jumps {
		return false
	}
	for _, p := range w.at {
		if p >= lit.Pos() {
			return false
		}
		for _, l := range sh.loops {
			if l.Pos() <= p && p < l.End() && l.Pos() <= lit.Pos() && lit.Pos() < l.End() {
				return false
			}
		}
	}
	return true
}

// MayChangeIn reports whether the local variable v may be written while
// node runs: a write of v inside node, or v's address taken or v written
// by a function other than the one declaring it (which a call inside node
// may run). The rewriter asks it of a range loop's body before evaluating
// the ranged variable again in each iteration (rewrite/rangetemp.go).
func (r *Result) MayChangeIn(v *types.Var, node ast.Node) bool {
	w := r.writes[v]
	if w == nil {
		return false
	}
	if w.elsewhere {
		return true
	}
	for _, p := range w.at {
		if node.Pos() <= p && p < node.End() {
			return true
		}
	}
	return false
}

// fnShape is what ReadOnlyCaptured needs of a function: its outermost
// function literals, its loops, and whether it has a goto.
type fnShape struct {
	lits  []ast.Node
	loops []ast.Node
	jumps bool
}

// shapeOf reads (once) the shape of the function fn (a FuncDecl or
// FuncLit).
func (r *Result) shapeOf(fn ast.Node) *fnShape {
	if sh := r.shapes[fn]; sh != nil {
		return sh
	}
	sh := &fnShape{}
	ast.Inspect(funcBodyOf(fn), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			sh.lits = append(sh.lits, n)
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			sh.loops = append(sh.loops, n)
		case *ast.BranchStmt:
			sh.jumps = sh.jumps || n.Tok == token.GOTO
		}
		return true
	})
	if r.shapes == nil {
		r.shapes = map[ast.Node]*fnShape{}
	}
	r.shapes[fn] = sh
	return sh
}
