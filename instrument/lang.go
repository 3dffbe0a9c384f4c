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

// withLang gives a new file of p (the rewriter's own, such as the site
// table; a rewritten file got its constraint from rewrite.withLanguage), whose module's go line is
// older than rewriteLang or missing (imaging v1.6.2's go.mod has none, so
// the go command compiles it as go1.16), a //go:build go1.18 constraint,
// which raises that file's language version alone: the module's go line,
// and with it the module graph and the other files' semantics, stay as
// they are. A new constraint line goes before a //line directive naming
// orig at line 1, so every position in the file stays the original's.
func withLang(p *packages.Package, orig string, data []byte) ([]byte, error) {
	if p.Module == nil || p.Module.GoVersion != "" && version.Compare("go"+p.Module.GoVersion, rewriteLang) >= 0 {
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
