package analysis

import (
	"go/ast"
	"go/types"
)

// Atomic-only variables. A local variable of one of sync/atomic's types
// (Int32, Int64, Uint32, Uint64, Uintptr, Bool, Pointer[T], Value) that the
// package names only as the receiver of a method call (`idx.Add(1)`,
// `done.Load()`) is memory that nothing but sync/atomic's operations
// touches: its declaration initializes a fresh variable, and no copy, no
// assignment, no &v and no method value ever reach it plainly.
//
// Its accesses can then conflict only with each other, and two atomic
// accesses are reported only with atomics=1 or when both hold a common lock
// (rt's classify). So the rewriter checks them with AWOnly/AROnly, which do
// nothing unless atomics=1 or the task holds a lock: conc's iter.ForEach
// spent a quarter of its checked time on the swap of its counter's shadow
// word, once per item, for no report any schedule could give.
//
// Not covered (checked as before): globals and fields (another function or
// package may copy them), parameters (the caller copied the value),
// variables of a type that merely contains an atomic, local pointers to an
// atomic (new(atomic.Int64): the pointer may be passed on), and the
// function forms (atomic.AddInt64(&n, 1) on a plain int64).

// AtomicOnly reports whether v is an atomic-only variable (above).
func (r *Result) AtomicOnly(v *types.Var) bool {
	if r.atomicOnly == nil {
		r.atomicOnly = atomicOnlyVars(r.finder.files, r.finder.info)
	}
	return r.atomicOnly[v]
}

// atomicOnlyVars finds the atomic-only variables of files.
func atomicOnlyVars(files []*ast.File, info *types.Info) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	for id, obj := range info.Defs {
		v, ok := obj.(*types.Var)
		if !ok || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() || !isAtomicType(v.Type()) {
			continue
		}
		if !declaredInBody(id, v, files) {
			continue // a parameter, result or receiver: its caller made it by a copy
		}
		out[v] = true
	}
	if len(out) == 0 {
		return out
	}
	// Every use must be the receiver of a method call: v.M(...).
	asReceiver := map[*ast.Ident]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok {
				if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
					asReceiver[id] = true
				}
			}
			return true
		})
	}
	for id, obj := range info.Uses {
		if v, ok := obj.(*types.Var); ok && out[v] && !asReceiver[id] {
			delete(out, v)
		}
	}
	return out
}

// declaredInBody reports whether the identifier defining v is a variable
// declaration or short variable declaration inside a function body, not a
// parameter, result or receiver.
func declaredInBody(id *ast.Ident, v *types.Var, files []*ast.File) bool {
	for _, f := range files {
		if f.Pos() > id.Pos() || id.Pos() >= f.End() {
			continue
		}
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			if found {
				return false
			}
			if n == nil || n.Pos() > id.Pos() || id.Pos() >= n.End() {
				return n == nil
			}
			switch d := n.(type) {
			case *ast.FuncType:
				return false // parameters and results
			case *ast.FuncDecl:
				if d.Recv != nil && d.Recv.Pos() <= id.Pos() && id.Pos() < d.Recv.End() {
					return false
				}
			case *ast.ValueSpec:
				for _, name := range d.Names {
					found = found || name == id
				}
			case *ast.AssignStmt:
				for _, l := range d.Lhs {
					found = found || l == id
				}
			}
			return true
		})
		return found
	}
	return false
}

// isAtomicType reports whether t is one of sync/atomic's types, whose
// methods are atomic operations and whose fields are unexported.
func isAtomicType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync/atomic" {
		return false
	}
	switch n.Obj().Name() {
	case "Int32", "Int64", "Uint32", "Uint64", "Uintptr", "Bool", "Pointer", "Value":
		return true
	}
	return false
}
