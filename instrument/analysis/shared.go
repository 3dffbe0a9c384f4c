package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
)

// findShared marks the local variables that more than one goroutine may
// reach: those used from a function literal other than the one declaring
// them (captured) and those whose address is taken. A loop variable that a
// closure captures but nothing assigns after its declaration is not shared:
// since Go 1.22 each iteration has its own copy and it is only read. In a
// file of an older language version (the go directive of go.mod, or a
// //go:build line) a loop variable is one variable for the whole loop, which
// the loop writes at each iteration: captured, it is shared like any other.
// A loop variable whose address is taken may be written through the
// pointer (fill(&v) in the goroutine while the loop reads v): shared.
// addressed gets the variables whose address is taken, shared or not.
func findShared(files []*ast.File, info *types.Info, shared, addressed map[*types.Var]bool) {
	declFn := map[*types.Var]ast.Node{}
	loopVar := map[*types.Var]bool{}
	written := map[*types.Var]bool{}
	for _, file := range files {
		perIter := PerIterationLoopVars(info, file)
		var fns []ast.Node
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			if n == nil {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				fns = append(fns, n)
				// Receiver and parameters first: their declarations must be
				// known before a closure in the body uses them.
				if fd, ok := n.(*ast.FuncDecl); ok && fd.Recv != nil {
					ast.Inspect(fd.Recv, visit)
				}
				if ft := funcTypeOf(n); ft != nil {
					ast.Inspect(ft, visit)
				}
				ast.Inspect(funcBodyOf(n), visit)
				fns = fns[:len(fns)-1]
				return false
			case *ast.Ident:
				cur := ast.Node(nil)
				if len(fns) > 0 {
					cur = fns[len(fns)-1]
				}
				if v, ok := info.Defs[n].(*types.Var); ok && !v.IsField() {
					declFn[v] = cur
				} else if v, ok := info.Uses[n].(*types.Var); ok && !v.IsField() {
					if d, known := declFn[v]; known && d != cur {
						shared[v] = true
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					if v := rootVar(n.X, info); v != nil {
						shared[v], addressed[v] = true, true
					}
				}
			case *ast.SliceExpr:
				if v := rootVar(n.X, info); v != nil {
					if _, isArr := info.TypeOf(n.X).Underlying().(*types.Array); isArr {
						shared[v], addressed[v] = true, true
					}
				}
			case *ast.CallExpr:
				if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
					if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
						if sig, ok := s.Obj().Type().(*types.Signature); ok && sig.Recv() != nil && isPtr(sig.Recv().Type()) && !isPtr(s.Recv()) {
							if v := rootVar(sel.X, info); v != nil {
								shared[v], addressed[v] = true, true // implicit &v
							}
						}
					}
				}
			case *ast.RangeStmt:
				if n.Tok == token.DEFINE && perIter {
					markDefs(info, loopVar, n.Key, n.Value)
				} else {
					markWritten(info, written, n.Key, n.Value)
				}
			case *ast.ForStmt:
				if as, ok := n.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && perIter {
					markDefs(info, loopVar, as.Lhs...)
				}
				ast.Inspect(n.Init, visit)
				ast.Inspect(n.Cond, visit)
				ast.Inspect(n.Body, visit)
				// n.Post writes the next iteration's copy: not a write the body's closures see.
				if n.Post != nil {
					ast.Inspect(n.Post, func(m ast.Node) bool {
						if _, ok := m.(*ast.FuncLit); ok {
							return visit(m)
						}
						return true
					})
				}
				return false
			case *ast.AssignStmt:
				if n.Tok != token.DEFINE {
					markWritten(info, written, n.Lhs...)
				}
			case *ast.IncDecStmt:
				markWritten(info, written, n.X)
			}
			return true
		}
		ast.Inspect(file, visit)
	}
	for v := range shared {
		if loopVar[v] && !written[v] && !addressed[v] {
			delete(shared, v)
		}
	}
}

// PerIterationLoopVars reports whether the loops of file declare their
// variables once per iteration: its language version (types.Info's
// FileVersions, from go.mod's go directive or the file's //go:build line)
// is go1.22 or later. A file of unknown version is taken to be current.
func PerIterationLoopVars(info *types.Info, file *ast.File) bool {
	v := info.FileVersions[file]
	return v == "" || version.Compare(v, "go1.22") >= 0
}

func funcBodyOf(n ast.Node) ast.Node {
	switch n := n.(type) {
	case *ast.FuncDecl:
		if n.Body == nil {
			return nil
		}
		return n.Body
	case *ast.FuncLit:
		return n.Body
	}
	return nil
}

func funcTypeOf(n ast.Node) *ast.FuncType {
	switch n := n.(type) {
	case *ast.FuncDecl:
		return n.Type
	case *ast.FuncLit:
		return n.Type
	}
	return nil
}

func markDefs(info *types.Info, m map[*types.Var]bool, es ...ast.Expr) {
	for _, e := range es {
		if id, ok := e.(*ast.Ident); ok {
			if v, ok := info.Defs[id].(*types.Var); ok {
				m[v] = true
			}
		}
	}
}

func markWritten(info *types.Info, m map[*types.Var]bool, es ...ast.Expr) {
	for _, e := range es {
		if v := rootVar(e, info); v != nil {
			m[v] = true
		}
	}
}

// rootVar is the local or global variable whose storage e denotes a part of
// (x, x.f, x[i] of an array x), or nil when e reaches through a pointer,
// slice or map.
func rootVar(e ast.Expr, info *types.Info) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, _ := info.Uses[x].(*types.Var)
			if v == nil {
				v, _ = info.Defs[x].(*types.Var)
			}
			return v
		case *ast.SelectorExpr:
			if s := info.Selections[x]; s == nil || s.Kind() != types.FieldVal || s.Indirect() || isPtr(info.TypeOf(x.X)) {
				if s == nil {
					return rootVar(x.Sel, info) // qualified identifier pkg.V
				}
				return nil
			}
			e = x.X
		case *ast.IndexExpr:
			if _, ok := info.TypeOf(x.X).Underlying().(*types.Array); !ok {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

func isPtr(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}
