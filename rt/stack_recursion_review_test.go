package rt

import (
	"io/fs"
	"testing"
	"testing/fstest"
)

// TestCallerStackKeepsRecursion: a recursive function's frames are all
// printed, as -race prints them (a goroutine created in a recursion at
// depth 30 printed one frame of it in its "created at" stack). Only a
// function next to its checked clone (main and _ga_main) is one frame.
// fs.WalkDir recurses once per directory level, outside rt's directory,
// whose frames a stack drops.
func TestCallerStackKeepsRecursion(t *testing.T) {
	fsys := fstest.MapFS{"a/b/c/d/e/f": {Data: []byte("x")}}
	var st []frame
	err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if path == "a/b/c/d/e/f" {
			st = callerStack(0)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range st {
		if f.Func == "io/fs.walkDir" {
			n++
		}
	}
	// ".", a, a/b, a/b/c, a/b/c/d, a/b/c/d/e, a/b/c/d/e/f: walkDir calls
	// itself for each entry under the root, and calls fn for the entry.
	if n != 7 {
		t.Errorf("%d frames of io/fs.walkDir, want 7: %v", n, st)
	}
}
