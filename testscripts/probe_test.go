package testscripts

import (
	"bytes"
	"fmt"
	"go/format"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/goanomaly/goanomaly/instrument/plan"
	"github.com/goanomaly/goanomaly/instrument/rewrite"
)

// probe is a stand-in rewriter for scripts that test the build machinery
// itself (the overlay, the runtime's provisioning, site ids, the cache)
// independently of what the real rewriter decides to instrument. In every
// file that contains the comment //goanomaly:probe it replaces the string
// "plain" by "checked", and it adds to the package a file that imports the
// runtime and prints, at init, the package and its first site id.
func probe(pkgs []*packages.Package, test []bool, cfg rewrite.Config) ([]*rewrite.Result, error) {
	var results []*rewrite.Result
	for i, p := range pkgs {
		c := cfg
		c.Test = test[i]
		res, err := probePackage(p, c)
		if err != nil {
			return nil, err
		}
		results = append(results, res)
		cfg.FirstSite = res.NextSite
	}
	return results, nil
}

func probePackage(pkg *packages.Package, cfg rewrite.Config) (*rewrite.Result, error) {
	res := &rewrite.Result{
		Files: map[string][]byte{}, NewFiles: map[string][]byte{},
		NextSite: cfg.FirstSite, Plan: &plan.Package{Path: pkg.PkgPath},
	}
	for _, f := range pkg.Syntax {
		name := pkg.Fset.File(f.Pos()).Name()
		if cfg.Skip != nil && cfg.Skip(name) {
			continue
		}
		var buf bytes.Buffer
		if err := format.Node(&buf, pkg.Fset, f); err != nil {
			return nil, err
		}
		data := buf.Bytes() // as loaded, the user's overlay applied
		if !bytes.Contains(data, []byte("//goanomaly:probe")) {
			continue
		}
		res.Files[name] = bytes.ReplaceAll(data, []byte(`"plain"`), []byte(`"checked"`))
		res.Plan.Notes = append(res.Plan.Notes, plan.Note{
			Pos: plan.PosOf(pkg.Fset, f.Package), Msg: "probe rewrote this file",
		})
	}
	if len(res.Files) == 0 {
		return res, nil
	}
	dir := filepath.Dir(pkg.GoFiles[0])
	name := "zz_goanomaly_probe.go"
	if strings.HasSuffix(pkg.Name, "_test") {
		name = "zz_goanomaly_probe_test.go"
	}
	res.NewFiles[filepath.Join(dir, name)] = fmt.Appendf(nil, `package %s

import _ %q

func init() { println("goanomaly-probe: %s site %d test %v") }
`, pkg.Name, cfg.RTPath, pkg.PkgPath, cfg.FirstSite, cfg.Test)
	res.NextSite++
	return res, nil
}
