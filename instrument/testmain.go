package instrument

import (
	"strings"

	"golang.org/x/tools/go/packages"
)

// pendingFile is a file the rewriter added that the session adds to the
// overlay only if it is needed: the TestMain that ends a test binary with
// rt.Fini (rewrite.Result.TestMain).
type pendingFile struct {
	pkg  *packages.Package
	name string
	data []byte
}

// addTestMains adds the TestMain files of the test binaries that link a
// package with a construct. A binary without one cannot report anything,
// so it is built without the added TestMain: its examples, which run on the
// main goroutine under TestMain, see the stack they see under go test.
func (s *session) addTestMains() error {
	for _, f := range s.testMains {
		if !s.linksConstruct(testBinary(f.pkg)) {
			s.debugf("%s links no construct: no TestMain added", testBinary(f.pkg))
			continue
		}
		if err := s.place(f.pkg, f.name, f.data, false); err != nil {
			return err
		}
		if f.pkg.PkgPath == "command-line-arguments" {
			s.newFiles = append(s.newFiles, f.name)
		}
	}
	return nil
}

// linksConstruct reports whether the test binary bin ("p.test") links a
// rewritten package with a construct, or is not among the loaded packages
// (then it is assumed to).
func (s *session) linksConstruct(bin string) bool {
	var main *packages.Package
	for _, r := range s.roots {
		if r.ID == bin {
			main = r
		}
	}
	if main == nil {
		return true
	}
	found := false
	packages.Visit([]*packages.Package{main}, func(p *packages.Package) bool {
		found = found || s.constructs[strings.TrimSuffix(p.PkgPath, "_test")] || s.constructs[p.PkgPath]
		return !found
	}, nil)
	return found
}
