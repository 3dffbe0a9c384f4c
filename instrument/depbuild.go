package instrument

import (
	"fmt"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/goanomaly/goanomaly/instrument/overlay"
)

// buildName returns where the go command is to see the rewritten file name
// of p, and its content there: name itself, except in a module of the
// module cache, whose copy (see depCopy) takes the file, with a //line
// directive so that positions still name the file in the module cache.
func (s *session) buildName(p *packages.Package, name string, data []byte, rewritten bool) (string, []byte, error) {
	m := p.Module
	if m == nil || m.Main || s.modCache == "" || !within(m.Dir, s.modCache) {
		return name, data, nil
	}
	dir, err := s.depCopy(m)
	if err != nil {
		return "", nil, err
	}
	rel, err := filepath.Rel(m.Dir, name)
	if err != nil || !within(name, m.Dir) {
		panic(fmt.Sprintf("internal error: %s of %s is not in its module's directory %s", name, p.PkgPath, m.Dir))
	}
	if rewritten {
		data = append([]byte("//line "+name+":1\n"), data...)
	}
	return filepath.Join(dir, rel), data, nil
}

// depCopy returns the copy of module m (in the module cache) the build
// takes it from, making it on first use and recording the replace.
func (s *session) depCopy(m *packages.Module) (string, error) {
	if dir, ok := s.copies[m.Dir]; ok {
		return dir, nil
	}
	root, err := overlay.CacheRoot()
	if err != nil {
		return "", err
	}
	key, err := filepath.Rel(s.modCache, m.Dir)
	if err != nil {
		return "", err
	}
	if m.Replace != nil && m.Replace.Path != m.Path {
		key += "-as-" + strings.ReplaceAll(m.Path, "/", "!") // another module's go.mod names it
	}
	dir, err := overlay.ModuleCopy(m.Dir, m.Path, filepath.Join(root, "deps", key))
	if err != nil {
		return "", err
	}
	s.debugf("dependency module %s: built from %s", m.Path, dir)
	if s.copies == nil {
		s.copies = map[string]string{}
	}
	s.copies[m.Dir] = dir
	s.replaces = append(s.replaces, overlay.Replace{Path: m.Path, Dir: dir})
	return dir, nil
}
