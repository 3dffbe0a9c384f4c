package analysis

import (
	"go/ast"
	"go/types"
)

// What a callback's read and a write of its tree may share (cbreads.go).
// mayOverlap compares types only, so an int field of a scanner read
// through a pointer met every int written anywhere: the option setters
// imaging keeps as values (c.jpegQuality = q) spoiled every width read.
// Without unsafe (views.go), memory has one type, and a field of a struct
// is another location than a field of another struct type, unless one of
// them holds the other:
//
//   - a write x.f of field f (declared in struct F, of type U) and a read
//     y.g of field g (in G, of type T) meet only if f is g, or f and g
//     have one name and F and G one underlying type (a pointer converts,
//     without unsafe: (*G)(&x) is &x, so x.f is y.g), or the written
//     field holds a whole G (partOf(G, U)), or the read field holds a
//     whole F (partOf(F, T));
//   - a write of an element of a slice or array of E meets y.g only if the
//     element holds a whole G, or T holds an array the slice may be a
//     slice of (the elements lie in it);
//   - any other write of a U (through a pointer, a variable, a call into
//     a package that is not rewritten) meets y.g if it holds a whole G or
//     lies within T (the pointer may be &y.g). A U that merely has a part
//     of T's type does not: the two objects would have to be nested, and
//     the U would then hold the whole G.
//
// Reads other than of a field are compared by type, as mayOverlap says.

// treeWrite is one write a callback's tree may make.
type treeWrite struct {
	typ   types.Type // the type of the memory written
	field *types.Var // a field written through a selector, or nil
	owner types.Type // the struct type declaring field
	elem  bool       // an element of a slice or an array, or all of a slice's
	// only, when not nil, are the names that alone reach the memory
	// written: an output made for the callback (cbfresh.go). The write
	// meets no read through another name.
	only map[*types.Var]bool
}

// readLoc is a location a callback reads.
type readLoc struct {
	typ   types.Type
	field *types.Var // read through a selector, or nil
	owner types.Type
	root  *types.Var // the name the read goes through (baseVar), or nil
}

// meets reports whether the write w may touch the memory of the read l.
func (w treeWrite) meets(l readLoc) bool {
	if w.only != nil && !w.only[l.root] {
		return false
	}
	if l.field == nil {
		return mayOverlap(w.typ, l.typ)
	}
	switch {
	case w.field != nil:
		return sameField(w.field, w.owner, l.field, l.owner) || partOf(l.owner, w.typ) || partOf(w.owner, l.typ)
	case w.elem:
		return partOf(l.owner, w.typ) || partOf(w.typ, l.typ) && holdsArray(l.typ, map[types.Type]bool{})
	}
	return partOf(l.owner, w.typ) || partOf(w.typ, l.typ)
}

// sameField reports whether field f of struct F and field g of struct G
// may be one location: f is g, or F and G have identical underlying
// types (tags ignored), so that a pointer to one converts to a pointer to
// the other without unsafe ((*G)(pf) is pf), and f and g have one name,
// so one place in it. A type parameter may be either.
func sameField(f *types.Var, F types.Type, g *types.Var, G types.Type) bool {
	return f == g || f.Name() == g.Name() && partOf(F, G) && partOf(G, F)
}

// holdsArray reports whether t's own storage includes an array (or a type
// parameter, which may be one).
func holdsArray(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Array:
		return true
	case *types.Struct:
		for i := range u.NumFields() {
			if holdsArray(u.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.TypeParam, *types.Interface:
		_, isParam := t.(*types.TypeParam)
		return isParam
	}
	return false
}

// selectedField returns the field e selects and the struct type declaring it,
// when e is a field selection (through embedded fields too).
func selectedField(e ast.Expr, info *types.Info) (*types.Var, types.Type) {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil, nil
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return nil, nil
	}
	f, _ := s.Obj().(*types.Var)
	t := s.Recv()
	idx := s.Index()
	for k, i := range idx {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || f == nil {
			return nil, nil
		}
		if k == len(idx)-1 {
			return f.Origin(), t
		}
		t = st.Field(i).Type()
	}
	return nil, nil
}

// writeOf classifies the access a of code of r as a treeWrite.
func writeOf(a access, info *types.Info) treeWrite {
	w := treeWrite{typ: a.typ, elem: a.elems}
	if a.elems {
		return w
	}
	if f, owner := selectedField(a.e, info); f != nil {
		w.field, w.owner = f, owner
		return w
	}
	if ix, ok := ast.Unparen(a.e).(*ast.IndexExpr); ok && elemType(info.TypeOf(ix.X)) != nil {
		w.elem = true
	}
	return w
}

// readOf is the readLoc of the read a.
func readOf(a access, info *types.Info) readLoc {
	l := readLoc{typ: a.typ, root: baseVar(a.e, info)}
	if !a.elems {
		l.field, l.owner = selectedField(a.e, info)
	}
	return l
}

// baseVar is the variable whose value the location or slice e is reached
// from (d of d[0], dst of dst.Pix[j:k], m of m.pix[i]), or nil when e
// starts elsewhere (a call's result, a conversion).
func baseVar(e ast.Expr, info *types.Info) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return identVar(x, info)
		case *ast.SelectorExpr:
			if info.Selections[x] == nil {
				return identVar(x.Sel, info) // pkg.V
			}
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.SliceExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}
