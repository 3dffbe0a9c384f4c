package overlay

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/build/constraint"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/goanomaly/goanomaly"
)

// CacheRoot returns the directory under which runtime copies are kept:
// $GOANOMALYCACHE, else goanomaly in the user's cache directory (never in
// the user's tree). GOANOMALYCACHE is for environments without a usable
// home, such as testscript's (HOME=/no-home), which share one copy this way
// as they share GOCACHE.
func CacheRoot() (string, error) {
	if dir := os.Getenv("GOANOMALYCACHE"); dir != "" {
		if !filepath.IsAbs(dir) {
			return "", fmt.Errorf("GOANOMALYCACHE=%s: not an absolute path", dir)
		}
		return dir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the runtime copy: %v", err)
	}
	return filepath.Join(dir, "goanomaly"), nil
}

// Runtime writes a copy of the runtime module under root, once per content,
// and returns its directory: a go.mod declaring goanomaly's module path at
// language version goVersion (the user's, so that the main module never
// needs a newer go line), and rt's non-test files from src (the embedded
// module, see goanomaly.Source). Each .go file gets a //go:build line for the
// language version rt is written in, so it compiles as written whatever the
// module's go line says.
//
// The directory name is a hash of the content, so it is stable across runs
// and the build cache keeps serving rt: a replaced module's directory is
// part of its packages' cache keys.
func Runtime(src fs.FS, goVersion, root string) (string, error) {
	files, err := runtimeFiles(src, goVersion)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, "rt-"+hashFiles(files))
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		return dir, nil
	}
	return dir, writeOnce(dir, files)
}

// runtimeFiles returns the module's files: path (slash-separated, relative
// to the module root) → content.
func runtimeFiles(src fs.FS, goVersion string) (map[string][]byte, error) {
	gomod, err := fs.ReadFile(src, "go.mod")
	if err != nil {
		return nil, err
	}
	mf, err := modfile.ParseLax("go.mod", gomod, nil)
	if err != nil || mf.Go == nil {
		return nil, fmt.Errorf("internal error: embedded go.mod has no go line: %v", err)
	}
	lang := "go" + langVersion(mf.Go.Version)
	files := map[string][]byte{"go.mod": modFileText(goVersion)}
	err = fs.WalkDir(src, "rt", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return fs.SkipDir
			}
			return nil
		}
		if !isRuntimeSource(p) {
			return nil
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		if strings.HasSuffix(p, ".go") {
			if data, err = requireLang(p, data, lang); err != nil {
				return err
			}
		}
		files[p] = data
		return nil
	})
	return files, err
}

func modFileText(goVersion string) []byte {
	s := "module " + goanomaly.ModulePath + "\n"
	if goVersion != "" {
		s += "\ngo " + goVersion + "\n"
	}
	return []byte(s)
}

// isRuntimeSource reports whether a file of rt is part of the package build.
func isRuntimeSource(p string) bool {
	switch path.Ext(p) {
	case ".go":
		return !strings.HasSuffix(p, "_test.go")
	case ".s", ".h", ".c":
		return true
	}
	return false
}

// langVersion trims a go line's version to a language version: 1.26.0 → 1.26.
func langVersion(v string) string {
	if parts := strings.Split(v, "."); len(parts) > 2 {
		return parts[0] + "." + parts[1]
	}
	return v
}

// RequireLang is requireLang, for rewritten files of modules whose go line
// is older than the language version rewritten code needs.
func RequireLang(name string, src []byte, lang string) ([]byte, error) {
	return requireLang(name, src, lang)
}

// requireLang adds lang (go1.N) to the file's //go:build constraint, or
// gives it one. A file's go1.N constraint sets its language version.
func requireLang(name string, src []byte, lang string) ([]byte, error) {
	lines := strings.SplitAfter(string(src), "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "package ") {
			break
		}
		if !constraint.IsGoBuild(t) {
			continue
		}
		x, err := constraint.Parse(t)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		and := &constraint.AndExpr{X: &constraint.TagExpr{Tag: lang}, Y: x}
		lines[i] = "//go:build " + and.String() + "\n"
		matchPlusBuild(lines, and) // go/printer keeps // +build lines beside the //go:build it made from them
		return []byte(strings.Join(lines, "")), nil
	}
	if out, ok := requireLangPlus(name, lines, lang); ok {
		return out, nil
	}
	return append([]byte("//go:build "+lang+"\n\n"), src...), nil
}

// requireLangPlus handles a file whose constraint is only plus-build lines
// (a module older than go1.17): a //go:build line of lang alone would not
// match them, which go vet (run by go test) refuses. The +build lines are
// emptied in place, and the file starts with the //go:build line of lang
// and their condition, its +build lines, and a //line directive that
// keeps every position the original's.
func requireLangPlus(name string, lines []string, lang string) ([]byte, bool) {
	var expr constraint.Expr
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "package ") {
			break
		}
		if !constraint.IsPlusBuild(t) {
			continue
		}
		x, err := constraint.Parse(t)
		if err != nil {
			return nil, false
		}
		if expr == nil {
			expr = x
		} else {
			expr = &constraint.AndExpr{X: expr, Y: x}
		}
		lines[i] = "\n"
	}
	if expr == nil {
		return nil, false
	}
	and := &constraint.AndExpr{X: &constraint.TagExpr{Tag: lang}, Y: expr}
	plus, err := constraint.PlusBuildLines(and)
	if err != nil {
		return nil, false
	}
	head := "//go:build " + and.String() + "\n" + strings.Join(plus, "\n") + "\n\n//line " + name + ":1\n"
	return []byte(head + strings.Join(lines, "")), true
}

func hashFiles(files map[string][]byte) string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s %d\n", n, len(files[n]))
		h.Write(files[n])
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// writeOnce writes files into dir through a temporary directory renamed into
// place, so a concurrent goanomaly never sees a half-written copy.
func writeOnce(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o777); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for name, data := range files {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o444); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, "go.mod")); statErr == nil {
			return nil // another goanomaly won the race
		}
		return fmt.Errorf("writing the runtime copy: %v", err)
	}
	return nil
}

// matchPlusBuild makes the plus-build lines of a file's header, if it has
// any, say what expr says: go vet (run by go test) refuses a file whose
// plus-build lines do not match its go:build line. The first one takes
// the new lines, the others are emptied.
func matchPlusBuild(lines []string, expr constraint.Expr) {
	plus, err := constraint.PlusBuildLines(expr)
	if err != nil {
		return
	}
	first := true
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "package ") {
			return
		}
		if !constraint.IsPlusBuild(t) {
			continue
		}
		if first {
			lines[i] = strings.Join(plus, "\n") + "\n"
			first = false
		} else {
			lines[i] = "\n"
		}
	}
}
