package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// This file finds the goroutine body's private buffers: a local the body
// declares as buf := make(…) (or a slice literal) and never assigns again
// holds an array that iteration allocated, so no other iteration can reach
// its elements unless the header escapes to where one could read it. The
// elements of such a buffer are the iteration's own, like its locals:
// atax's py := make([]float64, n), summed into by the iteration and
// published with partial[b] = py for the parent to read after the join.
//
// The uses that keep the array reachable only from this iteration: buf[k]
// (its elements, through value fields and arrays), range buf, len, cap,
// copy and clear, and whole-header stores into memory (partial[b] = buf)
// when no other iteration can read the stored copy before the join.
// Anything else (another local assigned from it, reslicing, a call, a
// send, a use in a function literal, its address) and the buffer is not
// private.
//
// A stored copy is unread when nothing in the construct reads memory of a
// type that may hold the header, or when every such read is an access of
// a root that prove proves (storedRead): the parent up to the join and
// every callee read no such memory (their reads are by type), the roots
// of that type are in the guard, apart from each other, and each is
// read-only or touched by one iteration per element — so the element the
// header was stored into (a root's, or else every root of the type is
// unproven) is read by the iteration that stored it, if at all. atax
// stores py into partial[b] while reading A's rows, whose headers are of
// py's type: A read-only, partial independent, the two apart.
// Classification happens before prove, so a buffer stored into memory is
// taken as private provisionally, and when prove finds a read it cannot
// place, the heap pass runs again without it (heapRounds).

// privateBuf reports whether v is a private buffer of the goroutine body.
func (h *heapPass) privateBuf(v *types.Var) bool {
	if p, ok := h.privBufs[v]; ok {
		return p
	}
	p := h.findPrivateBuf(v)
	h.privBufs[v] = p
	return p
}

func (h *heapPass) findPrivateBuf(v *types.Var) bool {
	if v == nil || h.retracted != nil && h.retracted.bufs[v] || !within(v.Pos(), h.fk.Body) || !h.immutable(v) {
		return false
	}
	if _, slice := underlying(v.Type()).(*types.Slice); !slice {
		return false
	}
	fresh, stored, ok := false, false, true
	var stack []ast.Node
	ast.Inspect(h.fk.Body.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		id, isID := n.(*ast.Ident)
		if !isID {
			return ok
		}
		if h.info.Defs[id] == v {
			as, isAs := parent.(*ast.AssignStmt)
			if !isAs || as.Tok != token.DEFINE || len(as.Lhs) != len(as.Rhs) {
				ok = false
				return false
			}
			for k, l := range as.Lhs {
				if l == id {
					switch r := ast.Unparen(as.Rhs[k]).(type) {
					case *ast.CompositeLit:
						fresh = true
					case *ast.CallExpr:
						fresh = isBuiltin(r, "make", h.info)
					}
				}
			}
			return false
		}
		if h.info.Uses[id] != v {
			return ok
		}
		if innermostFuncLit(stack[:len(stack)-1]) != nil {
			ok = false
			return false
		}
		switch p := parent.(type) {
		case *ast.IndexExpr:
			ok = ok && p.X == id && h.elemUsedByValue(stack[:len(stack)-1])
		case *ast.RangeStmt:
			ok = ok && p.X == id
		case *ast.CallExpr:
			ok = ok && (isBuiltin(p, "len", h.info) || isBuiltin(p, "cap", h.info) || isBuiltin(p, "copy", h.info) || isBuiltin(p, "clear", h.info))
		case *ast.AssignStmt:
			ok = ok && p.Tok == token.ASSIGN && len(p.Lhs) == len(p.Rhs) && isStoreOf(p, id)
			stored = true
		default:
			ok = false
		}
		return ok
	})
	if !ok || !fresh {
		return false
	}
	if stored {
		for _, t := range h.opaqueR {
			if h.overlap(t, v.Type()) {
				return false // read by type outside the body: no root to place it
			}
		}
		h.stored[v] = true
	}
	return true
}

// storedRead lists the private buffers stored into memory that another
// iteration may read back (see the file comment): some read of the
// construct that no root places (plainR) may read the header's type, or
// a root of that type is not proven.
func (h *heapPass) storedRead(proven map[string]bool) []*types.Var {
	var out []*types.Var
	for v := range h.stored {
		read := false
		for _, t := range h.plainR {
			read = read || h.overlap(t, v.Type())
		}
		for _, k := range h.order {
			read = read || !proven[k] && h.overlap(h.roots[k].elem, v.Type())
		}
		if read {
			out = append(out, v)
		}
	}
	return out
}

// elemUsedByValue reports whether the element buf[k] at the top of stack
// is used as a value or a location, not addressed: climbing through value
// fields and array elements, no &, reslicing or method call on it.
func (h *heapPass) elemUsedByValue(stack []ast.Node) bool {
	child := stack[len(stack)-1]
	for k := len(stack) - 2; k >= 0; k-- {
		switch p := stack[k].(type) {
		case *ast.ParenExpr:
		case *ast.SelectorExpr:
			s := h.info.Selections[p]
			if s == nil || s.Kind() != types.FieldVal || isPtr(h.info.TypeOf(p.X)) {
				return false
			}
		case *ast.IndexExpr:
			if p.X != child {
				return true // buf[k] is a subscript
			}
			if _, arr := underlying(h.info.TypeOf(p.X)).(*types.Array); !arr {
				return true // indexing what the element holds: a slice or map, not the element
			}
		case *ast.UnaryExpr:
			return p.Op != token.AND
		case *ast.SliceExpr:
			_, arr := underlying(h.info.TypeOf(p.X)).(*types.Array)
			return p.X != child || !arr
		default:
			return true
		}
		child = stack[k]
	}
	return true
}

// isStoreOf reports whether id is a right-hand side of as whose
// left-hand side is memory (an element or a field), not a variable.
func isStoreOf(as *ast.AssignStmt, id *ast.Ident) bool {
	for k, r := range as.Rhs {
		if r != id {
			continue
		}
		switch ast.Unparen(as.Lhs[k]).(type) {
		case *ast.IndexExpr, *ast.SelectorExpr, *ast.StarExpr:
			return true
		}
	}
	return false
}

// privateElem reports whether the location e is (a part of) an element of
// a private buffer of the body, or, for an access of all the elements of
// a slice, whether e is one.
func (h *heapPass) privateElem(e ast.Expr, elems bool) bool {
	for {
		e = ast.Unparen(e)
		if elems {
			id, ok := e.(*ast.Ident)
			if !ok {
				return false
			}
			v, _ := h.info.Uses[id].(*types.Var)
			return h.privateBuf(v)
		}
		switch x := e.(type) {
		case *ast.SelectorExpr:
			if s := h.info.Selections[x]; s != nil && s.Kind() == types.FieldVal && !isPtr(h.info.TypeOf(x.X)) {
				e = x.X
				continue
			}
			return false
		case *ast.IndexExpr:
			switch underlying(h.info.TypeOf(x.X)).(type) {
			case *types.Array:
				e = x.X
				continue
			case *types.Slice:
				e, elems = x.X, true
				continue
			}
		}
		return false
	}
}
