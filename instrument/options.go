// Package instrument is goanomaly's build orchestration: it loads the
// packages a go build, run, test or vet command line names, has each package
// of the main module(s), and of the dependency modules -deps chooses,
// rewritten into its checked form, writes the results
// beside the user's tree (never into it), makes the runtime importable, and
// runs the real go command on an overlay, passing its exit status through.
package instrument

import (
	"io"

	"golang.org/x/tools/go/packages"

	"github.com/goanomaly/goanomaly/instrument/gocmd"
	"github.com/goanomaly/goanomaly/instrument/rewrite"
)

// Rewriter rewrites packages built together (loaded by one packages.Load),
// numbering sites on from cfg.FirstSite; test[i] sets cfg.Test for pkgs[i].
// rewrite.Packages is the real one.
type Rewriter func(pkgs []*packages.Package, test []bool, cfg rewrite.Config) ([]*rewrite.Result, error)

// Options is one goanomaly build, run, test or vet command.
type Options struct {
	Line   *gocmd.Line // the parsed command line
	Dir    string      // working directory
	Env    []string    // environment of the go command and the program
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	// Rewrite rewrites the packages; nil means rewrite.Packages. Tests set it
	// to exercise the overlay and the runtime provisioning end to end.
	Rewrite Rewriter
}

func (o *Options) rewriter() Rewriter {
	if o.Rewrite != nil {
		return o.Rewrite
	}
	return rewrite.Packages
}
