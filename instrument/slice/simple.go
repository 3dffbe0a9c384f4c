package slice

import (
	"go/ast"
	"go/token"
	"go/types"
)

// visitSimple decides an assignment, increment, expression or var
// declaration: kept whole when its effect may be needed, else replaced by
// its traps (possibly none).
func (ps *pkgState) visitSimple(s ast.Stmt) bool {
	why, keep := ps.mustKeep(s)
	if keep {
		ps.keep(s, why)
		ps.walkStmt(s)
		return true
	}
	var traps []trap
	ps.stmtTraps(s, &traps)
	ps.traps[s] = traps
	for _, t := range traps {
		ps.walkTrap(t)
	}
	if len(traps) > 0 {
		ps.why[s] = "only its bounds, nil and division checks are kept: its value reaches nothing the report depends on"
	} else {
		ps.why[s] = "its value reaches nothing the report depends on"
	}
	return len(traps) > 0
}

// mustKeep says whether s stays whole, and why.
func (ps *pkgState) mustKeep(s ast.Stmt) (string, bool) {
	if ps.p.Frozen {
		return "package not sliced", true
	}
	switch s := s.(type) {
	case *ast.DeclStmt:
		g := s.Decl.(*ast.GenDecl)
		if g.Tok != token.VAR {
			return "declaration", true
		}
		for _, sp := range g.Specs {
			for _, n := range sp.(*ast.ValueSpec).Names {
				if v := ps.localVar(n); v != nil && (ps.needed[v] || ps.mentioned[v] || ps.memVar(v) && ps.a.mem.storeNeeded(v.Type())) {
					return "declares " + n.Name + ", which kept code uses", true
				}
			}
		}
	case *ast.AssignStmt:
		if s.Tok == token.DEFINE {
			for _, l := range s.Lhs {
				id := l.(*ast.Ident)
				if ps.p.Info.Defs[id] != nil {
					if v := ps.localVar(id); v != nil && (ps.needed[v] || ps.mentioned[v] || ps.memVar(v) && ps.a.mem.storeNeeded(v.Type())) {
						return "declares " + id.Name + ", which kept code uses", true
					}
					continue
				}
				if why, k := ps.storeKeep(id); k {
					return why, true
				}
			}
		} else {
			for _, l := range s.Lhs {
				if why, k := ps.storeKeep(l); k {
					return why, true
				}
			}
		}
	case *ast.IncDecStmt:
		if why, k := ps.storeKeep(s.X); k {
			return why, true
		}
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		if !ok {
			return "not a call", true
		}
		if ps.builtin(call) == "clear" {
			if t := elemOf(ps.p.Info.TypeOf(call.Args[0])); t == nil || ps.a.mem.storeNeeded(t) {
				return "clears memory kept code may read (or a map)", true
			}
		}
		if ps.builtin(call) == "copy" {
			if t := elemOf(ps.p.Info.TypeOf(call.Args[0])); t == nil || ps.a.mem.storeNeeded(t) {
				return "copies into memory kept code may read", true
			}
		}
	}
	if why, k := ps.appendStore(s); k {
		return why, true
	}
	var traps []trap
	if !ps.stmtTraps(s, &traps) {
		return ps.cannot(s), true
	}
	return "", false
}

// appendStore says whether s calls copy or append into memory kept code
// may read: both store into their first argument's array, which other
// slices may share (ys := append(xs[:1], 0) writes xs[1]), whatever
// becomes of the result.
func (ps *pkgState) appendStore(s ast.Stmt) (string, bool) {
	why := ""
	ast.Inspect(s, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || why != "" {
			return why == ""
		}
		switch b := ps.builtin(call); b {
		case "copy", "append":
			if len(call.Args) == 0 {
				return true
			}
			if t := elemOf(ps.p.Info.TypeOf(call.Args[0])); t == nil || ps.a.mem.storeNeeded(t) {
				why = b + " stores into memory kept code may read"
			}
		}
		return true
	})
	return why, why != ""
}

