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

// prepare sets the go command's flags and environment for the build: as
// given when nothing was rewritten; else the overlay, and the runtime made
// importable.
//
// The runtime is provisioned as a module: a copy of goanomaly's module
// holding only rt (see overlay.Runtime) is written once to a stable cache
// directory, and the build sees it through a copy of the user's go.mod
// given with -modfile (a requirement and a replace by that directory) or,
// in workspace mode, where -modfile is not allowed, through a copy of the
// user's go.work given as GOWORK (the directory added with use). The user's
// go.mod, go.sum and go.work are only read.
func (s *session) prepare(ctx context.Context) error {
	s.env = s.opts.Env
	if !s.changed {
		return nil
	}
	if err := s.provision(ctx); err != nil {
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

// provision makes the runtime importable, unless goanomaly's own module is
// the main module or in the workspace.
func (s *session) provision(ctx context.Context) error {
	gowork, err := s.getenv(ctx, "GOWORK")
	if err != nil {
		return err
	}
	if gowork != "" && gowork != "off" {
		return s.provisionWork(gowork)
	}
	gomod, err := s.getenv(ctx, "GOMOD")
	if err != nil {
		return err
	}
	if gomod == "" || gomod == os.DevNull {
		return errors.New("the packages to check are not in a module (no go.mod): goanomaly needs one to link its runtime")
	}
	modFile := gomod
	if mf, ok := s.opts.Line.Effective("modfile", s.opts.Env); ok && mf != "" {
		modFile = abs(mf, s.opts.Dir)
	}
	if path, err := modulePath(modFile); err != nil || path == goanomaly.ModulePath {
		return err
	}
	goVersion, err := overlay.GoVersion(modFile)
	if err != nil {
		return err
	}
	if s.vendorMode(gomod, goVersion) {
		return errors.New("vendor mode (-mod=vendor, or a vendor directory) is not supported yet: the runtime cannot be added to vendor/modules.txt without writing to your tree; use -mod=mod or -mod=readonly")
	}
	rtDir, err := s.runtimeDir(goVersion)
	if err != nil {
		return err
	}
	p, err := s.wd.ModFile(modFile, rtDir)
	if err != nil {
		return err
	}
	s.flags = append(s.flags, "-modfile="+p)
	s.drop = append(s.drop, "modfile")
	return nil
}

// provisionWork adds the runtime to a copy of the workspace.
func (s *session) provisionWork(gowork string) error {
	data, err := os.ReadFile(gowork)
	if err != nil {
		return err
	}
	wf, err := modfile.ParseWork(gowork, data, nil)
	if err != nil {
		return err
	}
	for _, u := range wf.Use {
		path, err := modulePath(filepath.Join(abs(filepath.FromSlash(u.Path), filepath.Dir(gowork)), "go.mod"))
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
	p, err := s.wd.WorkFile(gowork, rtDir)
	if err != nil {
		return err
	}
	s.env = append(append([]string(nil), s.env...), "GOWORK="+p)
	return nil
}

func (s *session) runtimeDir(goVersion string) (string, error) {
	root, err := overlay.CacheRoot()
	if err != nil {
		return "", err
	}
	return overlay.Runtime(goanomaly.Source(), goVersion, root)
}

// vendorMode reports whether the go command will build from vendor/: -mod=vendor,
// or no -mod and a vendor directory in a module at go 1.14 or later.
func (s *session) vendorMode(gomod, goVersion string) bool {
	if mod, ok := s.opts.Line.Effective("mod", s.opts.Env); ok {
		return mod == "vendor"
	}
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
