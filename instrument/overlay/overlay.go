// Package overlay writes what a checked build needs beside the user's tree,
// never into it: the rewritten files and the go command's -overlay file that
// maps the originals to them, a copy of the runtime module in a stable cache
// directory, and the go.mod or go.work copy that makes the runtime importable.
package overlay

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Overlay is the go command's -overlay file: original path → replacement
// path ("" deletes the file).
type Overlay struct {
	Replace map[string]string
}

// Read reads an -overlay file; relative paths in it are made absolute
// against dir, the go command's working directory, as the go command does.
func Read(file, dir string) (*Overlay, error) {
	data, err := os.ReadFile(abs(file, dir))
	if err != nil {
		return nil, err
	}
	var o Overlay
	if err := json.Unmarshal(data, &o); err != nil {
		return nil, fmt.Errorf("parsing overlay %s: %v", file, err)
	}
	r := make(map[string]string, len(o.Replace))
	for from, to := range o.Replace {
		if to != "" {
			to = abs(to, dir)
		}
		r[abs(from, dir)] = to
	}
	return &Overlay{Replace: r}, nil
}

// Contents returns the content of each replaced (not deleted) file, keyed by
// original path, as golang.org/x/tools/go/packages takes an overlay.
func (o *Overlay) Contents() (map[string][]byte, error) {
	m := map[string][]byte{}
	for from, to := range o.Replace {
		if to == "" {
			continue
		}
		data, err := os.ReadFile(to)
		if err != nil {
			return nil, err
		}
		m[from] = data
	}
	return m, nil
}

// write writes o as JSON to file.
func (o *Overlay) write(file string) error {
	data, err := json.MarshalIndent(o, "", "\t")
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(data, '\n'), 0o666)
}

func abs(p, dir string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}
