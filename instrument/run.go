package instrument

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path"
	"path/filepath"
	"strings"

	"github.com/goanomaly/goanomaly/instrument/gocmd"
)

// run builds the program into the work directory and runs it with
// goanomaly's standard streams and the arguments after the package, as go
// run does, except that goanomaly's exit status is the program's own (go
// run prints "exit status N" and exits 1), so that a script sees 66 when
// the runtime reported a data race.
func (s *session) run(ctx context.Context) (int, error) {
	goexe, err := s.getenv(ctx, "GOEXE")
	if err != nil {
		return 0, err
	}
	exe := filepath.Join(s.wd.Dir, "bin", s.exeName()+goexe)
	code, err := s.goCommand(ctx, s.goArgs("build", "-o", exe))
	if err != nil || code != 0 {
		return code, err
	}
	if n, _ := s.opts.Line.Flag("n"); n == "true" {
		return 0, nil // go run -n prints the commands and runs nothing
	}
	argv, err := s.execArgs(ctx, exe)
	if err != nil {
		return 0, err
	}
	cmd := exec.Command(argv[0], append(argv[1:], s.opts.Line.ProgArgs...)...)
	cmd.Dir, cmd.Env = s.opts.Dir, s.opts.Env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.opts.Stdin, s.opts.Stdout, s.opts.Stderr
	// The program, in our process group, gets the terminal's interrupt and
	// decides what to do with it; we wait for it like go run.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	err = cmd.Run()
	code, ok := gocmd.ExitCode(err)
	if !ok {
		return 0, err
	}
	return code, nil
}

// execArgs returns how to start the binary: directly, under the -exec
// program, or, when cross-compiled, under go_$GOOS_$GOARCH_exec from PATH,
// as go run does.
func (s *session) execArgs(ctx context.Context, exe string) ([]string, error) {
	if x, ok := s.opts.Line.Flag("exec"); ok && x != "" {
		return append(strings.Fields(x), exe), nil
	}
	env := map[string]string{}
	for _, k := range []string{"GOOS", "GOARCH", "GOHOSTOS", "GOHOSTARCH"} {
		v, err := s.getenv(ctx, k)
		if err != nil {
			return nil, err
		}
		env[k] = v
	}
	if env["GOOS"] == env["GOHOSTOS"] && env["GOARCH"] == env["GOHOSTARCH"] {
		return []string{exe}, nil
	}
	name := fmt.Sprintf("go_%s_%s_exec", env["GOOS"], env["GOARCH"])
	p, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("cannot run GOOS=%s GOARCH=%s binary: %s not found in $PATH", env["GOOS"], env["GOARCH"], name)
	}
	return []string{p, exe}, nil
}

// exeName is the name go run gives the binary: the first file's name
// without .go, else the last element of the package path (the one before a
// major version suffix /vN).
func (s *session) exeName() string {
	first := s.opts.Line.Patterns[0]
	if gocmd.IsGoFile(first) {
		return strings.TrimSuffix(filepath.Base(first), ".go")
	}
	p := filepath.Base(abs(first, s.opts.Dir))
	if len(s.roots) == 1 && s.roots[0].PkgPath != "" {
		p = s.roots[0].PkgPath
	}
	elem := path.Base(p)
	if dir := path.Dir(p); isMajorVersion(elem) && dir != "." {
		elem = path.Base(dir)
	}
	return elem
}

func isMajorVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != "v0" && s != "v1" && s[1] != '0'
}
