package rtnames

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// rtFuncs returns the exported functions and methods package rt declares
// (its Go files, tests aside).
func rtFuncs(t *testing.T) map[string]bool {
	t.Helper()
	funcs := map[string]bool{}
	fset := token.NewFileSet()
	files, _ := filepath.Glob("../../rt/*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.IsExported() {
				funcs[fd.Name.Name] = true
			}
		}
	}
	if len(funcs) < 20 {
		t.Fatalf("parsed only %d functions from ../../rt", len(funcs))
	}
	return funcs
}

// listed returns the names rtnames.go lists (Path aside), by value, each
// with the constant that spells it.
func listed(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "rtnames.go", nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			if vs.Names[0].Name == "Path" {
				continue
			}
			val, _ := strconv.Unquote(vs.Values[0].(*ast.BasicLit).Value)
			names[val] = vs.Names[0].Name
		}
	}
	if len(names) < 20 {
		t.Fatalf("parsed only %d names from rtnames.go", len(names))
	}
	return names
}

// TestLoadsClassifyEveryEntryPoint fails when a name rtnames lists is a
// function or method of rt and has no entry in loads: the slicer would
// take it to load everything its arguments reach, silently, and a call
// that in fact loads nothing would keep every store of its arguments'
// types. Classify it by reading what rt does with its arguments.
func TestLoadsClassifyEveryEntryPoint(t *testing.T) {
	funcs := rtFuncs(t)
	for val, name := range listed(t) {
		if !funcs[val] {
			continue // a type or a constant: never called
		}
		if _, ok := loads[val]; !ok {
			t.Errorf("rtnames.%s = %q: an entry point of rt with no Loads classification (loads.go)", name, val)
		}
	}
}

// TestLoadsNamesAreRTFuncs fails when loads classifies a name that rt does
// not declare as an exported function or method (renamed or removed), or
// that rtnames does not list.
func TestLoadsNamesAreRTFuncs(t *testing.T) {
	funcs, names := rtFuncs(t), listed(t)
	for val, l := range loads {
		if !funcs[val] {
			t.Errorf("loads[%q] = %d: rt declares no exported function or method %s", val, l, val)
		}
		if _, ok := names[val]; !ok {
			t.Errorf("loads[%q]: rtnames lists no %s", val, val)
		}
		if l > LoadsRows {
			t.Errorf("loads[%q] = %d: not a Loads", val, l)
		}
	}
}
