package rewrite

import (
	"path/filepath"
	"slices"
	"strings"
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

// TestHBReports runs the -hb builds of testdata/hb: the racy program
// reports exactly its planted pair (lines marked "want race"), in every
// run, and the synchronized one reports nothing. The engine is rt's
// happens-before layer; this is the rewrite's side of it, end to end.
func TestHBReports(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		dir  string
		want []string
	}{
		{"testdata/hb/hbracy", []string{"main.go:37:3 ~ main.go:40:2"}},
		{"testdata/hb/hbclean", nil},
		{"testdata/hb/hbembedded", nil},
		{"testdata/hb/hbcallbacks", nil},
		{"testdata/hb/hbcallbacksracy", []string{"main.go:16:3 ~ main.go:20:3"}},
		{"testdata/hb/hbreflect", nil},
		{"testdata/hb/hbiobuf", nil},
		{"testdata/hb/hbreturn", nil},
		{"testdata/hb/hbreturnracy", []string{"main.go:11:4 ~ main.go:14:3"}},
		{"testdata/hb/hbiobufracy", []string{"main.go:18:19 ~ main.go:21:20", "main.go:27:3 ~ main.go:30:10"}},
		{"testdata/hb/hbreflectracy", []string{"main.go:16:3 ~ main.go:19:7", "main.go:25:3 ~ main.go:28:2"}},
		{"testdata/hb/hbvalues", nil},
		{"testdata/hb/hbvaluesracy", []string{"main.go:20:3 ~ main.go:25:7"}},
		{"testdata/hb/hbmethods", nil},
		{"testdata/hb/hbmethodsracy", []string{"main.go:25:3 ~ main.go:30:7"}},
	} {
		t.Run(filepath.Base(tt.dir), func(t *testing.T) {
			t.Parallel()
			got := buildReports(t, tt.dir, Config{HB: true}, runEnv{})
			for i := range got {
				got[i] = trimDirs(got[i])
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("reported %q, want %q", got, tt.want)
			}
		})
	}
}

// trimDirs keeps the base names of the positions in a pair.
func trimDirs(pair string) string {
	parts := strings.Split(pair, " ~ ")
	for i, p := range parts {
		parts[i] = filepath.Base(p)
	}
	return strings.Join(parts, " ~ ")
}
