package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Outputs made for one callback (cbreads.go). imaging's filters make their
// result just before the pool and hand it to nothing but the callback:
//
//	dst := image.NewNRGBA(image.Rect(0, 0, src.w, src.h))
//	parallel(0, src.w, func(xs <-chan int) {
//		…
//		d := dst.Pix[j : j+4 : j+4]
//		d[0] = clamp(r * aInv)
//	})
//	return dst
//
// The bytes the callback writes are uint8 elements, the type scan reads
// the source image's pixels as, so by type every pixel read met them and
// stayed checked: 4 checks a pixel in blur after its context clone. But no
// pointer to dst's object, or to its Pix array, exists anywhere but in dst
// and the windows the callback slices from dst.Pix: a read through any
// other name cannot touch them. So a write through those names meets only
// reads through them (treeWrite.only).
//
// A variable v of the caller is such an output when
//
//   - it is declared by a statement of the caller's body itself, before the
//     call of the helper (also a statement of the body, the call alone),
//     as new memory: make of a slice, or image.NewNRGBA, NewRGBA, NewGray,
//     NewAlpha, NewNRGBA64, NewRGBA64, NewGray16, NewAlpha16 or NewCMYK,
//     whose Pix is made there and whose other fields hold no pointer;
//   - no statement between the two names it, but in what a return
//     statement of the caller returns (convolve's early return dst: the
//     call never runs after it), nor the call outside the literal (after
//     the call the tree is joined: anything goes, unless a goto in the
//     caller could run the call again: then none is);
//   - in the literal, outside any literal in it, every use of v reaches
//     into the object: v[i] (v.Pix[i]) read or written, never its address,
//     a slice of it assigned to a window, ranged over or given to copy,
//     len, cap; and a field other than Pix only read, through fields only;
//   - every window is a local of the literal whose every assignment is a
//     slice of v or of another window, used the same way.
//
// Anything else (v passed to a call, stored, a window reassigned from
// other memory, a field written) keeps the type rule for all of them.

// freshFields are the standard library's constructors whose result's Pix
// is made by the call and whose other fields hold no pointer.
var freshFields = map[string]bool{
	"image.NewNRGBA": true, "image.NewRGBA": true, "image.NewGray": true, "image.NewAlpha": true,
	"image.NewNRGBA64": true, "image.NewRGBA64": true, "image.NewGray16": true, "image.NewAlpha16": true,
	"image.NewCMYK": true,
}

// freshOutputs returns the names of the objects s.caller makes for the
// callback alone (see above), or nil.
func (r *Result) freshOutputs(s *specSite) map[*types.Var]bool {
	info := r.finder.info
	body := s.caller.Body.List
	at := -1
	for k, st := range body {
		if es, ok := st.(*ast.ExprStmt); ok && ast.Unparen(es.X) == s.call {
			at = k
		}
	}
	if at < 0 || hasGoto(s.caller.Body) {
		return nil // a goto could run the call again after a use
	}
	cands := map[*types.Var]bool{}
	for _, st := range body[:at] {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			continue
		}
		id, _ := as.Lhs[0].(*ast.Ident)
		v, _ := info.Defs[id].(*types.Var)
		if v != nil && r.freshValue(as.Rhs[0]) {
			cands[v] = true
		}
	}
	if len(cands) == 0 {
		return nil
	}
	// No use between the declaration and the call, nor in the call outside
	// the literal.
	for _, st := range body[:at+1] {
		var stack []ast.Node
		ast.Inspect(st, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			if n == s.lit {
				return false
			}
			if id, ok := n.(*ast.Ident); ok && !returned(stack) {
				if v, _ := info.Uses[id].(*types.Var); cands[v] {
					delete(cands, v)
				}
			}
			stack = append(stack, n)
			return true
		})
	}
	if len(cands) == 0 {
		return nil
	}
	return r.keptFresh(s.lit, cands)
}

// freshValue reports whether e makes new memory that only its result
// reaches: make of a slice, or a constructor of freshFields.
func (r *Result) freshValue(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	info := r.finder.info
	if builtinName(call, info) == "make" {
		_, isSlice := underlying(info.TypeOf(call)).(*types.Slice)
		return isSlice
	}
	fn := Callee(info, call.Fun)
	return fn != nil && fn.Pkg() != nil && freshFields[fn.Pkg().Path()+"."+fn.Name()]
}

// keptFresh returns outs and the windows lit slices from them when every
// use in lit keeps their objects to those names, or nil.
func (r *Result) keptFresh(lit *ast.FuncLit, outs map[*types.Var]bool) map[*types.Var]bool {
	info := r.finder.info
	names := map[*types.Var]bool{}
	for v := range outs {
		names[v] = true
	}
	// Windows: locals of lit assigned a slice of a name, grown until no
	// more are found; each of their assignments is checked below.
	for grown := true; grown; {
		grown = false
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for k, l := range as.Lhs {
				id, _ := l.(*ast.Ident)
				v := identVar(id, info)
				if v == nil || names[v] || v.Parent() == nil || !within(v.Pos(), lit) {
					continue
				}
				if r.freshSlice(as.Rhs[k], names) {
					names[v] = true
					grown = true
				}
			}
			return true
		})
	}
	ok := true
	var stack []ast.Node
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if id, isID := n.(*ast.Ident); isID && ok {
			if v := identVar(id, info); names[v] && !r.keepsFresh(id, v, stack, names, outs[v]) {
				ok = false
			}
		}
		stack = append(stack, n)
		return ok
	})
	if !ok {
		return nil
	}
	return names
}

