package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
)

// Decision is the static stage's verdict for one access in a construct's
// goroutine body, as the rewriter will apply it in the construct's root
// version: Verdict is "private", "read-only", "independent" or "checked".
type Decision struct {
	Expr    ast.Expr
	Verdict string
	Why     string
}

// Decisions lists the verdicts for the accesses of c's goroutine bodies:
// captured variables (private, read-only or checked) and heap memory
// (read-only, independent — perhaps under the construct's guard — or
// checked), and the calls whose callee needs no checked clone. Locals
// declared in the body are private and not listed.
func (r *Result) Decisions(c *Construct) []Decision {
	var out []Decision
	info := r.finder.info
	heap := r.Heap(c)
	indep := r.Independent(c)
	for _, fk := range c.Forks {
		if fk.Body == nil {
			continue
		}
		body := fk.Body
		var stack []ast.Node
		ast.Inspect(body.Body, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			if _, lit := n.(*ast.FuncLit); lit {
				return false
			}
			var parent ast.Node
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			stack = append(stack, n)
			if call, ok := n.(*ast.CallExpr); ok {
				if v, ok := heap.Call(call); ok {
					out = append(out, heapDecision(call, v)) // the callee runs as written
				} else if r.WorkerCallPrivate(call) {
					out = append(out, Decision{call, "private", "the callee only indexes what the worker allocated"})
				} else if r.WorkerCall(call) {
					out = append(out, Decision{call, "checked", "in the worker's own block: the callee indexes only the worker's objects or by the worker's index"})
				}
			}
			if rs, ok := n.(*ast.RangeStmt); ok && rs.Value != nil && elemType(info.TypeOf(rs.X)) != nil {
				if v, ok := heap.Verdict(rs.Value); ok {
					out = append(out, heapDecision(rs.Value, v))
				}
			}
			e, ok := n.(ast.Expr)
			if !ok || !isLocation(e, info) || isPath(e, parent, info) {
				return true
			}
			if u, ok := parent.(*ast.UnaryExpr); ok && u.Op == token.AND {
				return true // &x touches nothing: the accesses through the pointer are listed
			}
			if sel, ok := parent.(*ast.SelectorExpr); ok && sel.X == e {
				if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
					if fn, ok := s.Obj().(*types.Func); ok && fn.Pkg() != nil && syncPackage(fn) {
						return true // wg.Done(), mu.Lock(): synchronization, not an access
					}
				}
			}
			m := modeIn(e, parent, info)
			if r.WorkerOwned(e) {
				out = append(out, Decision{e, "private", "only its worker reaches what the worker allocated"})
				return true
			}
			if v := rootVar(e, info); v != nil {
				if within(v.Pos(), body) {
					return true
				}
				d := r.varDecision(e, v, m, c)
				if d.Verdict == "checked" && r.WorkerBlock(e) {
					d.Why = "in the worker's own block: no other worker computes its address"
				}
				if hv, ok := heap.Verdict(e); ok && d.Verdict == "checked" && (m == read || hv.Independent) {
					d = heapDecision(e, hv) // a global read-only by type, as the rewriter decides it
				}
				out = append(out, d)
				return true
			}
			if v, ok := heap.Verdict(e); ok {
				out = append(out, heapDecision(e, v))
				return true
			}
			if ix, ok := ast.Unparen(e).(*ast.IndexExpr); ok {
				if id, ok := ast.Unparen(ix.X).(*ast.Ident); ok && indep[info.Uses[id].(*types.Var)] {
					out = append(out, Decision{e, "independent", "each iteration touches its own element of " + id.Name})
					return true
				}
			}
			why := heap.Why
			if why == "" && heap.Pool {
				why = "not proven: a pool's items are no iterations, only memory nothing writes is proven"
			} else if why == "" {
				why = "not proven"
			}
			if r.WorkerBlock(e) {
				why = "in the worker's own block: no other worker computes its address"
			}
			out = append(out, Decision{e, "checked", why})
			return true
		})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Expr.Pos() < out[j].Expr.Pos() })
	return out
}

func heapDecision(e ast.Expr, v HeapVerdict) Decision {
	kind := "read-only"
	if v.Independent {
		kind = "independent"
	}
	return Decision{e, kind, v.Why}
}

// varDecision is the verdict for an access of (a part of) the variable v.
func (r *Result) varDecision(e ast.Expr, v *types.Var, m mode, c *Construct) Decision {
	global := v.Pkg() != nil && (v.Parent() == v.Pkg().Scope() || v.Pkg() != r.finder.pkg)
	switch {
	case !global && !r.Shared[v]:
		return Decision{e, "private", "no other goroutine writes " + v.Name()}
	case m == read && r.ReadOnly(v, c):
		return Decision{e, "read-only", "nothing writes " + v.Name() + " while the construct runs"}
	}
	return Decision{e, "checked", "shared variable"}
}

// isLocation reports whether e denotes a variable or a part of memory.
func isLocation(e ast.Expr, info *types.Info) bool {
	switch x := e.(type) {
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		return ok && !v.IsField()
	case *ast.SelectorExpr:
		if s := info.Selections[x]; s != nil {
			return s.Kind() == types.FieldVal
		}
		_, ok := info.Uses[x.Sel].(*types.Var)
		return ok
	case *ast.IndexExpr:
		tv := info.Types[x.X]
		if tv.IsType() || isMapOrString(tv.Type) {
			return false
		}
		_, sig := underlying(tv.Type).(*types.Signature)
		return !sig
	case *ast.StarExpr:
		return !info.Types[x].IsType()
	}
	return false
}
