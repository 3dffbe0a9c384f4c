package overlay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func TestRequireLang(t *testing.T) {
	tests := []struct{ src, want string }{
		{"package rt\n", "//go:build go1.26\n\npackage rt\n"},
		{"// Doc.\n\n//go:build linux || darwin\n\npackage rt\n", "// Doc.\n\n//go:build go1.26 && (linux || darwin)\n\npackage rt\n"},
		{"//go:build !wasm\n\npackage rt\n", "//go:build go1.26 && !wasm\n\npackage rt\n"},
	}
	for _, tt := range tests {
		got, err := requireLang("x.go", []byte(tt.src), "go1.26")
		if err != nil || string(got) != tt.want {
			t.Errorf("requireLang(%q) = %q, %v, want %q", tt.src, got, err, tt.want)
		}
	}
}

func testSource() fstest.MapFS {
	return fstest.MapFS{
		"go.mod":              {Data: []byte("module github.com/goanomaly/goanomaly\n\ngo 1.26.0\n")},
		"rt/api.go":           {Data: []byte("package rt\n")},
		"rt/api_test.go":      {Data: []byte("package rt\n")},
		"rt/testdata/x.go":    {Data: []byte("package x\n")},
		"rt/internal/s/s.go":  {Data: []byte("package s\n")},
		"rt/internal/s/s.txt": {Data: []byte("notes\n")},
	}
}

func TestRuntime(t *testing.T) {
	root := t.TempDir()
	dir, err := Runtime(testSource(), "1.22", root)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if got := strings.Join(files, " "); got != "go.mod rt/api.go rt/internal/s/s.go" {
		t.Errorf("runtime copy has %s", got)
	}
	gomod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if string(gomod) != "module github.com/goanomaly/goanomaly\n\ngo 1.22\n" {
		t.Errorf("go.mod = %q", gomod)
	}
	again, err := Runtime(testSource(), "1.22", root)
	if err != nil || again != dir {
		t.Errorf("second Runtime = %s, %v, want the same directory %s", again, err, dir)
	}
	other, _ := Runtime(testSource(), "1.21", root)
	if other == dir {
		t.Error("a different go version gave the same directory")
	}
}

func TestModFile(t *testing.T) {
	user := t.TempDir()
	mod := "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v1.0.0\n\nreplace github.com/goanomaly/goanomaly v1.2.3 => ../old\n"
	write(t, filepath.Join(user, "go.mod"), mod)
	write(t, filepath.Join(user, "go.sum"), "example.com/dep v1.0.0 h1:x\n")
	w, err := NewWorkDir(false, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	p, err := w.CopyModFile(filepath.Join(user, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if read(t, p) != mod {
		t.Errorf("go.mod copy differs before the runtime is added")
	}
	if err := AddRuntime(p, "/cache/rt-1"); err != nil {
		t.Fatal(err)
	}
	got := read(t, p)
	for _, want := range []string{"github.com/goanomaly/goanomaly v0.0.0", "replace github.com/goanomaly/goanomaly => /cache/rt-1", "example.com/dep v1.0.0", "go 1.22"} {
		if !strings.Contains(got, want) {
			t.Errorf("go.mod copy lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "../old") {
		t.Errorf("go.mod copy keeps the user's replace of goanomaly:\n%s", got)
	}
	if read(t, filepath.Join(w.Dir, "go.sum")) != "example.com/dep v1.0.0 h1:x\n" {
		t.Error("go.sum not copied beside the go.mod copy")
	}
	if read(t, filepath.Join(user, "go.mod")) != mod {
		t.Error("the user's go.mod changed")
	}
}

func TestWorkFile(t *testing.T) {
	user := t.TempDir()
	write(t, filepath.Join(user, "go.work"), "go 1.22\n\nuse (\n\t./a\n\t./b\n)\n\nreplace example.com/x => ./x\n")
	w, err := NewWorkDir(false, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	p, err := w.CopyWorkFile(filepath.Join(user, "go.work"))
	if err != nil {
		t.Fatal(err)
	}
	if err := AddRuntimeToWork(p, "/cache/rt-1"); err != nil {
		t.Fatal(err)
	}
	got := read(t, p)
	for _, want := range []string{filepath.Join(user, "a"), filepath.Join(user, "b"), "/cache/rt-1", "example.com/x => " + filepath.Join(user, "x")} {
		if !strings.Contains(got, want) {
			t.Errorf("go.work copy lacks %q:\n%s", want, got)
		}
	}
}

func TestOverlay(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "alt.go"), "package alt\n")
	write(t, filepath.Join(dir, "o.json"), `{"Replace": {"a.go": "alt.go", "gone.go": ""}}`)
	o, err := Read("o.json", dir)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWorkDir(false, o)
	if err != nil {
		t.Fatal(err)
	}
	if !w.Deleted(filepath.Join(dir, "gone.go")) {
		t.Error("the user's deletion is lost")
	}
	if err := w.Replace(filepath.Join(dir, "b.go"), []byte("package b\n")); err != nil {
		t.Fatal(err)
	}
	p, err := w.WriteOverlay()
	if err != nil {
		t.Fatal(err)
	}
	merged, err := Read(p, "/")
	if err != nil {
		t.Fatal(err)
	}
	if merged.Replace[filepath.Join(dir, "a.go")] != filepath.Join(dir, "alt.go") || len(merged.Replace) != 3 {
		t.Errorf("merged overlay = %v", merged.Replace)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(w.Dir); !os.IsNotExist(err) {
		t.Error("Close left the work directory")
	}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o666); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestCacheRootEnv: GOANOMALYCACHE, when set, is the cache root; a relative
// one is refused, as the go command refuses a relative GOCACHE.
func TestCacheRootEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GOANOMALYCACHE", dir)
	if got, err := CacheRoot(); got != dir || err != nil {
		t.Errorf("CacheRoot() = %q, %v, want %q", got, err, dir)
	}
	t.Setenv("GOANOMALYCACHE", "rel")
	if _, err := CacheRoot(); err == nil || !strings.Contains(err.Error(), "GOANOMALYCACHE=rel: not an absolute path") {
		t.Errorf("CacheRoot() with a relative GOANOMALYCACHE: %v", err)
	}
}
