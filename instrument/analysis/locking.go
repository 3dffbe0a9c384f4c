package analysis

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
)

// Locking is inconsistent locking found statically: a location of a
// construct's goroutines written while holding Lock in one place and
// accessed without it in another, so the two can race (a DATA RACE at run
// time, where the accesses under the lock alone would be NONDETERMINISM).
type Locking struct {
	Lock            string
	Locked, Without ast.Expr
	WriteWithout    bool
}

// Describe says what is inconsistent, for vet and the analyzer.
func (l Locking) Describe(fset *token.FileSet) string {
	op := "read"
	if l.WriteWithout {
		op = "written"
	}
	return fmt.Sprintf("inconsistent locking: %s is written holding %s at line %d but %s without it here",
		types.ExprString(l.Without), l.Lock, fset.Position(l.Locked.Pos()).Line, op)
}

// lockedAccess is one access of a goroutine body with the locks held.
type lockedAccess struct {
	e     ast.Expr
	write bool
	held  []string
}

// Inconsistent returns the inconsistent locking among the goroutine bodies
// of construct c: for each shared variable or field path (a global, a
// captured variable, or a field of one), a write made holding a lock and an
// access made without it. Locks are followed within each body, statement by
// statement (Lock and Unlock in the same block; a deferred Unlock holds to
// the end); calls are not followed.
func (r *Result) Inconsistent(c *Construct) []Locking {
	byLoc := map[string][]lockedAccess{}
	for _, fk := range c.Forks {
		if fk.Body != nil {
			r.lockWalk(fk.Body.Body.List, nil, byLoc)
		}
	}
	var out []Locking
	keys := make([]string, 0, len(byLoc))
	for k := range byLoc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		acc := byLoc[k]
		found := false
		for _, w := range acc {
			if !w.write || len(w.held) == 0 || found {
				continue
			}
			for _, l := range w.held {
				for _, a := range acc {
					if !slices.Contains(a.held, l) {
						out = append(out, Locking{Lock: l, Locked: w.e, Without: a.e, WriteWithout: a.write})
						found = true
						break
					}
				}
				if found {
					break
				}
			}
		}
	}
	return out
}

// lockWalk records the accesses of stmts with the locks held at each.
func (r *Result) lockWalk(stmts []ast.Stmt, held []string, byLoc map[string][]lockedAccess) []string {
	f := r.finder
	for _, s := range stmts {
		if call := stmtCall(s); call != nil {
			switch f.methodName(call) {
			case "(*sync.Mutex).Lock", "(*sync.RWMutex).Lock", "(*sync.RWMutex).RLock":
				held = append(slices.Clip(held), recvText(call))
				continue
			case "(*sync.Mutex).Unlock", "(*sync.RWMutex).Unlock", "(*sync.RWMutex).RUnlock":
				if _, deferred := s.(*ast.DeferStmt); !deferred {
					l := recvText(call)
					held = slices.DeleteFunc(slices.Clone(held), func(h string) bool { return h == l })
				}
				continue
			}
		}
		r.lockAccesses(s, held, byLoc)
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BlockStmt:
				r.lockWalk(n.List, held, byLoc)
				return false
			case *ast.CaseClause:
				r.lockWalk(n.Body, held, byLoc)
				return false
			}
			return true
		})
	}
	return held
}

// stmtCall is the call of an expression statement or a defer.
func stmtCall(s ast.Stmt) *ast.CallExpr {
	switch s := s.(type) {
	case *ast.ExprStmt:
		call, _ := s.X.(*ast.CallExpr)
		return call
	case *ast.DeferStmt:
		return s.Call
	}
	return nil
}

// lockAccesses records the accesses of shared variables and their field
// paths made by s itself (not by the blocks nested in it).
func (r *Result) lockAccesses(s ast.Stmt, held []string, byLoc map[string][]lockedAccess) {
	writes := map[ast.Expr]bool{}
	switch s := s.(type) {
	case *ast.AssignStmt:
		for _, l := range s.Lhs {
			writes[ast.Unparen(l)] = true
		}
	case *ast.IncDecStmt:
		writes[ast.Unparen(s.X)] = true
	}
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.BlockStmt, *ast.CaseClause:
			return false
		case *ast.SelectorExpr, *ast.Ident:
			e := n.(ast.Expr)
			if !r.sharedPath(e) {
				return true
			}
			byLoc[types.ExprString(e)] = append(byLoc[types.ExprString(e)], lockedAccess{e: e, write: writes[e], held: held})
			return false // the path's prefixes are not accesses of their own
		}
		return true
	})
}

// sharedPath reports whether e is a variable, or a field path of one, that
// several goroutines reach: a global or a shared local, not read-only.
func (r *Result) sharedPath(e ast.Expr) bool {
	info := r.finder.info
	switch x := e.(type) {
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		return ok && !v.IsField() && (v.Parent() == v.Pkg().Scope() || r.Shared[v])
	case *ast.SelectorExpr:
		if s := info.Selections[x]; s != nil && s.Kind() == types.FieldVal {
			return r.sharedPath(x.X)
		}
	}
	return false
}
