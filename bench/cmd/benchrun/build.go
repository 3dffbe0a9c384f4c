package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// variant is one way of building the kernels.
type variant struct {
	name string   // plain, goanomaly, conservative, race, dormant, sample, sliced, hb
	env  []string // added to the environment of its runs
	dir  string   // where its binaries are
}

// buildAll builds every kernel in every variant. The goanomaly and
// conservative variants are left out, with a warning, when no goanomaly
// binary can be had; the conservative one also when that goanomaly refuses
// -conservative (it is newer than some goanomaly binaries one may measure).
func buildAll(o *options, root, work string, kernels []string) ([]variant, error) {
	vs := []variant{{name: "plain"}}
	var tool string
	if o.builds["goanomaly"] || o.builds["conservative"] || o.builds["dormant"] || o.builds["sample"] || o.builds["sliced"] || o.builds["hb"] {
		var err error
		if tool, err = goanomalyTool(o, root, work); err != nil {
			if o.goanomaly != "" {
				return nil, err
			}
			fmt.Fprintf(os.Stderr, "benchrun: no goanomaly build: %v\n", err)
		} else {
			// sliced: goanomaly build -slice, the post-mortem rerun, which
			// computes only what the report depends on (docs/slice.md).
			// hb: goanomaly build -hb, the code outside constructs
			// checked by happens-before (docs/runtime.md).
			for _, name := range []string{"goanomaly", "conservative", "sliced", "hb"} {
				if o.builds[name] {
					vs = append(vs, variant{name: name, env: []string{"GOANOMALY=summary=1"}})
				}
			}
			// The dormant binary with checks off, and with a root
			// instance in a hundred checked (the always-on budget).
			if o.builds["dormant"] {
				vs = append(vs, variant{name: "dormant", env: []string{"GOANOMALY="}})
			}
			if o.builds["sample"] {
				vs = append(vs, variant{name: "sample", env: []string{"GOANOMALY=sample=0.01"}})
			}
		}
	}
	if o.builds["race"] {
		vs = append(vs, variant{name: "race"})
	}
	var built []variant
	for _, v := range vs {
		v.dir = filepath.Join(work, v.name)
		err := buildVariant(v, tool, root, kernels)
		var refused *refusedFlag
		if errors.As(err, &refused) {
			fmt.Fprintf(os.Stderr, "benchrun: no %s column: %v\n", v.name, refused)
			continue
		}
		if err != nil {
			return nil, err
		}
		built = append(built, v)
	}
	return built, nil
}

// buildVariant builds every kernel the way v says, with tool for the
// goanomaly builds.
func buildVariant(v variant, tool, root string, kernels []string) error {
	for _, k := range kernels {
		out := filepath.Join(v.dir, k)
		if err := os.MkdirAll(filepath.Dir(out), 0o777); err != nil {
			return err
		}
		if err := runBuild(root, buildArgs(v.name, tool, out, "./bench/"+k)); err != nil {
			return err
		}
	}
	return nil
}

// buildArgs is the command line that builds pkg into out as variant name.
func buildArgs(name, tool, out, pkg string) []string {
	switch name {
	case "goanomaly":
		return []string{tool, "build", "-o", out, pkg}
	case "conservative":
		return []string{tool, "build", "-conservative", "-o", out, pkg}
	case "sliced":
		return []string{tool, "build", "-slice", "-o", out, pkg}
	case "hb":
		return []string{tool, "build", "-hb", "-o", out, pkg}
	case "dormant", "sample":
		return []string{tool, "build", "-dormant", "-o", out, pkg}
	case "race":
		return []string{"go", "build", "-race", "-o", out, pkg}
	}
	return []string{"go", "build", "-o", out, pkg}
}

// refusedFlag is a build that failed because its command does not know
// one of the flags benchrun gave it.
type refusedFlag struct {
	args []string
	flag string
	out  string // the command's first line about it
}

func (e *refusedFlag) Error() string {
	return fmt.Sprintf("%s does not accept %s (%s)", e.args[0], e.flag, e.out)
}

// runBuild runs a build command in dir. A failure because the command does
// not define one of its flags is a *refusedFlag.
func runBuild(dir string, args []string) error {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	b, err := cmd.CombinedOutput()
	if err == nil {
		return nil
	}
	for _, a := range args[1:] {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		if line := lineWith(b, "flag provided but not defined: "+a); line != "" {
			return &refusedFlag{args: args, flag: a, out: line}
		}
	}
	return fmt.Errorf("%s: %v\n%s", strings.Join(args, " "), err, b)
}

// lineWith returns the first line of out that contains s, or "".
func lineWith(out []byte, s string) string {
	for line := range bytes.Lines(out) {
		if bytes.Contains(line, []byte(s)) {
			return strings.TrimSpace(string(line))
		}
	}
	return ""
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
