package analysis

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// Views: memory of one type seen as another.
//
// mayOverlap keeps a []float32 apart from a []uint32 because, without
// unsafe, memory holding one can never hold the other. A package that
// imports unsafe (or reflect, whose Value.UnsafePointer and NewAt hand out
// and take unsafe.Pointer values without naming the package) can return a
// []float32 over a []uint32's array, and code that imports it receives the
// view as an ordinary slice. Such a package may be anywhere in the import
// graph: in the module, or in a dependency. So a construct trusts types to
// keep memory apart only when no package of its import graph outside the
// standard library imports unsafe or reflect; otherwise (Result.views set)
// any two types may overlap: roots of different types are guarded against
// each other, and a write of any type spoils a proof of any other.
//
// The standard library is trusted: none of its functions returns memory
// of the caller's as another type without being given an unsafe.Pointer
// (unsafe.Slice, unsafe.String, reflect.NewAt and reflect.SliceAt need one,
// so code using them imports unsafe or reflect itself and is counted).

// SetViews records why memory of one type may be reached as another type
// in this package (a package of its import graph outside the standard
// library imports unsafe or reflect), or "" when types keep memory apart.
// Drivers that know the import graph call it before the proofs are asked
// for; the Analyzer finds it from facts.
func (r *Result) SetViews(why string) { r.views = why }

// Views is what SetViews recorded, or why this package itself reaches
// memory as another type (it imports unsafe or reflect).
func (r *Result) Views() string {
	if r.views != "" {
		return r.views
	}
	return ownViews(r.finder.pkg)
}

// ownViews says why pkg itself may view memory as another type: it imports
// unsafe or reflect.
func ownViews(pkg *types.Package) string {
	for _, imp := range pkg.Imports() {
		if imp.Path() == "unsafe" || imp.Path() == "reflect" {
			return pkg.Path() + " imports " + imp.Path()
		}
	}
	return ""
}

// overlap is mayOverlap, unless the construct's package may see memory of
// one type as another: then any two types may overlap, except memory that
// only synchronization methods touch in the construct (wg.Go, mu.Lock on
// their receivers). Those accesses are never checked, in the conservative
// build either, so no report can depend on where a view of them lies, and
// without the exception every construct joined by a WaitGroup would lose
// every proof.
func (h *heapPass) overlap(a, b types.Type) bool {
	if h.views != "" && !h.syncOnly(a) && !h.syncOnly(b) {
		return true
	}
	return mayOverlap(a, b)
}

// touch records the type of one access of the footprint.
func (h *heapPass) touch(a access) {
	if a.sync {
		h.synced = append(h.synced, a.typ)
	} else {
		h.touched = append(h.touched, a.typ)
	}
}

// syncOnly reports whether the construct touches memory of type t only
// on the receivers of synchronization methods.
func (h *heapPass) syncOnly(t types.Type) bool {
	has := func(ts []types.Type) bool {
		for _, u := range ts {
			if types.Identical(u, t) {
				return true
			}
		}
		return false
	}
	return has(h.synced) && !has(h.touched)
}

// viewsFact is the Analyzer's package fact: this package, or one it
// imports outside the standard library, imports unsafe or reflect (Why
// says which).
type viewsFact struct{ Why string }

func (*viewsFact) AFact()           {}
func (f *viewsFact) String() string { return "views: " + f.Why }

// factViews finds, for the Analyzer, why the package of pass may see
// memory as another type: its own imports of unsafe or reflect, or the
// fact of a package it imports. It exports the fact for the packages that
// import this one. The standard library's packages have none.
func factViews(pass *analysis.Pass) string {
	if inGOROOT(pass) {
		return ""
	}
	why := ownViews(pass.Pkg) // type-checked from source: its direct imports
	for _, imp := range pass.Pkg.Imports() {
		var f viewsFact
		if why == "" && pass.ImportPackageFact(imp, &f) {
			why = f.Why
		}
	}
	if why != "" {
		pass.ExportPackageFact(&viewsFact{Why: why})
	}
	return why
}
