package rewrite

import (
	"go/ast"
	"go/types"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// Reflection's memory accesses (-hb): a method of reflect.Value that
// reads or writes what the value refers to gets its receiver checked, and
// reflect.Copy its elements (rt/reflectvalue.go):
//
//	v.Elem().Set(x)      ->  _ga_rt.ReflectOf(_ga_hb, v.Elem(), site).Set(x)
//	_ = v.Elem().Int()   ->  _ = _ga_rt.ReflectOf(_ga_hb, v.Elem(), site).Int()
//	reflect.Copy(d, s)   ->  _ga_rt.ReflectCopy(_ga_hb, d, s, site)
//
// rt's ReflectValue has the methods of the same names and signatures, each
// checking, once the arguments are evaluated, then calling reflect's.

// reflectMethods are the methods of reflect.Value that rt's ReflectValue
// checks.
var reflectMethods = map[string]bool{
	"Set": true, "SetInt": true, "SetUint": true, "SetFloat": true, "SetComplex": true, "SetBool": true,
	"SetString": true, "SetBytes": true, "SetZero": true, "SetLen": true, "SetCap": true,
	"Int": true, "Uint": true, "Float": true, "Complex": true, "Bool": true, "String": true,
	"Interface": true, "IsZero": true,
}

// reflectCall rewrites a call of reflect.Copy, returning the call that
// replaces x, or wraps the receiver of a reflect.Value method in place
// and returns nil. x.Args and the receiver are already rewritten.
func (w *walker) reflectCall(x *dst.CallExpr, a *ast.CallExpr, fn *types.Func) dst.Expr {
	if !w.hooks() || fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "reflect" {
		return nil
	}
	site := func() dst.Expr { return siteLit(w.site(a.Pos(), types.ExprString(a.Fun))) }
	if fn.FullName() == "reflect.Copy" && len(x.Args) == 2 {
		w.change()
		w.hbNoted(a.Pos())
		return w.rtCall(rtnames.ReflectCopy, w.taskExpr(), x.Args[0], x.Args[1], site())
	}
	if recvNamed(fn) != "Value" || !reflectMethods[fn.Name()] {
		return nil
	}
	sel, ok := x.Fun.(*dst.SelectorExpr)
	selAST, _ := ast.Unparen(a.Fun).(*ast.SelectorExpr)
	if !ok || selAST == nil || w.info.Selections[selAST] == nil || w.info.Selections[selAST].Kind() != types.MethodVal {
		return nil
	}
	if len(w.info.Selections[selAST].Index()) > 1 {
		return nil // promoted from an embedded Value: its path is not the receiver
	}
	w.change()
	w.hbNoted(a.Pos())
	sel.X = w.rtCall(rtnames.ReflectOf, w.taskExpr(), sel.X, site())
	return nil
}
