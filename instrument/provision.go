package instrument

import (
	"context"
	"errors"
	"fmt"
	"go/version"
	"os"
	"path/filepath"

	"golang.org/x/mod/modfile"

	"github.com/goanomaly/goanomaly"
	"github.com/goanomaly/goanomaly/instrument/overlay"
)

// How the runtime is made importable. Checked code imports
// github.com/goanomaly/goanomaly/rt. A copy of goanomaly's module holding
// only rt (see overlay.Runtime) is written once to a stable cache
// directory, and the build sees it as a replaced requirement in a copy of
// the user's go.mod given with -modfile, or, in workspace mode (where
// -modfile is not allowed), as a module added to a copy of the user's
// go.work given as GOWORK. The copies are made before anything runs the go
// command, loading included, so that whatever the go command would write
// (-mod=mod updates of go.mod and go.sum, go.work.sum) goes to the copies:
// the user's go.mod, go.sum and go.work are only read. When goanomaly's own
// module is the main module, or in the workspace, rt is importable as is.

// setup copies the user's go.mod or go.work into the work directory and
// points the go command (and the loader) at the copy.
func (s *session) setup(ctx context.Context) error {
	s.env = s.opts.Env
	gowork, err := s.getenv(ctx, "GOWORK")
	if err != nil {
		return err
	}
	s.modCache = s.goenv["GOMODCACHE"]
	if gowork != "" && gowork != "off" {
		if s.workFile, err = s.wd.CopyWorkFile(gowork); err != nil {
			return err
		}
		s.env = append(append([]string(nil), s.env...), "GOWORK="+s.workFile)
		return nil
	}
	gomod, err := s.getenv(ctx, "GOMOD")
	if err != nil || gomod == "" || gomod == os.DevNull {
		return err // no module: nothing to copy; prepare refuses if code was rewritten
	}
	s.userMod = gomod
	if mf, ok := s.opts.Line.Effective("modfile", s.opts.Env); ok && mf != "" {
		s.userMod = abs(mf, s.opts.Dir)
	}
	if s.modFile, err = s.wd.CopyModFile(s.userMod); err != nil {
		return err
	}
	s.flags = append(s.flags, "-modfile="+s.modFile)
	s.drop = append(s.drop, "modfile")
	return nil
}

// prepare makes the runtime importable and adds the overlay when some file
// was rewritten; otherwise the build is the go command's own.
func (s *session) prepare() error {
	if !s.changed {
		return nil
	}
	var err error
	switch {
	case s.workFile != "":
		err = s.provisionWork()
	case s.modFile != "":
		err = s.provisionModule()
	default:
		err = errors.New("the packages to check are not in a module (no go.mod): goanomaly needs one to link its runtime")
	}
	if err != nil {
		return err
	}
	p, err := s.wd.WriteOverlay()
	if err != nil {
		return err
	}
	s.flags = append(s.flags, "-overlay="+p)
	s.drop = append(s.drop, "overlay")
	return nil
}

// provisionModule adds the runtime, and the copies of rewritten
// dependencies, to the go.mod copy.
func (s *session) provisionModule() error {
	if err := overlay.AddReplaces(s.modFile, s.replaces); err != nil {
		return err
	}
	data, err := os.ReadFile(s.modFile)
	if err != nil {
		return err
	}
	f, err := modfile.ParseLax(s.modFile, data, nil)
	if err != nil || f.Module == nil {
		return fmt.Errorf("%s: no module line", s.userMod)
	}
	if f.Module.Mod.Path == goanomaly.ModulePath {
		return nil
	}
	goVersion := ""
	if f.Go != nil {
		goVersion = f.Go.Version
	}
	if s.vendorMode(goVersion) {
		return errors.New("vendor mode (-mod=vendor, or a vendor directory) is not supported yet: the runtime cannot be added to vendor/modules.txt without writing to your tree; use -mod=mod or -mod=readonly")
	}
	rtDir, err := s.runtimeDir(goVersion)
	if err != nil {
		return err
	}
	return overlay.AddRuntime(s.modFile, rtDir)
}

// provisionWork adds the runtime, and the copies of rewritten
// dependencies, to the go.work copy.
func (s *session) provisionWork() error {
	data, err := os.ReadFile(s.workFile)
	if err != nil {
		return err
	}
	wf, err := modfile.ParseWork(s.workFile, data, nil)
	if err != nil {
		return err
	}
	if err := overlay.AddReplacesToWork(s.workFile, s.replaces); err != nil {
		return err
	}
	for _, u := range wf.Use {
		path, err := modulePath(filepath.Join(u.Path, "go.mod"))
		if err == nil && path == goanomaly.ModulePath {
			return nil
		}
	}
	goVersion := ""
	if wf.Go != nil {
		goVersion = wf.Go.Version
	}
	rtDir, err := s.runtimeDir(goVersion)
	if err != nil {
		return err
	}
	return overlay.AddRuntimeToWork(s.workFile, rtDir)
}

func (s *session) runtimeDir(goVersion string) (string, error) {
	root, err := overlay.CacheRoot()
	if err != nil {
		return "", err
	}
	return overlay.Runtime(goanomaly.Source(), goVersion, root)
}

// vendorMode reports whether the go command will build from vendor/:
// -mod=vendor, or no -mod and a vendor directory in a module at go 1.14 or
// later.
func (s *session) vendorMode(goVersion string) bool {
	if mod, ok := s.opts.Line.Effective("mod", s.opts.Env); ok {
		return mod == "vendor"
	}
	gomod := s.goenv["GOMOD"]
	fi, err := os.Stat(filepath.Join(filepath.Dir(gomod), "vendor"))
	return err == nil && fi.IsDir() && goVersion != "" && version.Compare("go"+goVersion, "go1.14") >= 0
}

// modulePath returns the module path declared by a go.mod file.
func modulePath(gomod string) (string, error) {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	path := modfile.ModulePath(data)
	if path == "" {
		return "", fmt.Errorf("%s: no module line", gomod)
	}
	return path, nil
}

func abs(p, dir string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}
