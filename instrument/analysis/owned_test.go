package analysis

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// ownedSrc has one parallel loop; each statement _ = a[e] // want F says
// whether the subscript e is an ownership form (F is a label: equal labels
// must give equal forms, "-" means no form).
const ownedSrc = `package p

import "sync"

func f(a []int, n, chunks, block int, w8 int8) {
	w := n + 2
	var wg sync.WaitGroup
	for c := range chunks {
		wg.Go(func() {
			_ = a[c]     // want idx
			_ = a[c+0]   // want idx
			_ = a[2*c+1] // want idx21
			_ = a[c*c]   // want -
			_ = a[n]     // want -
			for j := c * n / chunks; j < (c+1)*n/chunks; j++ {
				_ = a[j]   // want chunk
				_ = a[j+1] // want chunk+1
			}
			for j := c * n / chunks; j < min((c+1)*n/chunks, n); j++ {
				_ = a[j] // want chunk
			}
			for j := c * n / chunks; j < (c+2)*n/chunks; j++ {
				_ = a[j] // want -
			}
			for j := c * n % chunks; j < (c+1)*n%chunks; j++ {
				_ = a[j] // want -
			}
			for j := c; j < c+1; j++ {
				_ = a[j]     // want unit
				for k := 1; k <= n; k++ {
					_ = a[j*w+k]   // want row
					_ = a[j*w+k-1] // want row
					_ = a[j*w+k+1] // want row
					_ = a[j*w+k+2] // want -
					_ = a[j*n+k]   // want -
				}
				for k := range w {
					_ = a[j*w+k] // want row
				}
			}
			for i := int8(0); i < w8; i++ {
				_ = a[i*2] // want -
			}
		})
	}
	wg.Wait()
}
`

func TestOwnershipForms(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", ownedSrc, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, FileVersions: map[*ast.File]string{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{file}, info)
	if err != nil {
		t.Fatal(err)
	}
	res := Analyze([]*ast.File{file}, info, pkg)
	if len(res.Constructs) != 1 {
		t.Fatalf("found %d constructs, want 1", len(res.Constructs))
	}
	h, why := res.newHeapPass(res.Constructs[0])
	if h == nil {
		t.Fatal(why)
	}
	if why := h.footprint(); why != "" {
		t.Fatal(why)
	}
	wantAt := map[int]string{}
	for _, cg := range file.Comments {
		for _, c := range cg.List {
			if label, ok := strings.CutPrefix(c.Text, "// want "); ok {
				wantAt[fset.Position(c.Pos()).Line] = label
			}
		}
	}
	formOf := map[string]string{} // label → the form first seen with it
	seen := 0
	ast.Inspect(h.fk.Body.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return true
		}
		ix, ok := as.Rhs[0].(*ast.IndexExpr)
		if !ok {
			return true
		}
		seen++
		line := fset.Position(ix.Pos()).Line
		label := wantAt[line]
		got := h.form(ix.Index)
		switch {
		case label == "-":
			if got != "" {
				t.Errorf("line %d: a[%s] has form %q, want none", line, types.ExprString(ix.Index), got)
			}
		case got == "":
			t.Errorf("line %d: a[%s] has no form, want one (%s)", line, types.ExprString(ix.Index), label)
		case formOf[label] == "":
			for l, f := range formOf {
				if f == got {
					t.Errorf("line %d: a[%s] has the form of %q, want a form of its own (%s)", line, types.ExprString(ix.Index), l, label)
				}
			}
			formOf[label] = got
		case formOf[label] != got:
			t.Errorf("line %d: a[%s] has form %q, want %q (%s)", line, types.ExprString(ix.Index), got, formOf[label], label)
		}
		return true
	})
	if seen != len(wantAt) {
		t.Errorf("checked %d subscripts, the source marks %d", seen, len(wantAt))
	}
}

func TestMayOverlap(t *testing.T) {
	fset := token.NewFileSet()
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{mustParse(t, fset, `package p
type F float64
type vec struct{ x, y float64 }
type box struct{ arr [3]float64; n int }
type hdr struct{ s []float64 }
`)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	typ := func(name string) types.Type {
		if b := types.Universe.Lookup(name); b != nil {
			return b.Type()
		}
		return pkg.Scope().Lookup(name).Type()
	}
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"float64", "float64", true},
		{"F", "float64", true}, // *F converts to *float64
		{"vec", "float64", true},
		{"box", "float64", true}, // box.arr[:] is a []float64
		{"box", "int", true},
		{"hdr", "float64", false}, // a slice header holds no float64
		{"vec", "int", false},
		{"int", "int64", false},
	} {
		if got := mayOverlap(typ(tc.a), typ(tc.b)); got != tc.want {
			t.Errorf("mayOverlap(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func mustParse(t *testing.T, fset *token.FileSet, src string) *ast.File {
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
