package gocmd

import (
	"errors"
	"fmt"
	"strings"
)

// Parse parses the arguments of goanomaly cmd (build, run, test or vet) the
// way the go command parses those of go cmd: the same flags, the same rules
// for where the package list starts and ends. goanomaly's own flags (-quiet,
// -keep, -debug, -deps) may appear wherever a go flag may. Errors read like the go
// command's usage errors; -h yields ErrHelp.
func Parse(cmd string, args []string) (*Line, error) {
	p := &parser{line: &Line{Cmd: cmd, Deps: DepsConstructs}, args: args}
	var err error
	switch cmd {
	case "test":
		err = p.test()
	case "run":
		err = p.run()
	default:
		err = p.build()
	}
	if err != nil {
		return nil, err
	}
	if p.line.Slice && p.line.Dormant {
		return nil, errors.New("-slice cannot be combined with -dormant: a dormant binary runs the plain code too, which slicing would change; rerun with -slice alone")
	}
	if p.line.HB && (p.line.Dormant || p.line.Slice) {
		return nil, errors.New("-hb cannot be combined with -dormant or -slice yet: the happens-before checks (issue 13, phase 1) run in every build that has them; rerun with -hb alone")
	}
	return p.line, nil
}

// next parses the flag at the head of the arguments. It returns false, with
// no error, when the head is not a flag (or is the terminator "--", which
// it consumes when dropTerminator is set).
func (p *parser) next(dropTerminator bool) (bool, error) {
	w := p.args[0]
	if w == "--" {
		if dropTerminator {
			p.args = p.args[1:]
		}
		return false, nil
	}
	name, value, hasValue, ok := flagWord(w)
	if !ok {
		return false, nil
	}
	switch name {
	case "h", "help", "?":
		return false, ErrHelp
	case "C":
		return false, errors.New("-C flag must be first flag on command line")
	}
	k := ownFlagKind(name)
	if k == Unknown {
		k = flagKind(p.line.Cmd, name)
	}
	if k == Unknown {
		return false, fmt.Errorf("flag provided but not defined: -%s", name)
	}
	return true, p.flag(name, value, hasValue, k)
}

// flags parses flags up to the first non-flag argument, as package flag does.
func (p *parser) flags() error {
	for len(p.args) > 0 {
		more, err := p.next(true)
		if err != nil || !more {
			return err
		}
	}
	return nil
}

// build parses "go build [flags] [packages]": every argument after the
// flags is a package (go build does not take flags after them).
func (p *parser) build() error {
	if err := p.flags(); err != nil {
		return err
	}
	for len(p.args) > 0 {
		p.word(true)
	}
	return nil
}

// run parses "go run [flags] package|files... [arguments...]" as go run
// does: a run of .go files, or else one package (a word not starting with
// "-"), and everything after it is the program's, including a "--".
func (p *parser) run() error {
	if err := p.flags(); err != nil {
		return err
	}
	for len(p.args) > 0 && strings.HasSuffix(p.args[0], ".go") {
		p.word(true)
	}
	if len(p.line.Patterns) == 0 {
		if len(p.args) == 0 || strings.HasPrefix(p.args[0], "-") {
			return errors.New("no go files listed")
		}
		p.word(true)
	}
	p.line.ProgArgs = p.args
	p.args = nil
	return nil
}
