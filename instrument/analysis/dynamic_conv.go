package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// The conversions of concrete values to interfaces, whose methods may then
// be called through the interface (see dynamic.go). go/types records
// explicit conversions only, so the implicit ones are found where Go makes
// them: assignments, initialisations, arguments, results, composite
// literal elements and sends.

// conversions records the types n converts to an interface, for the nodes
// that are not calls or returns (dynamicIn handles those).
func (f *finder) conversions(n ast.Node, converted map[types.Type]bool) {
	switch x := n.(type) {
	case *ast.AssignStmt:
		if x.Tok != token.ASSIGN {
			return
		}
		if len(x.Lhs) == len(x.Rhs) {
			for i, l := range x.Lhs {
				f.convertTo(f.info.TypeOf(l), x.Rhs[i], converted)
			}
		} else if len(x.Rhs) == 1 {
			f.tupleTo(x.Lhs, x.Rhs[0], converted)
		}
	case *ast.ValueSpec:
		if x.Type == nil {
			return
		}
		t := f.info.TypeOf(x.Type)
		for _, v := range x.Values {
			f.convertTo(t, v, converted)
		}
	case *ast.CompositeLit:
		f.elemConversions(x, converted)
	case *ast.SendStmt:
		if ch, ok := underlying(f.info.TypeOf(x.Chan)).(*types.Chan); ok {
			f.convertTo(ch.Elem(), x.Value, converted)
		}
	case *ast.IndexExpr:
		if m, ok := underlying(f.info.TypeOf(x.X)).(*types.Map); ok {
			f.convertTo(m.Key(), x.Index, converted)
		}
	}
}

// tupleTo records the conversions of a multi-valued right side.
func (f *finder) tupleTo(lhs []ast.Expr, rhs ast.Expr, converted map[types.Type]bool) {
	tup, ok := f.info.TypeOf(rhs).(*types.Tuple)
	if !ok || tup.Len() != len(lhs) {
		return
	}
	for i, l := range lhs {
		if to := f.info.TypeOf(l); to != nil && types.IsInterface(to) && !types.IsInterface(tup.At(i).Type()) {
			converted[tup.At(i).Type()] = true
		}
	}
}

// callConversions records the conversions of a call's arguments to its
// parameters, of append's elements, and of an explicit conversion I(x).
func (f *finder) callConversions(x *ast.CallExpr, converted map[types.Type]bool) {
	tv := f.info.Types[x.Fun]
	if tv.IsType() {
		if len(x.Args) == 1 {
			f.convertTo(tv.Type, x.Args[0], converted)
		}
		return
	}
	if tv.IsBuiltin() {
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && id.Name == "append" && len(x.Args) > 1 && !x.Ellipsis.IsValid() {
			if s, ok := underlying(f.info.TypeOf(x.Args[0])).(*types.Slice); ok {
				for _, a := range x.Args[1:] {
					f.convertTo(s.Elem(), a, converted)
				}
			}
		}
		return
	}
	sig, ok := underlying(tv.Type).(*types.Signature)
	if !ok {
		return
	}
	params := sig.Params()
	for i, a := range x.Args {
		var pt types.Type
		switch {
		case sig.Variadic() && i >= params.Len()-1 && !x.Ellipsis.IsValid():
			pt = params.At(params.Len() - 1).Type().(*types.Slice).Elem()
		case i < params.Len():
			pt = params.At(i).Type()
		default:
			continue
		}
		if len(x.Args) == 1 && params.Len() > 1 { // f(g()) with g multi-valued
			if tup, ok := f.info.TypeOf(a).(*types.Tuple); ok {
				for j := 0; j < tup.Len() && j < params.Len(); j++ {
					if types.IsInterface(params.At(j).Type()) && !types.IsInterface(tup.At(j).Type()) {
						converted[tup.At(j).Type()] = true
					}
				}
				continue
			}
		}
		f.convertTo(pt, a, converted)
	}
}

// elemConversions records the conversions of a composite literal's
// elements to its field, element or key types.
func (f *finder) elemConversions(x *ast.CompositeLit, converted map[types.Type]bool) {
	t := underlying(f.info.TypeOf(x))
	if p, ok := t.(*types.Pointer); ok {
		t = underlying(p.Elem())
	}
	for i, el := range x.Elts {
		kv, _ := el.(*ast.KeyValueExpr)
		switch t := t.(type) {
		case *types.Struct:
			if kv != nil {
				if id, ok := kv.Key.(*ast.Ident); ok {
					if v, ok := f.info.Uses[id].(*types.Var); ok {
						f.convertTo(v.Type(), kv.Value, converted)
					}
				}
			} else if i < t.NumFields() {
				f.convertTo(t.Field(i).Type(), el, converted)
			}
		case *types.Slice:
			f.elemTo(t.Elem(), nil, el, kv, converted)
		case *types.Array:
			f.elemTo(t.Elem(), nil, el, kv, converted)
		case *types.Map:
			f.elemTo(t.Elem(), t.Key(), el, kv, converted)
		}
	}
}

func (f *finder) elemTo(elem, key types.Type, el ast.Expr, kv *ast.KeyValueExpr, converted map[types.Type]bool) {
	if kv == nil {
		f.convertTo(elem, el, converted)
		return
	}
	if key != nil {
		f.convertTo(key, kv.Key, converted)
	}
	f.convertTo(elem, kv.Value, converted)
}

// convertTo records the type of e if using e as a value of type to
// converts it to an interface.
func (f *finder) convertTo(to types.Type, e ast.Expr, converted map[types.Type]bool) {
	if to == nil || !types.IsInterface(to) {
		return
	}
	from := f.info.TypeOf(e)
	if from == nil || types.IsInterface(from) {
		return
	}
	if b, ok := from.(*types.Basic); ok && b.Kind() == types.UntypedNil {
		return
	}
	converted[from] = true
}
