package overlay

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/mod/modfile"
)

// ModuleCopy returns a copy of the module in src (a directory of the module
// cache) at dir, writing it on first use: the go command refuses -overlay
// entries for files in GOMODCACHE, so a dependency whose files are rewritten
// is built from this copy instead, through a replace in the go.mod or
// go.work copy, with the rewritten files overlaid on the copy's. The module
// cache is only read.
//
// dir should be stable across runs (named after the module's path and
// version, which fix its content): a package's directory is part of its
// build cache key, so a stable copy keeps the build cache serving it. The
// copy's go.mod declares modPath, the path the build requires it under (a
// replaced module's own go.mod may declare another); a module without a
// go.mod gets one.
func ModuleCopy(src, modPath, dir string) (string, error) {
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o777); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "tmp-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := copyTree(src, tmp); err != nil {
		return "", fmt.Errorf("copying %s: %v", src, err)
	}
	if err := declarePath(filepath.Join(tmp, "go.mod"), modPath); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, "go.mod")); statErr == nil {
			return dir, nil // another goanomaly won the race
		}
		return "", fmt.Errorf("writing the copy of %s: %v", modPath, err)
	}
	return dir, nil
}

// copyTree copies the regular files under src to dst, read-only, as the
// module cache holds them.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o777)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return copyReadOnly(p, to)
	})
}

func copyReadOnly(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// declarePath makes the go.mod at file declare module path, writing one if
// there is none.
func declarePath(file, path string) error {
	data, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return os.WriteFile(file, []byte("module "+path+"\n"), 0o444)
	}
	if err != nil {
		return err
	}
	if modfile.ModulePath(data) == path {
		return nil
	}
	f, err := modfile.ParseLax(file, data, nil)
	if err != nil {
		return err
	}
	if err := f.AddModuleStmt(path); err != nil {
		return err
	}
	out, err := f.Format()
	if err != nil {
		return err
	}
	if err := os.Chmod(file, 0o644); err != nil {
		return err
	}
	return os.WriteFile(file, out, 0o444)
}

// Replace is a module the build takes from a directory instead.
type Replace struct {
	Path string // module path
	Dir  string // absolute directory
}

// AddReplaces edits the go.mod copy at modFile to take each module of reps
// from its directory, in place of any replacement of that module the user's
// go.mod gives.
func AddReplaces(modFile string, reps []Replace) error {
	if len(reps) == 0 {
		return nil
	}
	data, err := os.ReadFile(modFile)
	if err != nil {
		return err
	}
	f, err := modfile.Parse(modFile, data, nil)
	if err != nil {
		return err
	}
	if err := setReplaces(f, func() []*modfile.Replace { return f.Replace }, reps); err != nil {
		return err
	}
	f.Cleanup()
	out, err := f.Format()
	if err != nil {
		return err
	}
	return os.WriteFile(modFile, out, 0o666)
}

// AddReplacesToWork is AddReplaces for the go.work copy at workFile, whose
// replacements override those of the workspace modules' go.mod files.
func AddReplacesToWork(workFile string, reps []Replace) error {
	if len(reps) == 0 {
		return nil
	}
	data, err := os.ReadFile(workFile)
	if err != nil {
		return err
	}
	f, err := modfile.ParseWork(workFile, data, nil)
	if err != nil {
		return err
	}
	if err := setReplaces(f, func() []*modfile.Replace { return f.Replace }, reps); err != nil {
		return err
	}
	f.Cleanup()
	return os.WriteFile(workFile, modfile.Format(f.Syntax), 0o666)
}

// replacer is what a go.mod and a go.work file share for editing their
// replace directives.
type replacer interface {
	DropReplace(oldPath, oldVers string) error
	AddReplace(oldPath, oldVers, newPath, newVers string) error
}

// setReplaces makes f take each module of reps from its directory, dropping
// any replacement of that module f had (current lists f's replaces now).
func setReplaces(f replacer, current func() []*modfile.Replace, reps []Replace) error {
	for _, r := range reps {
		var drop []modfile.Replace // DropReplace clears the entry
		for _, old := range current() {
			if old.Old.Path == r.Path {
				drop = append(drop, *old)
			}
		}
		for _, old := range drop {
			if err := f.DropReplace(old.Old.Path, old.Old.Version); err != nil {
				return err
			}
		}
		if err := f.AddReplace(r.Path, "", r.Dir, ""); err != nil {
			return err
		}
	}
	return nil
}
