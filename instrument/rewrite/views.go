package rewrite

import (
	"golang.org/x/tools/go/packages"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// viewsOf says why the constructs of pkg cannot trust types to keep memory
// apart (see analysis.Result.SetViews): a package of its import graph
// outside the standard library, pkg included, imports unsafe or reflect.
// A package whose imports were not loaded counts as one that does.
func viewsOf(pkg *packages.Package) string {
	seen := map[*packages.Package]bool{}
	var walk func(p *packages.Package) string
	walk = func(p *packages.Package) string {
		if seen[p] || p != pkg && standard(p) {
			return ""
		}
		seen[p] = true
		if p.PkgPath == "" {
			return "the imports of " + p.ID + " are not known"
		}
		for _, bad := range []string{"unsafe", "reflect"} {
			if _, ok := p.Imports[bad]; ok {
				return p.PkgPath + " imports " + bad
			}
		}
		for _, q := range p.Imports {
			if why := walk(q); why != "" {
				return why
			}
		}
		return ""
	}
	return walk(pkg)
}

// standard reports whether p is a package of the standard library: in no
// module, and its path's first element has no dot.
func standard(p *packages.Package) bool {
	return p.Module == nil && p.PkgPath != "" && analysis.Standard(p.PkgPath) && p.PkgPath != "command-line-arguments"
}
