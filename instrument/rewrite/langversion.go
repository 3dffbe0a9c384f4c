package rewrite

import (
	"bytes"
	"go/build/constraint"
	"go/version"

	"golang.org/x/tools/go/packages"
)

// minLanguage is the language version rewritten code needs: the checks
// call rt's generic helpers (go1.18), and guards may use min and max
// (go1.21). It stops short of go1.22, which would change what a loop
// variable is.
const minLanguage = "go1.21"

// fileLanguage returns the language version the compiler gives a file of
// pkg ("" when unknown): its own //go:build version, else its module's go
// line, else go1.16, the version of a module whose go.mod has none.
func fileLanguage(pkg *packages.Package, fileVersion string) string {
	switch {
	case fileVersion != "":
		return fileVersion
	case pkg.Module == nil:
		return ""
	case pkg.Module.GoVersion != "":
		return "go" + pkg.Module.GoVersion
	}
	return "go1.16"
}

// withLanguage raises the language version of a rewritten file written for
// an older one (a module whose go.mod says go 1.16, say, as many
// dependencies do) to minLanguage, with a build constraint: since go1.21 a
// file's //go:build line sets its version. An existing //go:build line is
// extended in place; otherwise the constraint and a blank line go first,
// followed by a //line directive that gives the user's first line its
// number back. Files at minLanguage or later, or of unknown version, are
// returned as they are.
func withLanguage(src []byte, name, lang string) []byte {
	if lang == "" || version.Compare(lang, minLanguage) >= 0 {
		return src
	}
	need := &constraint.TagExpr{Tag: minLanguage}
	lines := bytes.SplitAfter(src, []byte("\n"))
	for i, line := range lines {
		text := bytes.TrimSpace(line)
		if len(text) > 0 && !bytes.HasPrefix(text, []byte("//")) {
			break // the header ends at the first line that is not a comment
		}
		if !constraint.IsGoBuild(string(text)) {
			continue
		}
		expr, err := constraint.Parse(string(text))
		if err != nil {
			return src // the go command will report it
		}
		lines[i] = []byte("//go:build " + (&constraint.AndExpr{X: expr, Y: need}).String() + "\n")
		return bytes.Join(lines, nil)
	}
	header := "//go:build " + minLanguage + "\n\n//line " + name + ":1\n"
	return append([]byte(header), src...)
}
