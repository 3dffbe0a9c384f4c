package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// This file finds the sub-slices of a goroutine body whose uses stay
// within their bounds: their footprint is the sub-slice's bounds
// (depend.go).

// findContained marks the sub-slices of the goroutine body whose every use
// stays within their bounds (len of the sub-slice): X[lo:hi] ranged over,
// copied or cleared, or s := X[lo:hi] with s, a local nothing assigns
// again, only indexed (never taking an element's address), ranged over,
// measured, copied or cleared, and not used in a function literal. Either
// may also be passed to a callee walked in place that uses its parameter
// only so (containedParam); the parameter then stands for the sub-slice.
func (h *heapPass) findContained() {
	st := h.aff
	uses := map[*types.Var]bool{} // false once a use escapes
	var defs []struct {
		v  *types.Var
		sl *ast.SliceExpr
	}
	var links [][2]*types.Var                     // a callee's parameter bound to a local sub-slice
	resliced := map[*types.Var][]*ast.SliceExpr{} // sub-slices taken of a local sub-slice
	var stack []ast.Node
	visit := func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		switch x := n.(type) {
		case *ast.SliceExpr:
			if _, slice := underlying(h.info.TypeOf(x.X)).(*types.Slice); !slice {
				return true
			}
			switch p := parent.(type) {
			case *ast.RangeStmt:
				if p.X == x {
					st.contained[x] = true
				}
			case *ast.CallExpr:
				if isBuiltin(p, "copy", h.info) || isBuiltin(p, "clear", h.info) {
					st.contained[x] = true
				} else if pv := h.containedParam(p, x); pv != nil {
					st.contained[x] = true
					st.subOf[pv] = x
				}
			case *ast.AssignStmt:
				if p.Tok == token.DEFINE && len(p.Lhs) == len(p.Rhs) {
					for k, r := range p.Rhs {
						if r != x {
							continue
						}
						if id, ok := p.Lhs[k].(*ast.Ident); ok {
							if v, ok := h.info.Defs[id].(*types.Var); ok && h.immutable(v) {
								defs = append(defs, struct {
									v  *types.Var
									sl *ast.SliceExpr
								}{v, x})
							}
						}
					}
				}
			}
		case *ast.Ident:
			v, _ := h.info.Uses[x].(*types.Var)
			if v == nil {
				return true
			}
			ok := uses[v] || !seenUse(uses, v)
			if innermostFuncLit(stack[:len(stack)-1]) != nil {
				ok = false // a function literal of the body: it may run anywhere
			}
			switch p := parent.(type) {
			case *ast.IndexExpr:
				if p.X != x || len(stack) >= 3 && isAddr(stack[len(stack)-3]) {
					ok = false
				}
			case *ast.RangeStmt:
				ok = ok && p.X == x
			case *ast.SliceExpr:
				// row := slab[lo:hi]: fine if that sub-slice is contained in turn
				if p.X == x && !p.Slice3 {
					resliced[v] = append(resliced[v], p)
				} else {
					ok = false
				}
			case *ast.CallExpr:
				if pv := h.containedParam(p, x); pv != nil {
					links = append(links, [2]*types.Var{pv, v})
				} else {
					ok = ok && (isBuiltin(p, "len", h.info) || isBuiltin(p, "cap", h.info) || isBuiltin(p, "copy", h.info) || isBuiltin(p, "clear", h.info))
				}
			default:
				ok = false
			}
			uses[v] = ok
		}
		return true
	}
	ast.Inspect(h.fk.Body.Body, visit)
	if h.spec != nil {
		ast.Inspect(h.spec.lit.Body, visit) // the callback walked in place (specialize.go)
	}
	// A local resliced is contained when every sub-slice taken of it is:
	// drop, until nothing changes, the locals one of whose sub-slices is
	// neither used whole in place nor the value of a contained local.
	okDef := map[*types.Var]bool{}
	defOf := map[*ast.SliceExpr]*types.Var{}
	for _, d := range defs {
		ok, used := uses[d.v]
		okDef[d.v] = !used || ok
		defOf[d.sl] = d.v
	}
	for changed := true; changed; {
		changed = false
		for _, d := range defs {
			if !okDef[d.v] {
				continue
			}
			for _, sl := range resliced[d.v] {
				if w := defOf[sl]; !st.contained[sl] && (w == nil || !okDef[w]) {
					okDef[d.v], changed = false, true
					break
				}
			}
		}
	}
	for _, d := range defs {
		if okDef[d.v] {
			st.contained[d.sl] = true
			st.subOf[d.v] = d.sl
		}
	}
	for _, l := range links {
		if sl := st.subOf[l[1]]; sl != nil {
			st.subOf[l[0]] = sl
		}
	}
}

// containedParam is the parameter that the argument arg of call binds,
// when call's callee is walked in place (indirect.go: called once, its
// parameters bound to the arguments) and uses the parameter only as a
// contained sub-slice: indexed (no element's address), ranged over,
// measured, copied or cleared, never assigned. Else nil.
func (h *heapPass) containedParam(call *ast.CallExpr, arg ast.Expr) *types.Var {
	bc := h.calls[call]
	if bc == nil {
		return nil
	}
	d := h.r.Decls[bc.fn]
	if d == nil || d.Body == nil || d.Recv != nil && len(d.Recv.List) > 0 {
		return nil
	}
	var pv *types.Var
	for k, v := range params(d.Type.Params, h.info) {
		if k < len(call.Args) && call.Args[k] == arg {
			pv = v
		}
	}
	if pv == nil || !h.immutable(pv) {
		return nil
	}
	ok := true
	var stack []ast.Node
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		stack = append(stack, n)
		id, isID := n.(*ast.Ident)
		if !isID || h.info.Uses[id] != pv {
			return ok
		}
		switch p := stack[len(stack)-2].(type) {
		case *ast.IndexExpr:
			ok = ok && p.X == id && !(len(stack) >= 3 && isAddr(stack[len(stack)-3]))
		case *ast.RangeStmt:
			ok = ok && p.X == id
		case *ast.CallExpr:
			ok = ok && (isBuiltin(p, "len", h.info) || isBuiltin(p, "cap", h.info) || isBuiltin(p, "copy", h.info) || isBuiltin(p, "clear", h.info))
		default:
			ok = false
		}
		return ok
	})
	if !ok {
		return nil
	}
	return pv
}

func seenUse(uses map[*types.Var]bool, v *types.Var) bool {
	_, ok := uses[v]
	return ok
}

func isAddr(n ast.Node) bool {
	u, ok := n.(*ast.UnaryExpr)
	return ok && u.Op == token.AND
}
