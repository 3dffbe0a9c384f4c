// Package rewrite turns one type-checked package into its checked form: the
// same source with rt calls around the parallel constructs and the shared
// accesses that the plan says to check, printed with dst so positions stay
// the user's.
package rewrite

import (
	"golang.org/x/tools/go/packages"

	"github.com/goanomaly/goanomaly/instrument/plan"
)

// Config says how to rewrite a package.
type Config struct {
	RTPath    string // import path of the runtime as the build makes it available
	FirstSite uint32 // first site id this package may use; ids are unique per binary
	Test      bool   // the package variant includes _test.go files: end the test binary with rt.Fini
}

// Result is the rewritten package.
type Result struct {
	Files    map[string][]byte // original file name → rewritten source (only files that changed)
	NewFiles map[string][]byte // new file name (in the package directory) → source
	NextSite uint32            // first site id not used by this package
	Plan     *plan.Package
}

// Package rewrites pkg, which must have syntax and types and no errors.
func Package(pkg *packages.Package, cfg Config) (*Result, error) {
	return &Result{NextSite: cfg.FirstSite, Plan: &plan.Package{Path: pkg.PkgPath}}, nil
}
