package overlay

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/goanomaly/goanomaly"
)

// GoVersion returns the go line of a go.mod or go.work file ("" if none).
func GoVersion(file string) (string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	if strings.HasSuffix(file, ".work") {
		wf, err := modfile.ParseWork(file, data, nil)
		if err != nil || wf.Go == nil {
			return "", err
		}
		return wf.Go.Version, nil
	}
	mf, err := modfile.ParseLax(file, data, nil)
	if err != nil || mf.Go == nil {
		return "", err
	}
	return mf.Go.Version, nil
}

// CopyModFile copies the user's go.mod (userMod, which may itself be a
// -modfile) into the work directory, with the go.sum beside it (-modfile
// reads the .sum next to the .mod), and returns the copy's path. The go
// command is then given -modfile=copy, so that whatever it would update
// (-mod=mod) is updated in the copy: the user's files are only read.
func (w *WorkDir) CopyModFile(userMod string) (string, error) {
	p := filepath.Join(w.Dir, "go.mod")
	if err := copyFile(userMod, p); err != nil {
		return "", err
	}
	return p, copyIfExists(strings.TrimSuffix(userMod, ".mod")+".sum", filepath.Join(w.Dir, "go.sum"))
}

// AddRuntime edits the go.mod copy at modFile to require the goanomaly module
// and replace it by the runtime copy in rtDir (whatever version the user's
// go.mod may require).
func AddRuntime(modFile, rtDir string) error {
	data, err := os.ReadFile(modFile)
	if err != nil {
		return err
	}
	f, err := modfile.Parse(modFile, data, nil)
	if err != nil {
		return err
	}
	for _, r := range f.Replace {
		if r.Old.Path == goanomaly.ModulePath {
			if err := f.DropReplace(r.Old.Path, r.Old.Version); err != nil {
				return err
			}
		}
	}
	if err := f.AddReplace(goanomaly.ModulePath, "", rtDir, ""); err != nil {
		return err
	}
	if !requires(f, goanomaly.ModulePath) {
		f.AddNewRequire(goanomaly.ModulePath, "v0.0.0", false)
	}
	f.Cleanup()
	out, err := f.Format()
	if err != nil {
		return err
	}
	return os.WriteFile(modFile, out, 0o666)
}

func requires(f *modfile.File, path string) bool {
	for _, r := range f.Require {
		if r.Mod.Path == path {
			return true
		}
	}
	return false
}

// CopyWorkFile copies the user's go.work (userWork) into the work directory
// with its directory paths made absolute, and go.work.sum beside it, and
// returns the copy's path, for GOWORK (-modfile cannot be used in workspace
// mode).
func (w *WorkDir) CopyWorkFile(userWork string) (string, error) {
	data, err := os.ReadFile(userWork)
	if err != nil {
		return "", err
	}
	f, err := modfile.ParseWork(userWork, data, nil)
	if err != nil {
		return "", err
	}
	base := filepath.Dir(userWork)
	uses := []modfile.Use{}
	for _, u := range f.Use {
		uses = append(uses, *u) // DropUse clears the entry
	}
	for _, u := range uses {
		if err := f.DropUse(u.Path); err != nil {
			return "", err
		}
		if err := f.AddUse(abs(filepath.FromSlash(u.Path), base), u.ModulePath); err != nil {
			return "", err
		}
	}
	replaces := []modfile.Replace{}
	for _, r := range f.Replace {
		replaces = append(replaces, *r)
	}
	for _, r := range replaces {
		if !modfile.IsDirectoryPath(r.New.Path) || filepath.IsAbs(r.New.Path) {
			continue
		}
		if err := f.AddReplace(r.Old.Path, r.Old.Version, abs(filepath.FromSlash(r.New.Path), base), ""); err != nil {
			return "", err
		}
	}
	f.Cleanup()
	p := filepath.Join(w.Dir, "go.work")
	if err := os.WriteFile(p, modfile.Format(f.Syntax), 0o666); err != nil {
		return "", err
	}
	return p, copyIfExists(userWork+".sum", p+".sum")
}

// AddRuntimeToWork adds the runtime copy in rtDir to the go.work copy at
// workFile as a module of the workspace.
func AddRuntimeToWork(workFile, rtDir string) error {
	data, err := os.ReadFile(workFile)
	if err != nil {
		return err
	}
	f, err := modfile.ParseWork(workFile, data, nil)
	if err != nil {
		return err
	}
	if err := f.AddUse(rtDir, goanomaly.ModulePath); err != nil {
		return err
	}
	f.Cleanup()
	return os.WriteFile(workFile, modfile.Format(f.Syntax), 0o666)
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o666)
}

func copyIfExists(from, to string) error {
	err := copyFile(from, to)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}