// storeKeep says whether a store to lhs must stay: a variable kept code
// reads, or memory of a type kept code may load (or a map element, kept
// always: a nil map panics on a write).
func (ps *pkgState) storeKeep(lhs ast.Expr) (string, bool) {
	switch e := ast.Unparen(lhs).(type) {
	case *ast.Ident:
		if e.Name == "_" {
			return "", false
		}
		v := ps.localVar(e)
		if v == nil {
			return "assigns " + e.Name, true
		}
		if ps.needed[v] {
			return "assigns " + e.Name + ", which kept code reads", true
		}
		if ps.memVar(v) && ps.a.mem.storeNeeded(v.Type()) {
			return "assigns " + e.Name + " (in memory), of a type kept code may read", true
		}
		return "", false
	case *ast.IndexExpr:
		switch u := ps.p.Info.TypeOf(e.X).Underlying().(type) {
		case *types.Map:
			return "writes a map", true
		case *types.Array:
			return ps.storeKeep(e.X)
		case *types.Slice:
			return ps.memStore(u.Elem())
		case *types.Pointer:
			if a, ok := u.Elem().Underlying().(*types.Array); ok {
				return ps.memStore(a.Elem())
			}
		}
		return "stores to an indexed element not understood", true
	case *ast.SelectorExpr:
		sel := ps.p.Info.Selections[e]
		if sel == nil { // a package-qualified variable: another package's global
			if v, ok := ps.p.Info.Uses[e.Sel].(*types.Var); ok {
				if ps.needed[v] || ps.a.mem.storeNeeded(v.Type()) {
					return "assigns " + v.Name() + ", another package's variable", true
				}
				return "", false
			}
			return "assigns a selector not understood", true
		}
		if sel.Kind() != types.FieldVal {
			return "assigns a method value", true
		}
		if sel.Indirect() {
			return ps.memStore(sel.Obj().Type())
		}
		return ps.storeKeep(e.X)
	case *ast.StarExpr:
		if x := ps.rtTarget(e.X); x != nil {
			return ps.storeKeep(x) // *W(t, &x, s) = v stores to x (a local x is no memory)
		}
		return ps.memStore(ps.p.Info.TypeOf(e))
	}
	return "assigns something not understood", true
}

func (ps *pkgState) memStore(t types.Type) (string, bool) {
	if ps.a.mem.storeNeeded(t) {
		return "stores a " + types.TypeString(t, types.RelativeTo(ps.p.Types)) + ", which kept code may load", true
	}
	return "", false
}

// elemOf is the element type of a slice (nil otherwise).
func elemOf(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	if s, ok := t.Underlying().(*types.Slice); ok {
		return s.Elem()
	}
	return nil
}

// walkStmt walks a kept simple statement: what it reads is needed, what it
// stores is mentioned.
func (ps *pkgState) walkStmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.AssignStmt:
		for _, l := range s.Lhs {
			switch {
			case s.Tok == token.DEFINE || s.Tok == token.ASSIGN:
				ps.walk(l, store)
			default:
				ps.walk(l, load)
			}
		}
		for _, r := range s.Rhs {
			ps.walk(r, load)
		}
	case *ast.IncDecStmt:
		ps.walk(s.X, load)
	case *ast.ExprStmt:
		ps.walk(s.X, load)
	case *ast.DeclStmt:
		if g, ok := s.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				for _, n := range vs.Names {
					if v := ps.localVar(n); v != nil {
						ps.mention(v)
					}
				}
				for _, v := range vs.Values {
					ps.walk(v, load)
				}
			}
		}
	case *ast.SendStmt:
		ps.walk(s.Chan, load)
		ps.walk(s.Value, load)
	case nil:
	default:
		ast.Inspect(s, func(n ast.Node) bool {
			if e, ok := n.(ast.Expr); ok {
				ps.walk(e, load)
				return false
			}
			return true
		})
	}
}
