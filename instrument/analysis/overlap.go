package analysis

import "go/types"

// mayOverlap reports whether memory holding a value of type a and memory
// holding a value of type b can share bytes in a program without unsafe:
// only when one type is the other, or a part of the other (a field of a
// struct, an element of an array, at any depth). A []float64 element can be
// a field of a struct only through an array field sliced (s.arr[:]), which
// the part relation covers; slices, pointers and maps lead elsewhere, so
// they are not parts.
func mayOverlap(a, b types.Type) bool {
	return partOf(a, b) || partOf(b, a)
}

// PartOf is partOf, for the check coalescer's memory model (rewrite's
// coalesce_overlap.go), which must agree with it on type parameters and
// tags.
func PartOf(part, whole types.Type) bool { return partOf(part, whole) }

// partOf reports whether part is whole or a part of whole's own storage.
// Types are compared by their underlying types, tags ignored: *F converts
// to *float64 when F's underlying type is float64. A type parameter may be
// anything.
func partOf(part, whole types.Type) bool {
	if hasTypeParam(part) || hasTypeParam(whole) || types.IdenticalIgnoreTags(part.Underlying(), whole.Underlying()) {
		return true
	}
	switch w := whole.Underlying().(type) {
	case *types.Struct:
		for i := range w.NumFields() {
			if partOf(part, w.Field(i).Type()) {
				return true
			}
		}
	case *types.Array:
		return partOf(part, w.Elem())
	}
	return false
}

// hasTypeParam reports whether t's own storage involves a type parameter.
func hasTypeParam(t types.Type) bool {
	switch t := t.(type) {
	case *types.TypeParam:
		return true
	case *types.Named:
		if t.TypeArgs().Len() > 0 {
			return hasTypeParam(t.Underlying())
		}
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := range u.NumFields() {
			if hasTypeParam(u.Field(i).Type()) {
				return true
			}
		}
	case *types.Array:
		return hasTypeParam(u.Elem())
	}
	return false
}
