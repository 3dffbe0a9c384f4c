package instrument

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"

	"github.com/goanomaly/goanomaly/instrument/gocmd"
)

// vetMatch makes goanomaly vet fail where go vet fails before vetting
// anything: a pattern that names a missing directory or an unknown package,
// a directory without Go files, or patterns that match no package at all.
// The loader keeps such patterns as packages with errors outside the main
// module, which vet never looks at, so without this goanomaly vet printed
// nothing and exited 0. go list -find resolves the patterns as go vet does,
// without building anything, and prints the go command's own messages; it
// returns go list's status (and "no packages to vet", status 1, when nothing
// matched), 0 when vetting may go on.
func (s *session) vetMatch(ctx context.Context) (int, error) {
	args := []string{"list", "-find"}
	for _, a := range s.opts.Line.Args {
		if isLoadFlag(a.Name) && !contains(s.drop, a.Name) {
			args = append(args, "-"+a.Name+"="+a.Value)
		}
	}
	if s.modFile != "" {
		args = append(args, "-modfile="+s.modFile)
	}
	args = append(append(args, "--"), s.opts.Line.Patterns...)
	cmd := exec.CommandContext(ctx, s.gotool, args...)
	cmd.Dir, cmd.Env, cmd.Stderr = s.opts.Dir, s.env, s.opts.Stderr
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	code, ok := gocmd.ExitCode(err)
	switch {
	case !ok:
		return 0, fmt.Errorf("running go list: %v", err)
	case code != 0:
		return code, nil
	case strings.TrimSpace(out.String()) == "":
		fmt.Fprintln(s.opts.Stderr, "no packages to vet")
		return 1, nil
	}
	return 0, nil
}
