package instrument

import (
	"bytes"
	"go/version"

	"golang.org/x/tools/go/packages"

	"github.com/goanomaly/goanomaly/instrument/overlay"
)

// rewriteLang is the language version rewritten code needs: it calls the
// runtime's generic helpers (_ga_rt.R(t, &x, site)) with their type
// arguments inferred.
const rewriteLang = "go1.18"

// withLang gives a rewritten or new file of p whose language version is
// older than rewriteLang a //go:build go1.18 constraint, which raises that
// file's version alone: the module's go line, and with it the module graph
// and the other files' semantics (loop variables change only at go1.22),
// stay as they are. Old versions come from a go.mod with an old go line or
// none (imaging v1.6.2's has none, so the go command compiles it as
// go1.16), or from the file's own //go:build line. A new constraint line
// goes before a //line directive naming orig at line 1, so every position
// in the file stays the original's.
func withLang(p *packages.Package, orig string, data []byte) ([]byte, error) {
	lang := fileLang(p, orig)
	if lang == "" || version.Compare(lang, rewriteLang) >= 0 {
		return data, nil
	}
	fresh := "//go:build " + rewriteLang + "\n\n"
	out, err := overlay.RequireLang(orig, data, rewriteLang)
	if err != nil || !bytes.Equal(out, append([]byte(fresh), data...)) {
		return out, err // an existing //go:build line took the version in place: no line moved
	}
	if !bytes.HasPrefix(data, []byte("//line ")) {
		out = append([]byte(fresh+"//line "+orig+":1\n"), data...)
	}
	return out, nil
}

// fileLang returns the language version the compiler gives file name of p
// ("" when unknown): the file's own, from its //go:build line, else the
// module's go line, else go1.16, that of a go.mod without one.
func fileLang(p *packages.Package, name string) string {
	if p.TypesInfo != nil {
		for _, f := range p.Syntax {
			if p.Fset.File(f.Pos()).Name() == name {
				if v := p.TypesInfo.FileVersions[f]; v != "" {
					return v
				}
			}
		}
	}
	switch {
	case p.Module == nil:
		return ""
	case p.Module.GoVersion != "":
		return "go" + p.Module.GoVersion
	}
	return "go1.16"
}