// identVar is the variable id declares or uses, or nil.
func identVar(id *ast.Ident, info *types.Info) *types.Var {
	if id == nil {
		return nil
	}
	if v, ok := info.Defs[id].(*types.Var); ok {
		return v
	}
	v, _ := info.Uses[id].(*types.Var)
	return v
}

// freshSlice reports whether e is a slice of one of names' objects: w[a:b],
// v[a:b] or v.Pix[a:b].
func (r *Result) freshSlice(e ast.Expr, names map[*types.Var]bool) bool {
	sl, ok := ast.Unparen(e).(*ast.SliceExpr)
	if !ok {
		return false
	}
	x := ast.Unparen(sl.X)
	if sel, ok := x.(*ast.SelectorExpr); ok && sel.Sel.Name == "Pix" {
		x = ast.Unparen(sel.X)
	}
	id, _ := x.(*ast.Ident)
	return id != nil && names[identVar(id, r.finder.info)]
}

// keepsFresh reports whether the occurrence id of v (ancestors stack,
// innermost last) keeps the object to names: an out's object, when out,
// or a window.
func (r *Result) keepsFresh(id *ast.Ident, v *types.Var, stack []ast.Node, names map[*types.Var]bool, out bool) bool {
	info := r.finder.info
	for _, n := range stack {
		if _, isLit := n.(*ast.FuncLit); isLit {
			return false // a closure could carry it away
		}
	}
	parent := func(k int) ast.Node {
		if k < len(stack) {
			return stack[len(stack)-1-k]
		}
		return nil
	}
	if info.Defs[id] != nil || isAssigned(parent(0), id) {
		// a window's declaration or assignment: its value is a slice of a name
		as, ok := parent(0).(*ast.AssignStmt)
		if !ok || out {
			return false
		}
		for k, l := range as.Lhs {
			if l == id {
				return len(as.Lhs) == len(as.Rhs) && r.freshSlice(as.Rhs[k], names)
			}
		}
		return false
	}
	if _, isPtr := v.Type().Underlying().(*types.Pointer); isPtr {
		sel, ok := parent(0).(*ast.SelectorExpr)
		if !ok || sel.X != id {
			return false
		}
		s := info.Selections[sel]
		if s == nil || s.Kind() != types.FieldVal {
			return false // a method: it may keep the pointer
		}
		if sel.Sel.Name == "Pix" {
			return keepsSlice(sel, stack[:len(stack)-1], names, info)
		}
		return fieldRead(sel, stack[:len(stack)-1], info)
	}
	return keepsSlice(id, stack, names, info)
}

// keepsSlice reports whether the slice e (ancestors stack) is used only to
// reach its elements: indexed (not addressed), sliced into a window (one
// of names), ranged over, given to copy, len or cap.
func keepsSlice(e ast.Expr, stack []ast.Node, names map[*types.Var]bool, info *types.Info) bool {
	if len(stack) == 0 {
		return false
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.ParenExpr:
		return keepsSlice(p, stack[:len(stack)-1], names, info)
	case *ast.IndexExpr:
		if p.X != e {
			return false
		}
		if len(stack) > 1 {
			if u, ok := stack[len(stack)-2].(*ast.UnaryExpr); ok && u.Op == token.AND {
				return false
			}
		}
		return true
	case *ast.SliceExpr:
		if p.X != e || len(stack) < 2 {
			return false
		}
		switch g := stack[len(stack)-2].(type) {
		case *ast.AssignStmt:
			for k, rhs := range g.Rhs {
				if rhs == p && len(g.Lhs) == len(g.Rhs) {
					id, _ := g.Lhs[k].(*ast.Ident)
					return names[identVar(id, info)] // a window: its own uses are checked
				}
			}
		case *ast.RangeStmt:
			return g.X == p
		case *ast.CallExpr:
			return builtinName(g, info) == "copy"
		}
		return false
	case *ast.RangeStmt:
		return p.X == e
	case *ast.CallExpr:
		switch builtinName(p, info) {
		case "len", "cap", "copy":
			return true
		}
	}
	return false
}

// fieldRead reports whether the field sel (ancestors stack) is only read,
// through fields, never through a method (which may take its address).
func fieldRead(sel *ast.SelectorExpr, stack []ast.Node, info *types.Info) bool {
	var e ast.Expr = sel
	for k := len(stack) - 1; k >= 0; k-- {
		switch p := stack[k].(type) {
		case *ast.SelectorExpr:
			s := info.Selections[p]
			if s == nil || s.Kind() != types.FieldVal {
				return false
			}
			e = p
			continue
		case *ast.ParenExpr:
			e = p
			continue
		case *ast.AssignStmt:
			for _, l := range p.Lhs {
				if l == e {
					return false
				}
			}
		case *ast.IncDecStmt:
			return false
		case *ast.UnaryExpr:
			return p.Op != token.AND
		case *ast.RangeStmt:
			return p.Key != e && p.Value != e
		}
		return true
	}
	return true
}

// hasGoto reports whether b holds a goto statement.
func hasGoto(b *ast.BlockStmt) bool {
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		if br, ok := n.(*ast.BranchStmt); ok && br.Tok == token.GOTO {
			found = true
		}
		return !found
	})
	return found
}

// returned reports whether the node whose ancestors are stack (innermost
// last) is part of what a return statement of the function itself
// returns: not one of a function literal's, which may run later.
func returned(stack []ast.Node) bool {
	ret := false
	for _, n := range stack {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			ret = true
		}
	}
	return ret
}
