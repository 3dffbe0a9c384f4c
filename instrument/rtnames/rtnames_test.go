package rtnames

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestNamesExistInRT parses package rt (instrument never imports it) and
// checks that every name here is a function, method, type or constant
// there. The rewriter spells rt's names only through this package.
func TestNamesExistInRT(t *testing.T) {
	declared := map[string]bool{}
	fset := token.NewFileSet()
	files, _ := filepath.Glob("../../rt/*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				declared[d.Name.Name] = true
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						declared[sp.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							declared[n.Name] = true
						}
					}
				}
			}
		}
	}
	names := listed(t)
	for val, name := range names {
		if !declared[val] {
			t.Errorf("rtnames.%s = %q: rt declares no %s", name, val, val)
		}
	}
	if len(names) < 20 {
		t.Fatalf("parsed only %d names from rtnames.go", len(names))
	}
}
