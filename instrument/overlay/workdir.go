package overlay

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
)

// WorkDir is the temporary directory of one goanomaly command: rewritten
// files, the overlay file, go.mod or go.work copies and built binaries.
type WorkDir struct {
	Dir     string
	keep    bool
	overlay Overlay
}

// NewWorkDir creates a work directory; Close removes it unless keep is set.
// Its overlay starts as a copy of base (the user's -overlay), which may be nil.
func NewWorkDir(keep bool, base *Overlay) (*WorkDir, error) {
	dir, err := os.MkdirTemp("", "goanomaly-")
	if err != nil {
		return nil, err
	}
	w := &WorkDir{Dir: dir, keep: keep, overlay: Overlay{Replace: map[string]string{}}}
	if base != nil {
		for from, to := range base.Replace {
			w.overlay.Replace[from] = to
		}
	}
	return w, nil
}

// Close removes the work directory unless it is to be kept.
func (w *WorkDir) Close() error {
	if w.keep {
		return nil
	}
	return os.RemoveAll(w.Dir)
}

// Replace makes the build see content at path orig (an existing file
// replaced, or a new one), writing it into the work directory. The copy's
// name is derived from orig, so a rebuild writes the same names.
func (w *WorkDir) Replace(orig string, content []byte) error {
	sum := sha256.Sum256([]byte(orig))
	dir := filepath.Join(w.Dir, "src", hex.EncodeToString(sum[:8]))
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	p := filepath.Join(dir, filepath.Base(orig))
	if err := os.WriteFile(p, content, 0o666); err != nil {
		return err
	}
	w.overlay.Replace[orig] = p
	return nil
}

// Deleted reports whether the user's overlay deletes path.
func (w *WorkDir) Deleted(path string) bool {
	to, ok := w.overlay.Replace[path]
	return ok && to == ""
}

// WriteOverlay writes the overlay file (the user's entries and ours) and
// returns its path.
func (w *WorkDir) WriteOverlay() (string, error) {
	p := filepath.Join(w.Dir, "overlay.json")
	return p, w.overlay.write(p)
}

// Contents returns the content the build sees at each replaced path (the
// user's overlay and ours), as golang.org/x/tools/go/packages takes an
// overlay: a second load sees the rewritten files as the go command will.
func (w *WorkDir) Contents() (map[string][]byte, error) {
	return w.overlay.Contents()
}
