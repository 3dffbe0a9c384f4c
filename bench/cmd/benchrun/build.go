package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// variant is one way of building the kernels.
type variant struct {
	name string   // plain, goanomaly, race
	env  []string // added to the environment of its runs
	dir  string   // where its binaries are
}

// buildAll builds every kernel in every variant. The goanomaly variant is
// left out, with a warning, when no goanomaly binary can be had.
func buildAll(o *options, root, work string, kernels []string) ([]variant, error) {
	vs := []variant{{name: "plain"}}
	var tool string
	if o.builds["goanomaly"] {
		var err error
		if tool, err = goanomalyTool(o, root, work); err != nil {
			if o.goanomaly != "" {
				return nil, err
			}
			fmt.Fprintf(os.Stderr, "benchrun: no goanomaly build: %v\n", err)
		} else {
			vs = append(vs, variant{name: "goanomaly", env: []string{"GOANOMALY=summary=1"}})
		}
	}
	if o.builds["race"] {
		vs = append(vs, variant{name: "race"})
	}
	for i := range vs {
		v := &vs[i]
		v.dir = filepath.Join(work, v.name)
		for _, k := range kernels {
			out := filepath.Join(v.dir, k)
			pkg := "./bench/" + k
			var args []string
			switch v.name {
			case "plain":
				args = []string{"go", "build", "-o", out, pkg}
			case "goanomaly":
				args = []string{tool, "build", "-o", out, pkg}
			case "race":
				args = []string{"go", "build", "-race", "-o", out, pkg}
			}
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Dir = root
			if b, err := cmd.CombinedOutput(); err != nil {
				return nil, fmt.Errorf("%s: %v\n%s", strings.Join(args, " "), err, b)
			}
		}
	}
	return vs, nil
}

// goanomalyTool returns -goanomaly, or a goanomaly built from ./cmd/goanomaly.
func goanomalyTool(o *options, root, work string) (string, error) {
	if o.goanomaly != "" {
		return filepath.Abs(o.goanomaly)
	}
	bin := filepath.Join(work, "bin", "goanomaly")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/goanomaly")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building ./cmd/goanomaly: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return bin, nil
}

// moduleRoot returns the directory of the main module's go.mod.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	gomod := strings.TrimSpace(string(out))
	if err != nil || gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("run benchrun inside the goanomaly module")
	}
	return filepath.Dir(gomod), nil
}
