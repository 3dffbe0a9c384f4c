package analysis

import (
	"go/ast"
	"go/types"
)

// What a call through a value may run, by its type (cbreads.go). A value
// of function type S holds only functions whose type is identical to S
// (literals, functions, method values without their receiver); an
// interface's method M runs only methods named M of the same signature.
// imaging's test files keep a literal toBW that appends bytes; called
// through no value of its type in blur's tree, it no longer counts as a
// write of the bytes blur's scanner reads. Anything involving type
// parameters, and every other call through a value (a method expression,
// a value of a type parameter), may run any of them (callable).

// callableBy walks, once each, the functions of the packages rewritten
// together that the call through a value, in code of r, may run checked.
func (t *treeWalk) callableBy(r *Result, call *ast.CallExpr) {
	sig, name := valueCallee(r.finder.info, call)
	if sig == nil || mentionsTypeParam(sig, map[types.Type]bool{}) {
		t.callable()
		return
	}
	if t.dynamic {
		return // all walked already
	}
	for _, o := range t.link.results {
		for fn, d := range o.Decls {
			if !o.Prologue[fn] || o.Detach[fn] {
				continue
			}
			fs, _ := fn.Type().(*types.Signature)
			if name != "" && (fn.Name() != name || fs.Recv() == nil) {
				continue
			}
			if generic(fs, d) || types.Identical(fs, sig) {
				t.fn(fn)
			}
		}
		own := o.testRunLits()
		for _, s := range o.specSites() {
			own[s.lit] = true
		}
		if name != "" {
			continue // an interface's method is a declared one
		}
		for lit := range o.PrologueLits {
			if o.DetachLits[lit] || own[lit] {
				continue
			}
			lt, _ := o.finder.info.TypeOf(lit).(*types.Signature)
			if lt == nil || mentionsTypeParam(lt, map[types.Type]bool{}) || types.Identical(lt, sig) {
				t.lit(o, lit)
			}
		}
	}
}

// valueCallee returns the signature a call through a value calls, and
// the method's name when it calls an interface's method; nil when the
// call is of another kind.
func valueCallee(info *types.Info, call *ast.CallExpr) (*types.Signature, string) {
	fun := ast.Unparen(call.Fun)
	if sel, ok := fun.(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil {
			switch s.Kind() {
			case types.MethodVal:
				if _, isIface := s.Recv().Underlying().(*types.Interface); !isIface {
					return nil, "" // a method of a type parameter, or of a concrete type
				}
				if _, isParam := s.Recv().(*types.TypeParam); isParam {
					return nil, ""
				}
				sig, _ := s.Obj().Type().(*types.Signature)
				return sig, s.Obj().Name()
			case types.MethodExpr:
				return nil, ""
			}
		}
	}
	t := info.TypeOf(fun)
	if t == nil {
		return nil, ""
	}
	if _, isParam := t.(*types.TypeParam); isParam {
		return nil, ""
	}
	sig, _ := t.Underlying().(*types.Signature)
	return sig, ""
}

// generic reports whether the function d declares, or its receiver's
// type, has type parameters: its instances' signatures are not its own.
func generic(sig *types.Signature, d *ast.FuncDecl) bool {
	return sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0 || d.Type.TypeParams != nil || mentionsTypeParam(sig, map[types.Type]bool{})
}

// mentionsTypeParam reports whether t mentions a type parameter.
func mentionsTypeParam(t types.Type, seen map[types.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	switch u := t.(type) {
	case *types.TypeParam:
		return true
	case *types.Named:
		for i := range u.TypeArgs().Len() {
			if mentionsTypeParam(u.TypeArgs().At(i), seen) {
				return true
			}
		}
		return mentionsTypeParam(u.Underlying(), seen) // a type declared in a generic function
	case *types.Signature:
		for _, tup := range []*types.Tuple{u.Params(), u.Results()} {
			for i := range tup.Len() {
				if mentionsTypeParam(tup.At(i).Type(), seen) {
					return true
				}
			}
		}
		return u.TypeParams().Len() > 0
	case *types.Pointer:
		return mentionsTypeParam(u.Elem(), seen)
	case *types.Slice:
		return mentionsTypeParam(u.Elem(), seen)
	case *types.Array:
		return mentionsTypeParam(u.Elem(), seen)
	case *types.Chan:
		return mentionsTypeParam(u.Elem(), seen)
	case *types.Map:
		return mentionsTypeParam(u.Key(), seen) || mentionsTypeParam(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if mentionsTypeParam(u.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Interface:
		for i := range u.NumMethods() {
			if mentionsTypeParam(u.Method(i).Type(), seen) {
				return true
			}
		}
		for i := range u.NumEmbeddeds() {
			if mentionsTypeParam(u.EmbeddedType(i), seen) {
				return true
			}
		}
	case *types.Alias:
		return mentionsTypeParam(types.Unalias(u), seen)
	}
	return false
}
