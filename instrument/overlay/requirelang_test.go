package overlay

import (
	"go/build/constraint"
	"strings"
	"testing"
)

// TestRequireLangPlusBuild: a file whose header has plus-build lines gets
// a go:build line and plus-build lines that agree (go vet refuses a file
// where they do not), with the language version added to both, whether
// the printer already made a go:build line from them or not.
func TestRequireLangPlusBuild(t *testing.T) {
	for _, src := range []string{
		"// +build !appengine\n\npackage p\n",
		"//go:build !appengine\n// +build !appengine\n\npackage p\n",
	} {
		out, err := RequireLang("a.go", []byte(src), "go1.18")
		if err != nil {
			t.Fatal(err)
		}
		var gb constraint.Expr
		var plus []string
		for _, l := range strings.Split(string(out), "\n") {
			switch {
			case constraint.IsGoBuild(l):
				gb, _ = constraint.Parse(l)
			case constraint.IsPlusBuild(l):
				plus = append(plus, l)
			}
		}
		want, _ := constraint.PlusBuildLines(gb)
		if gb == nil || gb.String() != "go1.18 && !appengine" || strings.Join(plus, "\n") != strings.Join(want, "\n") {
			t.Errorf("from %q:\n%s", src, out)
		}
	}
}
