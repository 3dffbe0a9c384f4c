package rewrite

import (
	"path/filepath"
	"testing"
)

// TestGoldenHB rewrites the programs of testdata/hb with Config.HB and
// compares the output with its golden file (.hb.golden); the checked
// program must print what the plain one prints.
func TestGoldenHB(t *testing.T) {
	t.Parallel()
	dirs, _ := filepath.Glob("testdata/hb/*")
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			res := rewritten(t, dir, Config{HB: true})
			if len(res.Files) == 0 {
				t.Fatal("nothing rewritten")
			}
			work, overlay := goldenFiles(t, dir, res, ".hb.golden")
			plain := run(t, dir, work, nil)
			checked := run(t, dir, work, overlay)
			if plain != checked {
				t.Errorf("checked program printed\n%s\nplain program printed\n%s", checked, plain)
			}
		})
	}
}
