// Package cli is the goanomaly command line: it parses a command and its
// flags and hands the work to package instrument. It is a package, not part
// of main, so that tests can run the command in-process (testscripts
// re-executes its test binary as goanomaly).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/goanomaly/goanomaly/instrument"
	"github.com/goanomaly/goanomaly/instrument/gocmd"
)

// Main runs goanomaly with args (without the program name) and returns the
// exit status. rw rewrites each package; nil means the real rewriter.
func Main(args []string, rw instrument.Rewriter) int {
	if len(args) == 0 {
		usage(os.Stderr)
		return 2
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "build", "run", "test", "vet":
		return goCommand(cmd, rest, rw)
	case "version":
		return version(os.Stdout)
	case "help", "-h", "-help", "--help":
		return help(rest, os.Stdout)
	default:
		fmt.Fprintf(os.Stderr, "goanomaly %s: unknown command\nRun 'goanomaly help' for usage.\n", cmd)
		return 2
	}
}

// goCommand runs build, run, test or vet.
func goCommand(cmd string, args []string, rw instrument.Rewriter) int {
	dir, args, err := chdirFlag(args)
	if err == nil {
		dir, err = filepath.Abs(dir)
	}
	var line *gocmd.Line
	if err == nil {
		line, err = gocmd.Parse(cmd, args)
	}
	if errors.Is(err, gocmd.ErrHelp) {
		fmt.Fprintf(os.Stderr, "usage: %s\nRun 'goanomaly help %s' for details.\n", commandDoc(cmd).usage, cmd)
		return 2
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "goanomaly %s: %v\nusage: %s\nRun 'goanomaly help %s' for details.\n", cmd, err, commandDoc(cmd).usage, cmd)
		return 2
	}
	opts := &instrument.Options{
		Line: line, Dir: dir, Env: os.Environ(),
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Rewrite: rw,
	}
	code, err := instrument.Run(context.Background(), opts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "goanomaly: %v\n", err)
		return 1
	}
	return code
}

// chdirFlag handles -C dir, which must come first, as in the go command.
func chdirFlag(args []string) (dir string, rest []string, err error) {
	if len(args) == 0 {
		return ".", args, nil
	}
	name, value, hasValue := strings.Cut(strings.TrimPrefix(args[0], "-"), "=")
	if name != "-C" && name != "C" {
		return ".", args, nil
	}
	if hasValue {
		return value, args[1:], nil
	}
	if len(args) < 2 {
		return "", nil, errors.New("flag needs an argument: -C")
	}
	return args[1], args[2:], nil
}

func usage(w io.Writer) {
	fmt.Fprint(w, topUsage)
}
