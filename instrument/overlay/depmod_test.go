package overlay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestModuleCopy(t *testing.T) {
	src := t.TempDir()
	if err := os.MkdirAll(filepath.Join(src, "sub", "testdata"), 0o777); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(src, "go.mod"), "module example.com/dep\n\ngo 1.22\n")
	write(t, filepath.Join(src, "sub", "x.go"), "package sub\n")
	write(t, filepath.Join(src, "sub", "testdata", "in.txt"), "data\n")
	root := t.TempDir()
	dir, err := ModuleCopy(src, "example.com/dep", filepath.Join(root, "example.com", "dep@v1.0.0"))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"go.mod": "module example.com/dep\n\ngo 1.22\n", "sub/x.go": "package sub\n", "sub/testdata/in.txt": "data\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if got := read(t, p); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm()&0o222 != 0 {
			t.Errorf("%s: %v, %v: want read-only", name, fi.Mode(), err)
		}
	}
	// Made once: a second call finds it (the source may be gone by then).
	if again, err := ModuleCopy(filepath.Join(src, "gone"), "example.com/dep", dir); err != nil || again != dir {
		t.Errorf("second ModuleCopy = %s, %v", again, err)
	}

	// A module required under another path (replace a => b v1) declares
	// the path it is required as; one without go.mod gets one.
	other, err := ModuleCopy(src, "example.com/alias", filepath.Join(root, "alias"))
	if err != nil || !strings.HasPrefix(read(t, filepath.Join(other, "go.mod")), "module example.com/alias\n") {
		t.Errorf("renamed copy: %v, go.mod %q", err, read(t, filepath.Join(other, "go.mod")))
	}
	bare := t.TempDir()
	write(t, filepath.Join(bare, "x.go"), "package x\n")
	b, err := ModuleCopy(bare, "example.com/bare", filepath.Join(root, "bare"))
	if err != nil || read(t, filepath.Join(b, "go.mod")) != "module example.com/bare\n" {
		t.Errorf("copy without go.mod: %v", err)
	}
}

func TestAddReplaces(t *testing.T) {
	dir := t.TempDir()
	mod := filepath.Join(dir, "go.mod")
	write(t, mod, "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v1.0.0\n\nreplace example.com/dep v1.0.0 => example.com/dep v1.0.1\n\nreplace example.com/keep => ../keep\n")
	if err := AddReplaces(mod, []Replace{{Path: "example.com/dep", Dir: "/cache/dep@v1.0.1"}}); err != nil {
		t.Fatal(err)
	}
	got := read(t, mod)
	if strings.Contains(got, "v1.0.0 => example.com/dep v1.0.1") || !strings.Contains(got, "replace example.com/dep => /cache/dep@v1.0.1") ||
		!strings.Contains(got, "example.com/keep => ../keep") {
		t.Errorf("go.mod copy:\n%s", got)
	}
	work := filepath.Join(dir, "go.work")
	write(t, work, "go 1.22\n\nuse ./m\n\nreplace example.com/dep => ../elsewhere\n")
	if err := AddReplacesToWork(work, []Replace{{Path: "example.com/dep", Dir: "/cache/dep@v1.0.0"}}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, work); strings.Contains(got, "elsewhere") || !strings.Contains(got, "replace example.com/dep => /cache/dep@v1.0.0") {
		t.Errorf("go.work copy:\n%s", got)
	}
}
