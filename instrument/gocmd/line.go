package gocmd

import (
	"errors"
	"fmt"
	"strings"
)

// ErrHelp is returned by Parse for -h, -help and -?.
var ErrHelp = errors.New("help requested")

// Arg is one argument of a command line: a flag with its value (one or two
// words, as written), or a word that is not a flag.
type Arg struct {
	Words []string // as written: ["-tags", "x"], ["-tags=x"], ["./..."]
	Name  string   // flag name without dashes; "" for a non-flag word
	Value string   // the flag's value ("true" for a bool flag given alone)
}

// Line is a parsed goanomaly build, run, test or vet command line.
type Line struct {
	Cmd      string   // "build", "run", "test" or "vet"
	Args     []Arg    // what the go command gets, in order, without goanomaly's own flags
	Patterns []string // the package patterns or .go files among Args
	ProgArgs []string // run only: the program's arguments, after the package
	Quiet    bool     // -quiet: no notes
	Keep     bool     // -keep: keep the work directory and print it
	Debug    string   // -debug: "" off, "-" plan JSON to stderr, else a file name
	Deps     Deps     // -deps: which dependency packages are rewritten too

	// Conservative (-conservative) checks every shared access, also those
	// the static stage proved race-free (rewrite.Config.Conservative): a
	// benchmarking and diagnostic build, the cost of a fully checked run.
	// Like -race, it leaves unchecked the reads of a captured variable that
	// cannot change once captured (the compiler copies it into the closure).
	Conservative bool
	// Dormant (-dormant) builds one binary with the plain and the checked
	// code of every root construct (rewrite.Config.Dormant): it runs as
	// written until GOANOMALY=check=1 or sample=P asks for checks.
	Dormant bool
	// Slice (-slice) builds the checked program sliced with respect to its
	// report (instrument/slice): what cannot change the report is dropped.
	// vet -slice prints what each function keeps and drops, and why.
	Slice bool
	// HB (-hb) also checks the code of the rewritten packages that runs
	// outside every construct, by happens-before between goroutines
	// (rewrite.Config.HB; issue 13, phase 1).
	HB bool
}

// Deps is the value of -deps: which packages of other modules in the
// import graph are rewritten beside the main module's.
type Deps string

// The values of -deps.
const (
	DepsNone       Deps = "none"       // only the main module's packages
	DepsConstructs Deps = "constructs" // the modules holding a construct (the default)
	DepsAll        Deps = "all"        // every package outside the standard library
)

// Flag returns the last value given for the go flag name and whether it was given.
func (l *Line) Flag(name string) (string, bool) {
	v, ok := "", false
	for _, a := range l.Args {
		if a.Name == name {
			v, ok = a.Value, true
		}
	}
	return v, ok
}

// Words returns the arguments for the go command, leaving out the flags named in drop.
func (l *Line) Words(drop ...string) []string {
	var w []string
	for _, a := range l.Args {
		if a.Name == "" || !contains(drop, a.Name) {
			w = append(w, a.Words...)
		}
	}
	return w
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// flagWord splits a word that is syntactically a flag (-f, --f, -f=v) into
// its name and value; ok is false for anything else ("-", "--", "x", "-=x").
func flagWord(w string) (name, value string, hasValue, ok bool) {
	s := w
	if strings.HasPrefix(s, "--") {
		s = s[1:]
	}
	if len(s) < 2 || s[0] != '-' || s[1] == '-' || s[1] == '=' {
		return "", "", false, false
	}
	name, value, hasValue = strings.Cut(s[1:], "=")
	return name, value, hasValue, true
}

// parser walks a command line one argument at a time.
type parser struct {
	line *Line
	args []string
}

// flag consumes the flag at the head of args, whose name is known to be of
// kind k, and records it (as the go command's, or as goanomaly's own).
func (p *parser) flag(name, value string, hasValue bool, k Kind) error {
	words := p.args[:1]
	p.args = p.args[1:]
	if k == Value && !hasValue {
		if len(p.args) == 0 {
			return fmt.Errorf("flag needs an argument: -%s", name)
		}
		words, value = []string{words[0], p.args[0]}, p.args[0]
		p.args = p.args[1:]
	}
	if k == Bool && !hasValue {
		value = "true"
	}
	if ownFlagKind(name) != Unknown {
		return p.own(name, value, hasValue)
	}
	if why := refused(name); why != "" && value != "false" {
		return fmt.Errorf("-%s is not supported: %s", name, why)
	}
	p.line.Args = append(p.line.Args, Arg{Words: words, Name: name, Value: value})
	return nil
}

// own records one of goanomaly's own flags.
func (p *parser) own(name, value string, hasValue bool) error {
	on := value != "false" && value != "0"
	switch name {
	case "quiet":
		p.line.Quiet = on
	case "keep":
		p.line.Keep = on
	case "conservative":
		p.line.Conservative = on
	case "dormant":
		p.line.Dormant = on
	case "slice":
		p.line.Slice = on
	case "hb":
		p.line.HB = on
	case "deps":
		switch d := Deps(value); d {
		case DepsNone, DepsConstructs, DepsAll:
			p.line.Deps = d
		default:
			return fmt.Errorf("invalid value %q for flag -deps: want none, constructs or all", value)
		}
	case "debug":
		p.line.Debug = ""
		switch {
		case hasValue && value != "true" && value != "1" && on:
			p.line.Debug = value
		case on:
			p.line.Debug = "-"
		}
	}
	return nil
}

// word records a non-flag argument (a package pattern or .go file).
func (p *parser) word(pattern bool) {
	p.line.Args = append(p.line.Args, Arg{Words: p.args[:1]})
	if pattern {
		p.line.Patterns = append(p.line.Patterns, p.args[0])
	}
	p.args = p.args[1:]
}
