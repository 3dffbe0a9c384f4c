package instrument

import (
	"context"
	"fmt"
	"os/exec"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/goanomaly/goanomaly/instrument/gocmd"
	"github.com/goanomaly/goanomaly/instrument/overlay"
)

// Run carries out one goanomaly build, run, test or vet command and returns
// its exit status: the go command's for build and test, the program's for
// run. An error is goanomaly's own failure (to be printed, status 1).
func Run(ctx context.Context, o *Options) (int, error) {
	if err := gocmd.CheckGOFLAGS(o.Env); err != nil {
		return 0, err
	}
	gotool, err := gocmd.Tool(o.Env)
	if err != nil {
		return 0, err
	}
	s := &session{opts: o, gotool: gotool, userOverlay: &overlay.Overlay{}}
	if f, ok := o.Line.Effective("overlay", o.Env); ok && f != "" {
		if s.userOverlay, err = overlay.Read(f, o.Dir); err != nil {
			return 0, err
		}
	}
	work, _ := o.Line.Flag("work")
	keep := o.Line.Keep || work == "true"
	if s.wd, err = overlay.NewWorkDir(keep, s.userOverlay); err != nil {
		return 0, err
	}
	defer s.wd.Close()
	if keep {
		fmt.Fprintf(o.Stderr, "GOANOMALY_WORK=%s\n", s.wd.Dir)
	}
	closeDebug, err := s.openDebug()
	if err != nil {
		return 0, err
	}
	defer closeDebug()
	if err := s.setup(ctx); err != nil {
		return 0, err
	}
	if o.Line.Cmd == "vet" {
		if code, err := s.vetMatch(ctx); code != 0 || err != nil {
			return code, err
		}
	}
	if err := s.instrument(ctx); err != nil {
		return 0, err
	}
	if o.Line.Cmd == "vet" && !o.Line.Slice {
		return s.vetStatus(), nil
	}
	if err := s.prepare(); err != nil {
		return 0, err
	}
	if o.Line.Slice {
		if err := s.slice(ctx); err != nil {
			return 0, err
		}
	}
	if o.Line.Cmd == "vet" {
		return s.vetStatus(), nil
	}
	if o.Line.Cmd == "run" {
		return s.run(ctx)
	}
	reports := s.setReportDir()
	code, err := s.goCommand(ctx, s.goArgs(o.Line.Cmd))
	if err == nil && reports != "" && s.showTestReports(reports) && code == 0 {
		code = 1 // a binary that ends without rt.Fini found a data race (testreports.go)
	}
	return code, err
}

// goArgs returns the go command's arguments for subcommand cmd: our flags
// first, then the user's (minus those ours replace), with the files added to
// a command-line-arguments package after the user's files.
func (s *session) goArgs(cmd string, extra ...string) []string {
	args := append([]string{cmd}, s.flags...)
	args = append(args, extra...)
	last := -1
	for i, a := range s.opts.Line.Args {
		if a.Name == "" && len(s.newFiles) > 0 && gocmd.IsGoFile(a.Words[0]) {
			last = i
		}
	}
	for i, a := range s.opts.Line.Args {
		if a.Name != "" && (contains(s.drop, a.Name) || cmd != s.opts.Line.Cmd && a.Name == "exec") {
			continue
		}
		args = append(args, a.Words...)
		if i == last {
			args = append(args, s.newFiles...)
		}
	}
	return args
}

// goCommand runs the go command with goanomaly's standard streams and
// returns its exit status.
func (s *session) goCommand(ctx context.Context, args []string) (int, error) {
	if x, _ := s.opts.Line.Flag("x"); x == "true" {
		fmt.Fprintf(s.opts.Stderr, "go %s\n", strings.Join(args, " "))
	}
	cmd := exec.CommandContext(ctx, s.gotool, args...)
	cmd.Dir, cmd.Env = s.opts.Dir, s.env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.opts.Stdin, s.opts.Stdout, s.opts.Stderr
	err := cmd.Run()
	code, ok := gocmd.ExitCode(err)
	if !ok {
		return 0, fmt.Errorf("running go: %v", err)
	}
	return code, nil
}

// vetStatus is goanomaly vet's exit status: 1, with the errors printed, if a
// package failed to load or type-check, or a definite conflict was found.
func (s *session) vetStatus() int {
	if s.loadErr != nil {
		fmt.Fprintln(s.opts.Stderr, s.loadErr)
		return 1
	}
	status := 0
	if s.definite {
		status = 1
	}
	for _, t := range s.targets {
		for _, e := range vetErrors(t.pkg) {
			fmt.Fprintln(s.opts.Stderr, e)
			status = 1
		}
	}
	return status
}

// vetErrors returns a package's parse and type errors, or, if it has none,
// its other errors (the go command's, which repeat the former without
// positions when the package's export data failed to build).
func vetErrors(p *packages.Package) []packages.Error {
	var precise []packages.Error
	for _, e := range p.Errors {
		if e.Kind != packages.ListError {
			precise = append(precise, e)
		}
	}
	if len(precise) > 0 {
		return precise
	}
	return p.Errors
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
