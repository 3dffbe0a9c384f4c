package goanomalytest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// The classes of rt's reports, and the words the commands use for them.
const (
	dataRace = "DATA RACE"
	nondet   = "NONDETERMINISM"
)

// cmdRaces runs "races N".
func cmdRaces(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: races N")
	}
	runCheck(ts, neg, "races", dataRace, args)
}

// cmdRace runs "race FILE:LINE FILE:LINE KIND".
func cmdRace(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: race FILE:LINE FILE:LINE KIND")
	}
	runCheck(ts, neg, "race", dataRace, args)
}

// cmdNondet runs "nondet N" and "nondet FILE:LINE FILE:LINE KIND".
func cmdNondet(ts *testscript.TestScript, neg bool, args []string) {
	runCheck(ts, neg, "nondet", nondet, args)
}

// runCheck checks the reports of class in the last command's output
// against args: a count, or a pair of sites and a kind.
func runCheck(ts *testscript.TestScript, neg bool, name, class string, args []string) {
	if len(args) != 1 && len(args) != 3 {
		ts.Fatalf("usage: %s N | %s FILE:LINE FILE:LINE KIND", name, name)
	}
	out, err := parseOutput([]byte(ts.ReadFile("stdout") + "\n" + ts.ReadFile("stderr")))
	if err != nil {
		ts.Fatalf("%s: %v", name, err)
	}
	if err := check(out, class, args, neg, ts.Getenv("WORK")); err != nil {
		ts.Fatalf("%s: %v", name, err)
	}
}

// check returns an error saying what was expected and what was reported
// when the conflicts of class in out do not satisfy args (negated by neg),
// or when out holds no goanomaly output at all.
func check(out output, class string, args []string, neg bool, work string) error {
	if !out.seen {
		return fmt.Errorf("the last command printed no goanomaly JSON report or summary on stdout or stderr: run a checked program with GOANOMALY=format=json")
	}
	got := out.filter(class)
	if len(args) == 1 {
		want, err := strconv.Atoi(args[0])
		if err != nil || want < 0 {
			return fmt.Errorf("%q: want a count", args[0])
		}
		switch {
		case !neg && len(got) != want:
			return fmt.Errorf("reported %s, want %d%s", count(len(got), class), want, list(got, work))
		case neg && len(got) == want:
			return fmt.Errorf("reported %s, want any other number%s", count(len(got), class), list(got, work))
		}
		return nil
	}
	want, err := parseWant(args)
	if err != nil {
		return err
	}
	for _, c := range got {
		if want.matches(c, work) {
			if neg {
				return fmt.Errorf("unexpected %s between %s: reported %s", strings.ToLower(class), want, c.format(work))
			}
			return nil
		}
	}
	if neg {
		return nil
	}
	return fmt.Errorf("no %s between %s; reported %s%s", strings.ToLower(class), want, count(len(got), class), list(got, work))
}

// wantConflict is the pair of an assertion: two sites and their accesses.
type wantConflict struct {
	op   [2]string
	site [2]site
	args []string
}

// parseWant parses FILE:LINE FILE:LINE KIND. KIND names the accesses at
// the two sites in the same order: "a.go:3 b.go:5 WRITE-READ" is a write
// at a.go:3 and a read at b.go:5, whichever the program ran first.
func parseWant(args []string) (wantConflict, error) {
	w := wantConflict{args: args}
	var ok bool
	if w.op[0], w.op[1], ok = splitKind(args[2]); !ok || strings.ToUpper(args[2]) != args[2] {
		return w, fmt.Errorf("%q: want WRITE-WRITE, WRITE-READ or READ-WRITE", args[2])
	}
	for i := range 2 {
		s, err := parseSite(args[i])
		if err != nil {
			return w, err
		}
		w.site[i] = s
	}
	return w, nil
}

// matches reports whether c is the wanted pair, in either order.
func (w wantConflict) matches(c conflict, work string) bool {
	side := func(i int, a access) bool { return a.op == w.op[i] && w.site[i].matches(a.pos, work) }
	return side(0, c.a) && side(1, c.b) || side(0, c.b) && side(1, c.a)
}

// String returns "a write at a.go:3 and a read at b.go:5".
func (w wantConflict) String() string {
	return fmt.Sprintf("a %s at %s and a %s at %s", w.op[0], w.args[0], w.op[1], w.args[1])
}

// count returns "2 data races", "no data race", "1 nondeterminism report".
func count(n int, class string) string {
	noun := strings.ToLower(class)
	if class == nondet {
		noun += " report"
	}
	switch {
	case n == 0:
		return "no " + noun
	case n > 1:
		noun += "s"
	}
	return fmt.Sprintf("%d %s", n, noun)
}

// list returns the conflicts one per line, for a message: ":\n\twrite of
// x at main.go:12:3 and read of x at main.go:15:5".
func list(cs []conflict, work string) string {
	if len(cs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(":")
	for _, c := range cs {
		b.WriteString("\n\t" + c.format(work))
	}
	return b.String()
}
