package gocmd

import "strings"

// test parses "go test [flags] [packages] [flags and test binary arguments]"
// as cmd/go/internal/test.testFlags does: known flags anywhere before the
// first positional test argument; the package list is the first run of
// non-flag words; an unknown flag goes to the test binary and ends the
// package list; "-args" and "--" hand everything after them to the binary.
func (p *parser) test() error {
	var (
		sawPkgs, inPkgs bool
		afterBareFlag   bool // the previous word was an unknown flag without =value
	)
	for len(p.args) > 0 {
		w := p.args[0]
		wasAfterBareFlag := afterBareFlag
		afterBareFlag = false
		if w == "--" {
			p.rest()
			return nil
		}
		name, _, hasValue, ok := flagWord(w)
		if !ok {
			switch {
			case !inPkgs && sawPkgs && wasAfterBareFlag:
				p.word(false) // a value of the unknown flag, as go test assumes
			case !inPkgs && sawPkgs:
				p.rest()
				return nil
			default:
				inPkgs, sawPkgs = true, true
				p.word(true)
			}
			continue
		}
		inPkgs = false
		if ownFlagKind(name) == Unknown && testFlagKind(name) == Unknown && !isHelp(name) && name != "C" {
			sawPkgs = true // an unknown flag ends the package list
			if name == "args" {
				p.rest()
				return nil
			}
			p.word(false)
			afterBareFlag = !hasValue
			continue
		}
		if _, err := p.next(false); err != nil {
			return err
		}
	}
	return nil
}

// rest passes all remaining words on to the go command untouched.
func (p *parser) rest() {
	for len(p.args) > 0 {
		p.word(false)
	}
}

func isHelp(name string) bool {
	return name == "h" || name == "help" || name == "?"
}

// IsGoFile reports whether a package argument names a .go file.
func IsGoFile(arg string) bool { return strings.HasSuffix(arg, ".go") }
